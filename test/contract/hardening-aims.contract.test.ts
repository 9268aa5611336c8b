/**
 * Nothing silently does nothing: a scenario aimed at a webhook, client or route that does not
 * exist is refused naming the closest one that does, on every way to switch it on; so is a
 * journal filter or wait on an unknown route. And what the journal redacts, the state and the
 * live events redact too.
 */
import { expect, it } from 'vitest'
import { contract } from '../support/harness.js'

contract(
  'hardening: scenarios and filters aimed at nothing',
  (h) => {
    it.each([
      [{ webhook: 'order' }, /no webhook "order" exists \(did you mean "orders"\?/],
      [{ client: 'ci-clinet' }, /no client "ci-clinet" exists \(did you mean "ci-client"\?/],
      [{ route: 'versions.lst' }, /no route "versions.lst" exists \(did you mean "versions.list"\?/],
    ])('the control plane refuses %o with 400 naming the closest, and switches nothing on', async (aim, message) => {
      const answer = await h.control<{ error: string }>('POST', '/scenarios/webhook-queue-full', aim)
      expect(answer.status).toBe(400)
      expect(answer.body.error).toMatch(message)
      expect(h.emu.scenarios.list().some((s) => s.active)).toBe(false)
    })

    it('the header form is refused with 400 too, and the request is not answered as if shaped', async () => {
      const response = await h.fetch('/hooks/orders?orderId=1', { headers: { 'x-svc-mock-scenario': 'webhook-queue-full:webhook=order' } })
      expect(response.status).toBe(400)
      expect(await response.text()).toMatch(/no webhook "order" exists/)
    })

    it('in-process, emu.scenarios.use throws naming the closest', () => {
      expect(() => h.emu.scenarios.use('webhook-queue-full', { webhook: 'order' })).toThrow(/did you mean "orders"/)
      expect(() => h.emu.scenarios.use('webhook-queue-full:client=ci-clinet')).toThrow(/did you mean "ci-client"/)
    })

    it('a journal filter or wait on an unknown route is a 400 naming the closest', async () => {
      const list = await h.control<{ error: string }>('GET', '/journal?route=versions.lst')
      expect([list.status, list.body.error]).toEqual([400, expect.stringMatching(/did you mean "versions.list"/)])
      const wait = await h.control<{ error: string }>('GET', '/journal/wait?route=versions.lst&timeoutMs=1')
      expect(wait.status).toBe(400)
      expect(() => h.emu.journal.list({ route: 'webhooks.recieve' })).toThrow(/did you mean "webhooks.receive"/)
      expect(h.emu.journal.list({ route: 'webhooks.*' })).toEqual([])
    })
  },
  { clock: 'manual' },
)

contract(
  'hardening: one redaction list',
  (h) => {
    it('a webhook body\'s password is redacted in the journal, the state and the live events alike', async () => {
      const events: unknown[] = []
      const stop = h.emu.subscribe((event) => events.push(event))
      const response = await h.fetch('/hooks/orders', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"orderId":"A-1","password":"hunter2","client_secret":"s3"}' })
      expect(response.status).toBe(200)
      await h.emu.clock.settle()
      const [entry] = h.emu.journal.list({ route: 'webhooks.receive' })
      expect(JSON.stringify(entry?.request.body)).not.toContain('hunter2')
      const state = JSON.stringify(h.emu.state())
      expect(state).toContain('A-1')
      expect(state).not.toContain('hunter2')
      expect(state).not.toContain('s3"')
      // The live events coalesce per turn of the event loop.
      for (let i = 0; i < 3; i++) await new Promise((resolve) => setImmediate(resolve))
      stop()
      expect(JSON.stringify(events)).toContain('A-1')
      expect(JSON.stringify(events)).not.toContain('hunter2')
      expect(h.emu.webhooks.executions('orders')[0]?.bundle).toMatchObject({ password: 'hunter2' })
    })
  },
  { clock: 'manual' },
)
