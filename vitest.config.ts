import { defineConfig } from 'vitest/config'

// `vitest run --mode fuzz` (npm run fuzz): only the fuzz suite, 10,000 inputs per surface
// (FUZZ_RUNS and FUZZ_SEED override the count and the seed; see test/support/fuzz.ts).
export default defineConfig(({ mode }) => ({
  test: {
    include: mode === 'fuzz' ? ['test/fuzz/**/*.test.ts'] : ['test/**/*.test.ts'],
    testTimeout: 15_000,
    hookTimeout: 30_000,
    ...(mode === 'fuzz' ? { env: { FUZZ: '1' } } : {}),
  },
}))
