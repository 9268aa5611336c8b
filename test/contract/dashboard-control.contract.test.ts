/**
 * What the dashboard reads, on both transports: `GET /__svc-mock/users`, `GET /__svc-mock/state`
 * (and their twins `emu.users.list()`, `emu.state()`), and the live server-sent events at
 * `GET /__svc-mock/events` (`emu.subscribe()`): the state and the journal backlog first, then each
 * new request and the state whenever it changed, `journal-cleared` on a reset. None of it is
 * journaled, and no secret appears in any of it.
 */
import { describe, expect, it } from 'vitest'
import { startServer } from '../../src/adapters/server.js'
import type { EmulatorState } from '../../src/index.js'
import { type EventReader, openEvents } from '../support/events.js'
import { APP_KEY, contract } from '../support/harness.js'
import { getCode } from '../support/oauth.js'
import { postJson } from '../support/webhooks.js'

/** The next state event that satisfies `predicate` (states only come when something changed). */
async function stateWhere(events: EventReader, predicate: (state: EmulatorState) => boolean): Promise<EmulatorState> {
  for (;;) {
    const { data } = await events.next('state')
    if (predicate(data)) return data
  }
}

const webhook = (state: EmulatorState, id: string): EmulatorState['webhooks'][number] => {
  const found = state.webhooks.find((w) => w.id === id)
  if (!found) throw new Error(`no webhook ${id} in the state`)
  return found
}

