/**
 * `svc-mock/vitest`: one call wires the emulator into a vitest suite. It creates the emulator,
 * starts msw with its handlers before the suite, resets the emulator after each test, closes
 * everything after the suite, and fails a test that made a request no route handles (naming the
 * closest route), so a typo in a path never passes silently as a 404.
 *
 *   const emu = await useEmulator({ clock: 'manual' })
 *   it('…', async () => { await fetch(`${emu.urls.base}/…`) })
 */
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest'
import type { EmulatorOptions } from '../emulator-api.js'
import type { JournalEntry } from '../kernel/journal.js'
import { createEmulator, type InProcessEmulator } from './in-process.js'
import { setupEmulatorServer, unhandled } from './msw.js'

export interface UseEmulatorOptions extends EmulatorOptions {
  /**
   * Reset the emulator after each test (default true). Turn it off for suites whose tests run
   * concurrently: give each test its own scenarios with `emu.scenarios.boundary(fn)` instead.
   */
  resetAfterEach?: boolean
  /** Fail a test that sent a request no route handles (default true). */
  failOnUnhandled?: boolean
  /**
   * What msw does with requests to other origins (default `bypass`); the test fails either way.
   * `error` also fails the request itself under msw 2; under msw 3 msw only prints it, as msw 3 does.
   */
  otherOrigins?: 'bypass' | 'warn' | 'error'
}

/** Sets up the emulator and msw for the enclosing suite; resolves with the emulator. */
export async function useEmulator(options: UseEmulatorOptions = {}): Promise<InProcessEmulator> {
  const { resetAfterEach = true, failOnUnhandled = true, otherOrigins = 'bypass', ...emulatorOptions } = options
  const emu = await createEmulator(emulatorOptions)
  const origins = new Set(Object.values(emu.urls))
  const foreign: string[] = []
  const server = setupEmulatorServer(emu)
  let since = 0

  beforeAll(() => {
    // msw 2 calls this onUnhandledRequest, msw 3 onUnhandledFrame: unhandled() passes the one the installed msw reads.
    server.listen(
      unhandled((request, print) => {
        if (origins.has(new URL(request.url).origin)) return
        foreign.push(`${request.method} ${request.url} reached no msw handler (svc-mock serves ${[...origins].join(', ')})`)
        if (otherOrigins === 'warn') print.warning()
        if (otherOrigins === 'error') print.error()
      }),
    )
  })
  beforeEach(() => {
    since = emu.journal.list({ limit: 1 })[0]?.seq ?? 0
    foreign.length = 0
  })
  afterEach(async () => {
    const problems = failOnUnhandled ? [...foreign, ...emu.journal.list({ route: 'unmatched', since }).map(describeUnmatched)] : []
    foreign.length = 0
    if (resetAfterEach) await emu.reset()
    if (problems.length > 0) throw new Error(`svc-mock: this test sent requests that no route handles:\n  ${problems.join('\n  ')}`)
  })
  afterAll(async () => {
    server.close()
    await emu.close()
  })
  return emu
}

function describeUnmatched(entry: JournalEntry): string {
  let hint = ''
  try {
    const body = JSON.parse(entry.response.body ?? '{}') as { closest?: string; message?: string }
    if (entry.status === 405) hint = ` (${body.message ?? 'method not allowed'})`
    else if (body.closest) hint = ` (closest route: ${body.closest})`
  } catch {
    hint = ''
  }
  return `${entry.method} ${entry.path} -> ${entry.status}${hint}`
}
