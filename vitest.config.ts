import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { defineConfig } from 'vitest/config'

// Guards against a hang, not a pace: the slowest tests run a child vitest or a browser, and two
// files run at once on a two-core machine.
const TIMEOUTS = { testTimeout: 30_000, hookTimeout: 30_000 }
// The suites that reach the emulator only through the contract harness (test/support/harness.ts),
// which builds a fresh emulator for each suite: their files share one module graph per worker
// instead of importing svc-mock, zod and msw again for every file.
const HARNESS_SUITES = ['test/contract/**/*.test.ts', 'test/fuzz/**/*.test.ts']
// HTTPS tests keep svc-mock's local CA in a folder of the test runs', never in the user's data folder.
const ENV = { SVC_MOCK_CA_DIR: join(tmpdir(), 'svc-mock-test-ca') }

// `vitest run --mode fuzz` (npm run fuzz): only the fuzz suite, 10,000 inputs per surface
// (FUZZ_RUNS and FUZZ_SEED override the count and the seed; see test/support/fuzz.ts).
export default defineConfig(({ mode }) => ({
  test:
    mode === 'fuzz'
      ? { ...TIMEOUTS, include: ['test/fuzz/**/*.test.ts'], env: { ...ENV, FUZZ: '1' } }
      : {
          ...TIMEOUTS,
          env: ENV,
          // Two at a time even on two cores (vitest's default there is one): many files wait on
          // child processes, sockets or the browser.
          maxWorkers: 2,
          projects: [
            { extends: true, test: { name: 'harness', include: HARNESS_SUITES, isolate: false } },
            { extends: true, test: { name: 'isolated', include: ['test/**/*.test.ts'], exclude: HARNESS_SUITES } },
          ],
        },
}))
