/**
 * The live-event hub behind `emu.subscribe()` and `GET /__svc-mock/events`: the first events
 * arrive at once, bursts are coalesced, the state is sent only when it changed, a listener that
 * throws or unsubscribes hears nothing more, and closing the emulator ends every subscription.
 */
import { afterEach, describe, expect, it } from 'vitest'
import type { Emulator, EmulatorCore } from '../../src/emulator-api.js'
import { buildEmulator } from '../../src/emulator.js'
import { withFetch } from '../../src/adapters/fetch.js'
import type { EmulatorEvent } from '../../src/index.js'

let emu: (EmulatorCore & Emulator) | undefined
afterEach(async () => {
  await emu?.close()
  emu = undefined
})

const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve))

async function emulator(): Promise<EmulatorCore & Emulator> {
  emu = withFetch(await buildEmulator({ clock: 'manual' }))
  return emu
}

describe('emu.subscribe()', () => {
  it('sends the state, then the journal backlog, before it returns', async () => {
    const e = await emulator()
    await e.handle(new Request(`${e.urls.base}/hooks/orders?orderId=A`))
    const events: EmulatorEvent[] = []
    const stop = e.subscribe((event) => events.push(event), { journal: 5 })
    expect(events.map((event) => event.type)).toEqual(['state', 'journal'])
    expect(events[1]).toMatchObject({ type: 'journal', entries: [{ route: 'webhooks.receive', status: 200 }] })
    stop()
  })

  it('coalesces a burst of requests into fewer journal events, and sends the state once it settles', async () => {
    const e = await emulator()
    const events: EmulatorEvent[] = []
    const stop = e.subscribe((event) => events.push(event), { journal: 0 })
    events.length = 0
    await Promise.all(Array.from({ length: 20 }, (_, i) => e.handle(new Request(`${e.urls.base}/hooks/orders?orderId=B-${i}`))))
    await e.webhooks.waitForExecution('orders', (run) => run.bundle.orderId === 'B-19')
    await turn()
    await turn()
    const journal = events.filter((event) => event.type === 'journal')
    expect(journal.flatMap((event) => (event.type === 'journal' ? event.entries : [])).length).toBe(20)
    expect(journal.length).toBeLessThan(20)
    const states = events.filter((event) => event.type === 'state')
    expect(states.length).toBeGreaterThan(0)
    expect(states.length).toBeLessThan(20)
    stop()
  })

  it('sends no state when nothing it shows changed', async () => {
    const e = await emulator()
    const events: EmulatorEvent[] = []
    const stop = e.subscribe((event) => events.push(event), { journal: 0 })
    events.length = 0
    // A versions call changes nothing the state shows: a journal event, no state event.
    await e.handle(new Request(`${e.urls.base}/acme-collection/acme-tenant/_api/rest/facets/processes/views/default/elements/x/versions`))
    await turn()
    expect(events.map((event) => event.type)).toEqual(['journal'])
    stop()
  })

  it('stops when asked, and drops a listener that throws', async () => {
    const e = await emulator()
    const quiet: EmulatorEvent[] = []
    const stop = e.subscribe((event) => quiet.push(event), { journal: 0 })
    let thrown = 0
    e.subscribe(
      (event) => {
        if (event.type === 'journal') {
          thrown++
          throw new Error('a broken watcher')
        }
      },
      { journal: 0 },
    )
    stop()
    await e.handle(new Request(`${e.urls.base}/hooks/orders?orderId=C-1`))
    await turn()
    await e.handle(new Request(`${e.urls.base}/hooks/orders?orderId=C-2`))
    await turn()
    expect(quiet.map((event) => event.type)).toEqual(['state'])
    expect(thrown).toBe(1)
  })

  it('ends every subscription with a closed event when the emulator closes', async () => {
    const e = await emulator()
    const events: EmulatorEvent[] = []
    e.subscribe((event) => events.push(event), { journal: 0 })
    await e.close()
    expect(events.at(-1)).toEqual({ type: 'closed' })
  })

  it('refuses a journal backlog that is not a whole number >= 0', async () => {
    const e = await emulator()
    expect(() => e.subscribe(() => undefined, { journal: -1 })).toThrow(/journal/)
  })
})
