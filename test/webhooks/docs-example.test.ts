/**
 * The README's webhook example, as written there (only the import path differs), so the example
 * users copy keeps working.
 */
import { setupServer } from 'msw/node'
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest'
import { createEmulator } from '../../src/index.js'

const emu = await createEmulator({ clock: 'manual' })
const server = setupServer(...emu.handlers)
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
afterEach(() => emu.reset())
afterAll(() => server.close())

it('sends the order to the flow', async () => {
  const res = await fetch('https://acme.svc-mock.test/hooks/orders?source=shop', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ orderId: 'A-1', amount: '12.50' }),
  })
  expect(res.status).toBe(200)
  expect(await res.text()).toBe('Accepted')

  const run = await emu.webhooks.waitForExecution('orders', (e) => e.bundle.orderId === 'A-1')
  expect(run.bundle).toEqual({ orderId: 'A-1', amount: 12.5, source: 'shop' }) // typed by the data structure
  expect(run.outcome).toBe('succeed')
})

it('retries when the flow times out', async () => {
  await emu.webhooks.updateFlow('sync-reply', { outcome: 'hang' })
  const pending = fetch('https://acme.svc-mock.test/hooks/sync-reply', { method: 'POST', body: 'x' })
  await emu.clock.waitForParked()
  await emu.clock.advance(40_000) // no real waiting
  expect((await pending).status).toBe(500)
})
