/**
 * The webhook scenarios of the catalogue: each one switched on over the control plane (aimed at
 * one webhook with `webhook`), in-process, or for one request with the header, produces its
 * behaviour through the real flow logic, and switching it off puts things back.
 */
import { expect, it } from 'vitest'
import { contract, overSocket } from '../support/harness.js'
import { call, postJson } from '../support/webhooks.js'

type View = { queue: { length: number; capacity: number } }

contract(
  'webhooks: scenarios',
  { team: true },
  (h) => {
    const on = async (name: string, body: Record<string, unknown> = {}): Promise<void> => {
      expect((await h.control('POST', `/scenarios/${name}`, body)).status).toBe(200)
    }
    const off = async (name: string): Promise<void> => {
      expect((await h.control('DELETE', `/scenarios/${name}`)).status).toBe(200)
    }

    it('lists the five webhook scenarios with descriptions a QA engineer can act on', async () => {
      const { body } = await h.control<Array<{ name: string; description: string; summary: string }>>('GET', '/scenarios')
      for (const name of ['webhook-queue-full', 'webhook-flow-inactive', 'webhook-flow-fails', 'webhook-timeout', 'webhook-gone']) {
        const listing = body.find((s) => s.name === name)
        expect(listing?.description.length).toBeGreaterThan(150)
        expect(listing?.summary).toBeTruthy()
      }
    })

    it('webhook-queue-full: 400 Queue is full. for the targeted webhook only', async () => {
      await on('webhook-queue-full', { webhook: 'orders' })
      const answer = await call(h, '/hooks/orders?orderId=1')
      expect([answer.status, answer.text]).toEqual([400, 'Queue is full.'])
      expect((await call(h, '/hooks/uploads?title=x')).status).toBe(200)
      await off('webhook-queue-full')
      expect((await call(h, '/hooks/orders?orderId=2')).status).toBe(200)
    })

    it('webhook-queue-full with capacity=2: two calls queue, the third is refused; off, the two run in order', async () => {
      await on('webhook-queue-full', { webhook: 'orders', params: { capacity: 2 } })
      expect((await call(h, '/hooks/orders?orderId=1')).text).toBe('Accepted')
      expect((await call(h, '/hooks/orders?orderId=2')).text).toBe('Accepted')
      expect((await call(h, '/hooks/orders?orderId=3')).text).toBe('Queue is full.')
      expect((await h.control<View>('GET', '/webhooks/orders')).body.queue.length).toBe(2)
      await off('webhook-queue-full')
      await h.emu.webhooks.waitForExecution('orders', (e) => e.seq === 2)
      expect(h.emu.webhooks.executions('orders').map((e) => e.bundle.orderId)).toEqual(['1', '2'])
    })

    it('webhook-flow-inactive: calls are accepted and wait; switching it off runs them in order', async () => {
      await on('webhook-flow-inactive', { webhook: 'sync-reply' })
      for (const n of ['a', 'b', 'c']) {
        const answer = await call(h, `/hooks/sync-reply?n=${n}`)
        expect([answer.status, answer.text]).toEqual([200, 'Accepted'])
      }
      expect(h.emu.webhooks.executions('sync-reply')).toEqual([])
      expect((await h.control<View>('GET', '/webhooks/sync-reply')).body.queue.length).toBe(3)
      await off('webhook-flow-inactive')
      await h.emu.webhooks.waitForExecution('sync-reply', (e) => e.seq === 3)
      expect(h.emu.webhooks.executions('sync-reply').map((e) => e.bundle.n)).toEqual(['a', 'b', 'c'])
      expect((await call(h, '/hooks/sync-reply')).status).toBe(201)
    })

    it('webhook-flow-fails: 500 Action Flow failed to complete., the run recorded as fail', async () => {
      await on('webhook-flow-fails', { webhook: 'orders' })
      const answer = await postJson(h, '/hooks/orders', { orderId: 'F' })
      expect([answer.status, answer.text]).toEqual([500, 'Action Flow failed to complete.'])
      expect(h.emu.webhooks.executions('orders').map((e) => [e.bundle.orderId, e.outcome])).toEqual([['F', 'fail']])
      expect((await postJson(h, '/hooks/orders', { amount: 1 })).status).toBe(400)
    })

    it('webhook-timeout: pending at 39 s, 500 at 40 s', async () => {
      await on('webhook-timeout', { webhook: 'orders' })
      let settled = false
      const pending = call(h, '/hooks/orders?orderId=T').then((a) => {
        settled = true
        return a
      })
      await h.emu.clock.waitForParked(1)
      await h.emu.clock.advance(39_000)
      expect(settled).toBe(false)
      await h.emu.clock.advance(1_000)
      const answer = await pending
      expect([answer.status, answer.text]).toEqual([500, 'Action Flow did not respond in time.'])
    })

    it('webhook-gone: 410 Webhook not found. until switched off', async () => {
      await on('webhook-gone', { webhook: 'orders' })
      expect((await call(h, '/hooks/orders?orderId=1')).text).toBe('Webhook not found.')
      expect((await call(h, '/hooks/orders?orderId=1')).status).toBe(410)
      expect((await call(h, '/hooks/uploads')).status).toBe(200)
      await off('webhook-gone')
      expect((await call(h, '/hooks/orders?orderId=1')).status).toBe(200)
    })

    it('times=1 touches one call only', async () => {
      await on('webhook-gone', { webhook: 'orders', times: 1 })
      expect((await call(h, '/hooks/orders?orderId=1')).status).toBe(410)
      expect((await call(h, '/hooks/orders?orderId=2')).status).toBe(200)
    })

    it('times counts up to the last call, which the scenario still answers; then the queue runs', async () => {
      await on('webhook-queue-full', { webhook: 'orders', times: 3, params: { capacity: 2 } })
      const statuses: number[] = []
      for (let i = 1; i <= 4; i++) statuses.push((await call(h, `/hooks/orders?orderId=q-${i}`)).status)
      expect(statuses).toEqual([200, 200, 400, 200])
      await h.emu.clock.settle()
      expect(h.emu.webhooks.executions('orders').map((e) => e.bundle.orderId)).toEqual(['q-1', 'q-2', 'q-4'])
    })

    it('for one request with the x-svc-mock-scenario header', async () => {
      const answer = await call(h, '/hooks/orders?orderId=1', { headers: { 'x-svc-mock-scenario': 'webhook-flow-fails' } })
      expect(answer.status).toBe(500)
      expect((await call(h, '/hooks/orders?orderId=2')).status).toBe(200)
    })

    it('in-process, inside a boundary, for one test only', async () => {
      await h.emu.scenarios.boundary(async () => {
        h.emu.scenarios.use('webhook-queue-full', { webhook: 'orders' })
        expect((await call(h, '/hooks/orders?orderId=1')).status).toBe(overSocket(h.kind) ? 200 : 400)
      })()
      expect((await call(h, '/hooks/orders?orderId=2')).status).toBe(200)
    })
  },
  { clock: 'manual' },
)

contract(
  'webhooks: a scenario on for the whole run',
  { team: true },
  (h) => {
    it('--scenario webhook-flow-inactive keeps every flow queueing after reset', async () => {
      expect((await call(h, '/hooks/orders?orderId=1')).status).toBe(200)
      expect((await h.control<View>('GET', '/webhooks/orders')).body.queue.length).toBe(1)
      expect(h.emu.webhooks.executions('orders')).toEqual([])
    })
  },
  { clock: 'manual', scenarios: ['webhook-flow-inactive'] },
)
