/**
 * `svc-mock/vitest`: one call wires the emulator into a vitest suite. It creates the emulator,
 * starts msw with its handlers before the suite, resets the emulator after each test, closes
 * everything after the suite, and fails a test that made a request no route handles (naming the
 * closest route), so a typo in a path never passes silently as a 404. A request to any other origin
 * is blocked before it reaches the network (a network error) and fails the test too, unless its
 * origin is in `otherOrigins` (the app server the test drives).
 *
 *   const emu = await useEmulator({ clock: 'manual' })
 *   it('…', async () => { await fetch(`${emu.urls.base}/…`) })
 */
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest'
import type { EmulatorOptions } from '../emulator-api.js'
import type { JournalEntry } from '../kernel/journal.js'
import { createEmulator, type InProcessEmulator } from './in-process.js'
import { setupEmulatorServer, unhandled } from './msw.js'
import { StrayRequestsHandler, originsOf } from './stray-requests.js'

export interface UseEmulatorOptions<Custom extends string = string> extends EmulatorOptions<Custom> {
  /**
   * Reset the emulator after each test (default true). Turn it off for suites whose tests run
   * concurrently: give each test its own scenarios with `emu.scenarios.boundary(fn)` instead.
   */
  resetAfterEach?: boolean
  /**
   * Fail a test that sent a request no route handles, or one to another origin (default true). A
   * request to another origin is blocked either way.
   */
  failOnUnhandled?: boolean
  /**
   * Origins whose requests go out to the network (default none): your own app server, such as
   * `['http://localhost:3000']`. A request to any other origin the emulator does not serve gets a
   * network error (`TypeError: fetch failed`) and fails the test.
   */
  otherOrigins?: readonly string[]
}

/** Sets up the emulator and msw for the enclosing suite; resolves with the emulator. */
export async function useEmulator<Custom extends string = never>(options: UseEmulatorOptions<Custom> = {}): Promise<InProcessEmulator<Custom>> {
  const { resetAfterEach = true, failOnUnhandled = true, otherOrigins = [], ...emulatorOptions } = options
  const allowed = originsOf(otherOrigins)
  const emu = await createEmulator(emulatorOptions)
  const origins = new Set(Object.values(emu.urls))
  const foreign: string[] = []
  const stray = new StrayRequestsHandler(new Set([...origins, ...allowed]), (request) => {
    const line = `${request.method} ${request.url} reached no msw handler (svc-mock serves ${[...origins].join(', ')}): blocked; list its origin in useEmulator's otherOrigins to let it through`
    foreign.push(line)
    console.error(`svc-mock: ${line}`)
  })
  const server = setupEmulatorServer({ handlers: [...emu.handlers, stray] })
  let since = 0

  beforeAll(() => {
    // Only allowed origins reach no handler; msw 2 calls this onUnhandledRequest, msw 3 onUnhandledFrame.
    server.listen(unhandled('bypass'))
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
