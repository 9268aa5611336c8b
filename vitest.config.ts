import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { defineConfig } from 'vitest/config'

// Guards against a hang, not a pace: the slowest tests run a child vitest or a browser, and two
// files run at once on a two-core machine.
const TIMEOUTS = { testTimeout: 30_000, hookTimeout: 30_000 }
// Files share one module graph per worker instead of importing svc-mock, zod and msw again for
// every file: each builds the emulators and servers it uses and closes them, and none changes
// what the process holds for later files. The real clients read the environment and the home
// folder when their modules load, and their tests change them: those files get a fresh one each.
// A file that mocks modules or changes globals is listed here too.
const ISOLATED = ['test/real-client/**/*.test.ts']
// HTTPS tests keep svc-mock's local CA in a folder of the test runs', never in the user's data folder.
const ENV = { SVC_MOCK_CA_DIR: join(tmpdir(), 'svc-mock-test-ca') }
// What `npm run test:all` adds to `npm test`, and .ci/run runs after it (`--mode all-only`): the
// fuzz suite's seeded sample, a search over generated inputs rather than a behaviour's check.
const ALL_ONLY = ['test/fuzz/**/*.test.ts']

/** The test files of a mode: `npm test` leaves ALL_ONLY out, `all` (npm run test:all) runs everything, `all-only` ALL_ONLY. */
function files(mode: string): { include: string[]; exclude: string[] } {
  if (mode === 'all') return { include: ['test/**/*.test.ts'], exclude: [] }
  if (mode === 'all-only') return { include: ALL_ONLY, exclude: [] }
  return { include: ['test/**/*.test.ts'], exclude: ALL_ONLY }
}

// `vitest run --mode fuzz` (npm run fuzz): only the fuzz suite, 10,000 inputs per surface
// (FUZZ_RUNS and FUZZ_SEED override the count and the seed; see test/support/fuzz.ts).
export default defineConfig(({ mode }) => {
  const { include, exclude } = files(mode)
  return {
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
              { extends: true, test: { name: 'shared', include, exclude: [...exclude, ...ISOLATED], isolate: false } },
              ...(mode === 'all-only' ? [] : [{ extends: true, test: { name: 'isolated', include: ISOLATED } }]),
            ],
          },
  }
})
