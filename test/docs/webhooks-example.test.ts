/**
 * The example of docs/webhooks.md, as written there (only the import path differs; a test below
 * checks it word for word), so the example users copy keeps working.
 */
import { readFileSync } from 'node:fs'
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

it('is the example of docs/webhooks.md, word for word', () => {
  const doc = readFileSync(new URL('../../docs/webhooks.md', import.meta.url), 'utf8')
  const example = /```ts\n([\s\S]*?)```/.exec(doc)?.[1] ?? ''
  const source = readFileSync(new URL(import.meta.url), 'utf8')
  const squash = (text: string): string => text.replace(/\s+/g, ' ').trim()
  expect(example).toContain("it('sends the order to the flow'")
  expect(squash(source)).toContain(squash(example.replace("from 'svc-mock'", "from '../../src/index.js'")))
})