contract('dashboard control plane: users and state', (h) => {
  it('lists every user with the OAuth clients it consented to (GET /users, emu.users.list())', async () => {
    const before = await h.control<Array<{ id: string; consents: unknown[] }>>('GET', '/users')
    expect(before.status).toBe(200)
    expect(before.body.map((u) => u.id)).toEqual(['alice', 'bob'])
    expect(before.body[0]).toMatchObject({ name: 'Alice Example', email: 'alice@acme.test', consents: [] })

    await getCode(h, { scope: 'studio', login_hint: 'alice' })
    const after = await h.control<Array<{ id: string; consents: Array<{ clientId: string; clientName: string; scopes: string[]; grantedAt: string }> }>>('GET', '/users')
    expect(after.body.find((u) => u.id === 'alice')?.consents).toEqual([
      { clientId: 'web-app', clientName: expect.any(String), scopes: ['studio'], grantedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) },
    ])
    expect(after.body.find((u) => u.id === 'bob')?.consents).toEqual([])
    expect(after.body).toEqual(JSON.parse(JSON.stringify(h.emu.users.list())))
  })

  it('shows clock, scenarios, webhooks with queue and runs, OAuth clients and users in one read (GET /state), never journaled', async () => {
    const { status, body } = await h.control<EmulatorState>('GET', '/state')
    expect(status).toBe(200)
    expect(body.version).toBe(h.emu.health().version)
    expect(body.clock).toEqual({ now: expect.any(String), mode: expect.stringMatching(/^(real|manual)$/), timeScale: expect.any(Number) })
    expect(body.journalCapacity).toBe(1000)
    expect(body.scenarios.map((s) => s.name)).toContain('webhook-queue-full')
    expect(body.webhooks.map((w) => w.id).sort()).toEqual(['learning', 'orders', 'paused', 'secured', 'sync-reply', 'uploads'])
    expect(webhook(body, 'paused')).toMatchObject({
      queue: { length: 0, capacity: 3 },
      effective: { flow: { active: false, queueCapacity: 3 }, gone: false, scenarios: [] },
      executions: { count: 0, recent: [] },
    })
    expect(body.oauthClients.map((c) => c.clientId)).toEqual(expect.arrayContaining(['ci-client', 'web-app']))
    expect(body.users.map((u) => u.id)).toEqual(['alice', 'bob'])
    expect(h.emu.journal.list().filter((e) => e.route === 'control.state')).toEqual([])
    expect(body).toEqual(JSON.parse(JSON.stringify(h.emu.state())))
  })

  it('shows the newest runs of a flow with their bundles, file bytes counted and credentials redacted', async () => {
    // Not secured: the gateway consumes no credential, so the caller's Authorization reaches the flow (and must be redacted here).
    const created = await h.control('POST', '/webhooks', { id: 'audit', name: 'Audit', options: { requestHeaders: true } })
    expect(created.status).toBe(201)
    expect((await postJson(h, '/hooks/audit', { event: 'login' }, APP_KEY)).status).toBe(200)
    const form = new FormData()
    form.append('title', 'Scan')
    form.append('file', new Blob([new Uint8Array(1234)], { type: 'application/pdf' }), 'scan.pdf')
    expect((await h.fetch('/hooks/uploads', { method: 'POST', body: form })).status).toBe(200)
    await h.emu.webhooks.waitForExecution('audit')
    await h.emu.webhooks.waitForExecution('uploads')

    const state = h.emu.state()
    const audit = webhook(state, 'audit')
    expect(audit.executions.count).toBe(1)
    const bundle = audit.executions.recent[0]?.bundle as { event: string; __IMTHEADERS__: Array<{ name: string; value: string }> }
    expect(bundle.event).toBe('login')
    expect(bundle.__IMTHEADERS__.find((header) => header.name === 'authorization')?.value).toBe('[redacted]')
    expect(webhook(state, 'uploads').executions.recent[0]?.bundle).toMatchObject({ title: 'Scan', file: { name: 'scan.pdf', mime: 'application/pdf', data: '[1234 bytes]' } })

    const overHttp = JSON.stringify((await h.control('GET', '/state')).body)
    expect(overHttp).not.toContain('svcmock-app-key')
    expect(overHttp).toContain('[1234 bytes]')
  })

  it('never shows a client secret', async () => {
    const text = JSON.stringify((await h.control('GET', '/state')).body)
    for (const secret of ['ci-secret', 'ci-post-secret', 'limited-secret', 'web-app-secret']) expect(text).not.toContain(secret)
    expect(text).not.toContain('clientSecret')
  })

  it('shows what a scenario does to a webhook: webhook-queue-full aimed at orders leaves it no room, and no other webhook is touched', async () => {
    await h.control('POST', '/scenarios/webhook-queue-full', { webhook: 'orders' })
    const state = (await h.control<EmulatorState>('GET', '/state')).body
    expect(webhook(state, 'orders').flow.active).toBe(true)
    expect(webhook(state, 'orders').effective).toEqual({
      flow: expect.objectContaining({ active: false, queueCapacity: 0 }),
      gone: false,
      scenarios: ['webhook-queue-full'],
    })
    expect(webhook(state, 'uploads').effective.scenarios).toEqual([])
    expect(webhook(state, 'uploads').effective.flow.active).toBe(true)
    expect((await postJson(h, '/hooks/orders', { orderId: 'A-1' })).text).toBe('Queue is full.')
  })
}, { clock: 'manual' })

