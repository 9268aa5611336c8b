/**
 * Every change the dashboard makes, as the page makes it: over the control plane, on both
 * transports, checked in the state the page then shows. Switching a scenario on (with
 * parameters, `times` and a target) and off; activating a flow and setting its outcome;
 * advancing a manual clock; resetting to the fixtures; revoking a consent; regenerating a client
 * secret, which shows the new secret in that one answer and nowhere else.
 */
import { expect, it } from 'vitest'
import type { EmulatorState } from '../../src/index.js'
import { openEvents } from '../support/events.js'
import { type Harness, contract } from '../support/harness.js'
import { basic, getCode, token } from '../support/oauth.js'
import { postJson } from '../support/webhooks.js'

const state = async (h: Harness): Promise<EmulatorState> => (await h.control<EmulatorState>('GET', '/state')).body
const hook = (s: EmulatorState, id: string): EmulatorState['webhooks'][number] | undefined => s.webhooks.find((w) => w.id === id)

contract('dashboard steering, over the control plane', (h) => {
  it('switches a scenario on with parameters, times and a webhook (Options), and off again (the switch)', async () => {
    const on = await h.control('POST', '/scenarios/webhook-queue-full', { params: { capacity: 1 }, times: 3, webhook: 'orders' })
    expect(on.status).toBe(200)
    expect(on.body).toMatchObject({ name: 'webhook-queue-full', active: true, activation: { params: { capacity: 1 }, target: { webhook: 'orders' }, remaining: 3, level: 'run' } })
    expect(hook(await state(h), 'orders')?.effective.flow).toMatchObject({ active: false, queueCapacity: 1 })
    expect(hook(await state(h), 'uploads')?.effective.scenarios).toEqual([])

    expect((await postJson(h, '/hooks/orders', { orderId: 'A-1' })).text).toBe('Accepted')
    expect((await postJson(h, '/hooks/orders', { orderId: 'A-2' })).text).toBe('Queue is full.')
    const after = await state(h)
    expect(after.scenarios.find((s) => s.name === 'webhook-queue-full')?.activation?.remaining).toBe(1)
    expect(hook(after, 'orders')?.queue).toEqual({ length: 1, capacity: 10_000 })

    expect((await h.control('DELETE', '/scenarios/webhook-queue-full')).body).toMatchObject({ active: false })
    const off = await state(h)
    expect(hook(off, 'orders')?.effective.scenarios).toEqual([])
    expect(hook(off, 'orders')?.effective.flow.active).toBe(true)
  })

  it('refuses bad options with 400 naming the field, as the page then shows', async () => {
    const times = await h.control<{ error: string; field: string }>('POST', '/scenarios/latency', { times: 0 })
    expect(times.status).toBe(400)
    expect(times.body.field).toBe('times')
    const param = await h.control<{ error: string }>('POST', '/scenarios/latency', { params: { ms: 'soon' } })
    expect(param.status).toBe(400)
    expect(param.body.error).toContain('ms')
  })

  it('activates and deactivates a flow, and sets its outcome (a webhook card)', async () => {
    expect((await h.control('PUT', '/webhooks/paused/flow', { active: true })).status).toBe(200)
    expect(hook(await state(h), 'paused')?.flow.active).toBe(true)
    expect((await h.control('PUT', '/webhooks/paused/flow', { active: false })).status).toBe(200)
    expect(hook(await state(h), 'paused')?.effective.flow.active).toBe(false)

    expect((await h.control('PUT', '/webhooks/orders/flow', { outcome: 'fail' })).status).toBe(200)
    await postJson(h, '/hooks/orders', { orderId: 'F-1' })
    await h.emu.webhooks.waitForExecution('orders')
    const orders = hook(await state(h), 'orders')
    expect(orders?.flow.outcome).toBe('fail')
    expect(orders?.executions.recent[0]).toMatchObject({ outcome: 'fail', bundle: { orderId: 'F-1' } })
  })

  it('advances a manual clock (the header form)', async () => {
    const before = Date.parse((await state(h)).clock.now)
    const answer = await h.control<{ now: string; mode: string }>('POST', '/clock/advance', { ms: 40_000 })
    expect(answer.status).toBe(200)
    expect(answer.body.mode).toBe('manual')
    expect(Date.parse((await state(h)).clock.now) - before).toBe(40_000)
  })

  it('resets to the fixtures (the reset button)', async () => {
    const fresh = await state(h)
    await h.control('POST', '/scenarios/webhook-gone', {})
    await h.control('PUT', '/webhooks/orders/flow', { active: false })
    await h.fetch('/hooks/orders?orderId=R-1')
    await h.control('POST', '/clock/advance', { ms: 5_000 })
    await getCode(h, { scope: 'studio', login_hint: 'bob' })
    expect(await state(h)).not.toEqual(fresh)
    expect((await h.control('POST', '/reset')).status).toBe(200)
    expect(await state(h)).toEqual(fresh)
  })

  it('revokes a consent (a user card)', async () => {
    await getCode(h, { scope: 'studio', login_hint: 'alice' })
    expect((await state(h)).users.find((u) => u.id === 'alice')?.consents.map((c) => c.clientId)).toEqual(['web-app'])
    expect((await h.control('DELETE', '/users/alice/consents/web-app')).status).toBe(204)
    expect((await state(h)).users.find((u) => u.id === 'alice')?.consents).toEqual([])
    expect((await h.control('DELETE', '/users/alice/consents/web-app')).status).toBe(404)
  })

  it('regenerates a client secret: the new one is in that answer only, never in the state, the live events or the journal', async () => {
    const events = await openEvents(h)
    try {
      const answer = await h.control<{ clientId: string; clientSecret: string }>('POST', '/oauth-clients/ci-client/secret')
      expect(answer.status).toBe(200)
      const secret = answer.body.clientSecret
      expect(secret).toMatch(/^\S{20,}$/)
      // The journal entry of the call itself arrives as an event; it carries no body.
      const { data } = await events.next('journal')
      const entry = data.find((e) => e.route === 'control.oauthClients.regenerateSecret')
      expect(entry?.response.body).toBeUndefined()

      expect((await token(h, { grant_type: 'client_credentials' })).status).toBe(401)
      const fresh = await h.fetch('/oauth2/token', {
        method: 'POST',
        headers: { authorization: basic('ci-client', secret), 'content-type': 'application/x-www-form-urlencoded' },
        body: 'grant_type=client_credentials',
      })
      expect(fresh.status).toBe(200)

      for (const text of [JSON.stringify(await state(h)), JSON.stringify(events.seen), JSON.stringify(h.emu.journal.list())]) {
        expect(text).not.toContain(secret)
      }
    } finally {
      events.close()
    }
  })
}, { clock: 'manual' })