contract('dashboard control plane: live events', { tls: true }, (h) => {
  it('sends the state and the newest journal entries first, as server-sent events that are not journaled', async () => {
    await h.fetch('/hooks/orders?orderId=A-1')
    await h.fetch('/hooks/orders?orderId=A-2')
    const events = await openEvents(h, '?journal=1')
    try {
      expect(events.response.status).toBe(200)
      expect(events.response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8')
      expect(events.response.headers.get('cache-control')).toBe('no-store')
      const first = await events.next('state')
      expect(first.data).toEqual(JSON.parse(JSON.stringify(h.emu.state())))
      const backlog = await events.next('journal')
      expect(backlog.data.map((e) => e.path)).toEqual(['/hooks/orders?orderId=A-2'])
      expect(events.seen.map((e) => e.type)).toEqual(['state', 'journal'])
      expect(events.retry).toBeGreaterThan(0)
      expect(h.emu.journal.list().filter((e) => e.route === 'control.events')).toEqual([])
    } finally {
      events.close()
    }
  })

  it('sends each new request as it is journaled, then the state it changed', async () => {
    const events = await openEvents(h)
    try {
      expect((await events.next('journal')).data).toEqual([])
      expect((await postJson(h, '/hooks/orders', { orderId: 'B-1' })).status).toBe(200)
      const { data } = await events.next('journal')
      expect(data).toHaveLength(1)
      expect(data[0]).toMatchObject({ route: 'webhooks.receive', method: 'POST', path: '/hooks/orders', status: 200 })
      const state = await stateWhere(events, (s) => webhook(s, 'orders').executions.count === 1)
      expect(webhook(state, 'orders').executions.recent[0]?.bundle).toEqual({ orderId: 'B-1' })
    } finally {
      events.close()
    }
  })

  it('sends every request of a burst, in order', async () => {
    const events = await openEvents(h, '?journal=0')
    try {
      await events.next('state')
      await Promise.all(Array.from({ length: 30 }, (_, i) => h.fetch(`/hooks/orders?orderId=C-${i}`)))
      const received: number[] = []
      while (received.length < 30) received.push(...(await events.next('journal')).data.map((e) => e.seq))
      expect(received).toHaveLength(30)
      expect(received).toEqual([...received].sort((a, b) => a - b))
    } finally {
      events.close()
    }
  })

  it('tells of a reset with journal-cleared, then sends the state from the fixtures', async () => {
    await h.control('POST', '/scenarios/latency')
    const events = await openEvents(h)
    try {
      expect((await events.next('state')).data.scenarios.find((s) => s.name === 'latency')?.active).toBe(true)
      expect((await events.next('journal')).data.map((e) => e.route)).toEqual(['control.scenarios.on'])
      expect((await h.control('POST', '/reset')).status).toBe(200)
      await events.next('journal-cleared')
      const state = await stateWhere(events, (s) => !s.scenarios.some((scenario) => scenario.active))
      expect(state.scenarios.some((s) => s.active)).toBe(false)
      // What the journal holds after the reset: the reset itself.
      expect((await events.next('journal')).data.map((e) => e.route)).toEqual(['control.reset'])
    } finally {
      events.close()
    }
  })

  it('sends the state when it changes without any request: a scenario switched on in-process, a flow changed', async () => {
    const events = await openEvents(h, '?journal=0')
    try {
      await events.next('state')
      h.emu.scenarios.use('webhook-flow-inactive')
      await stateWhere(events, (s) => s.scenarios.some((scenario) => scenario.name === 'webhook-flow-inactive' && scenario.active))
      await h.emu.webhooks.updateFlow('orders', { outcome: 'fail' })
      await stateWhere(events, (s) => webhook(s, 'orders').flow.outcome === 'fail')
      expect(events.seen.some((e) => e.type === 'journal')).toBe(false)
    } finally {
      events.close()
    }
  })

  it('answers HEAD with the head only, and a bad journal count with 400 naming it', async () => {
    const head = await h.fetch('/__svc-mock/events', { method: 'HEAD' })
    expect(head.status).toBe(200)
    expect(head.headers.get('content-type')).toBe('text/event-stream; charset=utf-8')
    expect(await head.text()).toBe('')
    const bad = await h.control<{ error: string; field: string }>('GET', '/events?journal=-1')
    expect(bad.status).toBe(400)
    expect(bad.body.field).toBe('journal')
  })
}, { clock: 'manual' })

describe('live events and the server closing', () => {
  it('ends an open event stream cleanly when the server closes', async () => {
    const server = await startServer({ port: 0, log: 'silent' })
    const response = await fetch(`${server.url}/__svc-mock/events`)
    const reader = response.body?.getReader()
    expect(reader).toBeDefined()
    await reader?.read()
    await server.close()
    let done = false
    while (!done) done = (await reader?.read())?.done ?? true
    expect(done).toBe(true)
  })
})
