/**
 * Flows behind webhooks (service description "Webhook intake" states, errors and limits;
 * product.md section 2): queues and activation, webhook-response steps, failures, the 40-second
 * timeout on the emulator clock, secured webhooks, executions and the control plane, on both
 * transports. The clock is manual: nothing waits on the wall clock.
 */
import { expect, it } from 'vitest'
import { contract } from '../support/harness.js'
import { JSON_HEADERS, call, postJson, received } from '../support/webhooks.js'

type View = { id: string; url: string; name: string; queue: { length: number; capacity: number }; flow: Record<string, unknown>; learning: boolean }

contract(
  'webhooks: queue and activation',
  { team: true },
  (h) => {
    it('an inactive flow queues valid calls with 200 Accepted; at capacity the next gets 400 Queue is full.', async () => {
      for (const n of [1, 2, 3]) {
        const answer = await call(h, `/hooks/paused?n=${n}`)
        expect([answer.status, answer.text]).toEqual([200, 'Accepted'])
      }
      const full = await call(h, '/hooks/paused?n=4')
      expect([full.status, full.text, full.headers.get('content-type')]).toEqual([400, 'Queue is full.', 'text/plain; charset=utf-8'])
      const view = await h.control<View>('GET', '/webhooks/paused')
      expect(view.body.queue).toEqual({ length: 3, capacity: 3 })
      expect(h.emu.webhooks.executions('paused')).toEqual([])
    })

    it('a full queue refuses any call, valid or not, with Queue is full.', async () => {
      for (const n of [1, 2, 3]) await call(h, `/hooks/paused?n=${n}`)
      const answer = await call(h, '/hooks/paused', { method: 'POST', body: '{broken', headers: JSON_HEADERS })
      expect([answer.status, answer.text]).toEqual([400, 'Queue is full.'])
    })

    it('an invalid call to an inactive flow is refused, not queued', async () => {
      await h.control('PUT', '/webhooks/orders/flow', { active: false })
      expect((await postJson(h, '/hooks/orders', { amount: 1 })).status).toBe(400)
      expect((await h.control<View>('GET', '/webhooks/orders')).body.queue.length).toBe(0)
    })

    it('activation runs the queued calls one at a time, in arrival order, then new calls run at once', async () => {
      await h.control('PUT', '/webhooks/paused/flow', { processingMs: 1000 })
      for (const n of ['a', 'b', 'c']) await call(h, `/hooks/paused?n=${n}`)
      const started = h.emu.clock.now().getTime()
      const activated = await h.control<View>('PUT', '/webhooks/paused/flow', { active: true })
      expect(activated.status).toBe(200)
      expect(activated.body.flow.active).toBe(true)
      const seen = (): unknown[] => h.emu.webhooks.executions('paused').map((e) => e.bundle.n)
      await h.emu.clock.advance(1000)
      expect(seen()).toEqual(['a'])
      await h.emu.clock.advance(1000)
      expect(seen()).toEqual(['a', 'b'])
      await h.emu.clock.advance(1000)
      expect(seen()).toEqual(['a', 'b', 'c'])
      const runs = h.emu.webhooks.executions('paused')
      expect(runs.map((e) => Date.parse(e.processedAt ?? '') - started)).toEqual([1000, 2000, 3000])
      expect(runs.map((e) => e.seq)).toEqual([1, 2, 3])
      expect(runs.every((e) => e.outcome === 'succeed' && Date.parse(e.receivedAt) === started)).toBe(true)
      await call(h, '/hooks/paused?n=d')
      expect((await h.control<View>('GET', '/webhooks/paused')).body.queue.length).toBe(0)
      await h.emu.clock.advance(1000)
      expect(seen()).toEqual(['a', 'b', 'c', 'd'])
    })

    it('200 concurrent calls to an inactive flow, then activation: each runs exactly once, in arrival order', async () => {
      await h.emu.webhooks.updateFlow('orders', { active: false })
      const answers = await Promise.all(
        Array.from({ length: 200 }, (_, n) => postJson(h, '/hooks/orders', { orderId: `order-${n}` })),
      )
      expect(answers.every((a) => a.status === 200 && a.text === 'Accepted')).toBe(true)
      expect(h.emu.webhooks.get('orders').queue.length).toBe(200)
      // The order the webhook accepted them in: the journal records each answer as it is given.
      const accepted = h.emu.journal.list({ route: 'webhooks.receive' }).map((e) => (e.request.body as { orderId: string }).orderId)
      await h.emu.webhooks.updateFlow('orders', { active: true })
      await h.emu.webhooks.waitForExecution('orders', (e) => e.seq === 200)
      const runs = h.emu.webhooks.executions('orders')
      expect(runs).toHaveLength(200)
      expect(new Set(runs.map((e) => e.bundle.orderId)).size).toBe(200)
      expect(runs.map((e) => e.seq)).toEqual(Array.from({ length: 200 }, (_, i) => i + 1))
      expect(runs.map((e) => e.bundle.orderId)).toEqual(accepted)
      expect(h.emu.webhooks.get('orders').queue.length).toBe(0)
    })

    it('an active flow runs calls one after another, each for processingMs of emulator time', async () => {
      await h.control('PUT', '/webhooks/orders/flow', { processingMs: 500 })
      await call(h, '/hooks/orders?orderId=1')
      await call(h, '/hooks/orders?orderId=2')
      expect((await h.control<View>('GET', '/webhooks/orders')).body.queue.length).toBe(1)
      await h.emu.clock.advance(500)
      expect(h.emu.webhooks.executions('orders').map((e) => e.bundle.orderId)).toEqual(['1'])
      await h.emu.clock.advance(500)
      expect(h.emu.webhooks.executions('orders').map((e) => e.bundle.orderId)).toEqual(['1', '2'])
    })

    it('a busy active flow refuses calls once its queue is full', async () => {
      await h.control('PUT', '/webhooks/orders/flow', { processingMs: 500, queueCapacity: 1 })
      expect((await call(h, '/hooks/orders?orderId=1')).status).toBe(200)
      expect((await call(h, '/hooks/orders?orderId=2')).status).toBe(200)
      expect((await call(h, '/hooks/orders?orderId=3')).text).toBe('Queue is full.')
    })

    it('executions are readable over the control plane, in order, with file bytes as base64', async () => {
      const form = new FormData()
      form.append('file', new Blob([new Uint8Array([1, 2, 3])], { type: 'image/png' }), 'dot.png')
      await call(h, '/hooks/uploads', { method: 'POST', body: form })
      await call(h, '/hooks/uploads?title=second')
      await received(h, 'uploads', (e) => e.seq === 2)
      const { status, body } = await h.control<Array<Record<string, unknown>>>('GET', '/webhooks/uploads/executions')
      expect(status).toBe(200)
      expect(body.map((e) => e.bundle)).toEqual([{ file: { name: 'dot.png', mime: 'image/png', data: 'AQID' } }, { title: 'second' }])
      const now = h.emu.clock.now().toISOString()
      expect(body[0]).toMatchObject({ seq: 1, receivedAt: now, startedAt: now, processedAt: now, outcome: 'succeed' })
    })

    it('waitForExecution resolves with a matching run, and rejects after its timeout on the emulator clock', async () => {
      const waiting = h.emu.webhooks.waitForExecution('orders', (e) => e.bundle.orderId === 'W')
      await call(h, '/hooks/orders?orderId=other')
      await call(h, '/hooks/orders?orderId=W')
      expect((await waiting).seq).toBe(2)
      const never = h.emu.webhooks.waitForExecution('orders', (e) => e.bundle.orderId === 'never', { timeout: 5000 })
      const outcome = never.then(() => 'resolved', (error: Error) => error.message)
      await h.emu.clock.advance(5000)
      expect(await outcome).toBe('No matching execution of webhook "orders" within 5000 ms of emulator time.')
    })
  },
  { clock: 'manual' },
)

contract(
  'webhooks: webhook-response steps, failures and the 40 s timeout',
  { team: true },
  (h) => {
    const withResponse = async (flow: Record<string, unknown>): Promise<string> => {
      const created = await h.control<View>('POST', '/webhooks', { name: 'reply', flow })
      expect(created.status).toBe(201)
      return created.body.id
    }

    it('sync-reply answers with its response step: 201 with a JSON body', async () => {
      const answer = await call(h, '/hooks/sync-reply', { method: 'POST', body: 'x=1', headers: { 'content-type': 'application/x-www-form-urlencoded' } })
      expect(answer.status).toBe(201)
      expect(answer.headers.get('content-type')).toBe('application/json')
      expect(JSON.parse(answer.text)).toEqual({ status: 'created' })
      expect(await received(h, 'sync-reply')).toEqual({ x: '1' })
    })

    it('a 303 with Location and custom headers', async () => {
      const id = await withResponse({ response: { status: 303, headers: { location: 'https://shop.test/thanks', 'x-flow': 'done' } } })
      const answer = await call(h, `/hooks/${id}`)
      expect(answer.status).toBe(303)
      expect(answer.headers.get('location')).toBe('https://shop.test/thanks')
      expect(answer.headers.get('x-flow')).toBe('done')
    })

    it('a 400 with a text body', async () => {
      const id = await withResponse({ response: { status: 400, body: 'Unknown customer' } })
      const answer = await call(h, `/hooks/${id}`)
      expect([answer.status, answer.text, answer.headers.get('content-type')]).toEqual([400, 'Unknown customer', 'text/plain; charset=utf-8'])
    })

    it.each([
      ['text/html', '<p>Thanks</p>'],
      ['application/xml', '<ok>true</ok>'],
    ])('a %s body with its Content-Type', async (type, body) => {
      const id = await withResponse({ response: { status: 200, headers: { 'content-type': type }, body } })
      const answer = await call(h, `/hooks/${id}`)
      expect([answer.status, answer.text, answer.headers.get('content-type')]).toEqual([200, body, type])
    })

    it('the caller waits while the flow runs (processingMs), then gets the response', async () => {
      const id = await withResponse({ processingMs: 3000, response: { status: 202, body: 'done' } })
      let settled = false
      const pending = call(h, `/hooks/${id}`).then((a) => {
        settled = true
        return a
      })
      await h.emu.clock.waitForParked(1)
      await h.emu.clock.advance(2999)
      expect(settled).toBe(false)
      await h.emu.clock.advance(1)
      expect((await pending).status).toBe(202)
    })

    it('a flow with a response step that fails answers 500 Action Flow failed to complete.', async () => {
      const id = await withResponse({ outcome: 'fail', response: { status: 200, body: 'never' } })
      const answer = await call(h, `/hooks/${id}`)
      expect([answer.status, answer.text, answer.headers.get('content-type')]).toEqual([500, 'Action Flow failed to complete.', 'text/plain; charset=utf-8'])
      expect(h.emu.webhooks.executions(id).map((e) => e.outcome)).toEqual(['fail'])
    })

    it('a flow without a response step that fails still answered Accepted; its execution says fail', async () => {
      await h.control('PUT', '/webhooks/orders/flow', { outcome: 'fail' })
      expect((await call(h, '/hooks/orders?orderId=F')).text).toBe('Accepted')
      const run = await h.emu.webhooks.waitForExecution('orders')
      expect(run.outcome).toBe('fail')
    })

    it('no response within 40 s: still pending at 39 s, 500 at 40 s (emulator clock)', async () => {
      const id = await withResponse({ outcome: 'hang', response: { status: 200, body: 'never' } })
      let settled = false
      const pending = call(h, `/hooks/${id}?n=1`).then((a) => {
        settled = true
        return a
      })
      await h.emu.clock.waitForParked(1)
      await h.emu.clock.advance(39_000)
      expect(settled).toBe(false)
      expect(h.emu.journal.list({ route: 'webhooks.receive' })).toEqual([])
      await h.emu.clock.advance(1_000)
      const answer = await pending
      expect([answer.status, answer.text]).toEqual([500, 'Action Flow did not respond in time.'])
      expect(h.emu.journal.list({ route: 'webhooks.receive' })[0]?.durationMs).toBe(40_000)
      expect(h.emu.webhooks.executions(id).map((e) => [e.outcome, e.processedAt])).toEqual([['hang', null]])
    })

    it('the 40 s count from arrival: time spent queued behind another run counts', async () => {
      const id = await withResponse({ processingMs: 30_000, response: { status: 200, body: 'ok' } })
      const first = call(h, `/hooks/${id}?n=1`)
      await h.emu.clock.waitForParked(2)
      const second = call(h, `/hooks/${id}?n=2`)
      await h.emu.clock.waitForParked(3)
      await h.emu.clock.advance(40_000)
      expect((await first).status).toBe(200)
      expect((await second).text).toBe('Action Flow did not respond in time.')
    })

    it('deleting the webhook while a caller waits on its run: 500 Action Flow failed to complete., nothing recorded', async () => {
      const id = await withResponse({ processingMs: 1000, response: { status: 200, body: 'ok' } })
      const pending = call(h, `/hooks/${id}`)
      await h.emu.clock.waitForParked(2)
      expect((await h.fetch(`/__svc-mock/webhooks/${id}`, { method: 'DELETE' })).status).toBe(204)
      await h.emu.clock.advance(1000)
      expect((await pending).text).toBe('Action Flow failed to complete.')
      expect((await call(h, `/hooks/${id}`)).status).toBe(410)
    })

    it('an inactive flow with a response step answers Accepted at once and queues the call', async () => {
      await h.control('PUT', '/webhooks/sync-reply/flow', { active: false })
      const answer = await call(h, '/hooks/sync-reply?n=1')
      expect([answer.status, answer.text]).toEqual([200, 'Accepted'])
      expect((await h.control<View>('GET', '/webhooks/sync-reply')).body.queue.length).toBe(1)
    })
  },
  { clock: 'manual' },
)

contract('webhooks: secured for public use', { team: true }, (h) => {
  it('accepts an application key and marks the answer x-service-authenticated: true', async () => {
    const answer = await call(h, '/hooks/secured?a=1', { headers: { authorization: 'AppKey svcmock-app-key' } })
    expect([answer.status, answer.text]).toEqual([200, 'Accepted'])
    expect(answer.headers.get('x-service-authenticated')).toBe('true')
  })

  it('accepts a Bearer user API key and marks the answer x-service-authenticated: true', async () => {
    const answer = await postJson(h, '/hooks/secured', { a: 1 }, { authorization: 'Bearer svcmock-user-key-alice' })
    expect(answer.status).toBe(200)
    expect(answer.headers.get('x-service-authenticated')).toBe('true')
    expect(await received(h, 'secured')).toEqual({ a: 1 })
  })

  it.each([
    ['no Authorization header', undefined],
    ['an unknown application key', 'AppKey not-a-key-at-all'],
    ['an unknown Bearer token', 'Bearer not-a-token'],
    ['another scheme', 'Basic YTpi'],
  ])('refuses %s with 401 Unauthorized (text), nothing reaches the flow', async (_what, authorization) => {
    const answer = await call(h, '/hooks/secured?a=1', authorization === undefined ? {} : { headers: { authorization } })
    expect([answer.status, answer.text, answer.headers.get('content-type')]).toEqual([401, 'Unauthorized', 'text/plain; charset=utf-8'])
    expect(answer.headers.get('x-service-authenticated')).toBeNull()
    expect(answer.headers.get('x-svc-mock-reason')).not.toBeNull()
    expect(h.emu.webhooks.executions('secured')).toEqual([])
  })

  it('a webhook that is not secured ignores credentials and does not mark the answer', async () => {
    const answer = await call(h, '/hooks/orders?orderId=1', { headers: { authorization: 'AppKey not-a-key-at-all' } })
    expect(answer.status).toBe(200)
    expect(answer.headers.get('x-service-authenticated')).toBeNull()
  })

  it('the mark on an authenticated answer never carries over to the next answer of a webhook that is not secured', async () => {
    const marked = await call(h, '/hooks/secured?a=1', { headers: { authorization: 'AppKey svcmock-app-key' } })
    expect(marked.headers.get('x-service-authenticated')).toBe('true')
    const plain = await call(h, '/hooks/orders?orderId=1')
    expect([plain.status, plain.text]).toEqual([200, 'Accepted'])
    expect(plain.headers.get('x-service-authenticated')).toBeNull()
    const [, journaled] = h.emu.journal.list({ route: 'webhooks.receive' })
    expect(journaled?.response.headers['x-service-authenticated']).toBeUndefined()
  })

  it('never writes the credential to the journal', async () => {
    await call(h, '/hooks/secured', { headers: { authorization: 'AppKey svcmock-app-key' } })
    expect(JSON.stringify(h.emu.journal.list())).not.toContain('svcmock-app-key')
  })
})

contract('webhooks: the authenticated mark is on the call the flow receives', { team: true }, (h) => {
  type HeaderEntry = { name: string; value: string }
  const withHeaders = async (secured: boolean): Promise<string> => {
    const created = await h.control<{ id: string }>('POST', '/webhooks', { name: secured ? 'secured-headers' : 'open-headers', secured, options: { requestHeaders: true } })
    expect(created.status).toBe(201)
    return created.body.id
  }
  const headersOf = async (id: string): Promise<HeaderEntry[]> => (await received(h, id)).__IMTHEADERS__ as HeaderEntry[]

  it.each([
    ['an application key', 'AppKey svcmock-app-key'],
    ['a Bearer user API key', 'Bearer svcmock-user-key-alice'],
  ])('a secured webhook accepting %s passes x-service-authenticated: true to the flow, and not the Authorization it consumed', async (_what, authorization) => {
    const id = await withHeaders(true)
    const answer = await call(h, `/hooks/${id}?a=1`, { headers: { authorization, 'x-order-source': 'shop' } })
    expect(answer.status).toBe(200)
    const headers = await headersOf(id)
    expect(headers.filter((e) => e.name === 'x-service-authenticated')).toEqual([{ name: 'x-service-authenticated', value: 'true' }])
    expect(headers.some((e) => e.name === 'authorization')).toBe(false)
    expect(headers).toContainEqual({ name: 'x-order-source', value: 'shop' })
  })

  it('a caller cannot forge the mark on a webhook that is not secured: its x-service-authenticated is removed', async () => {
    const id = await withHeaders(false)
    const answer = await call(h, `/hooks/${id}?a=1`, { headers: { 'x-service-authenticated': 'true' } })
    expect(answer.status).toBe(200)
    expect(answer.headers.get('x-service-authenticated')).toBeNull()
    expect((await headersOf(id)).some((e) => e.name === 'x-service-authenticated')).toBe(false)
  })

  it('a caller\'s own x-service-authenticated on a secured webhook is replaced by the gateway\'s one mark', async () => {
    const id = await withHeaders(true)
    await call(h, `/hooks/${id}`, { headers: { authorization: 'AppKey svcmock-app-key', 'x-service-authenticated': 'forged' } })
    expect((await headersOf(id)).filter((e) => e.name === 'x-service-authenticated')).toEqual([{ name: 'x-service-authenticated', value: 'true' }])
  })

  it('a webhook that is not secured consumes no credential: its Authorization reaches the flow as sent', async () => {
    const id = await withHeaders(false)
    await call(h, `/hooks/${id}`, { headers: { authorization: 'Bearer the-callers-own' } })
    expect(await headersOf(id)).toContainEqual({ name: 'authorization', value: 'Bearer the-callers-own' })
  })
})

contract('webhooks: control plane', { team: true }, (h) => {
  it('creates a webhook (201 {id, url, …}) whose address accepts calls', async () => {
    const { status, body } = await h.control<View>('POST', '/webhooks', { name: 'Invoices', flow: { queueCapacity: 5 } })
    expect(status).toBe(201)
    expect(body.id).toMatch(/^[a-z0-9]{32}$/)
    expect(body.url).toBe(`${h.origin}/hooks/${body.id}`)
    expect(body).toMatchObject({ name: 'Invoices', learning: false, queue: { length: 0, capacity: 5 } })
    expect(body.flow).toEqual({ active: true, queueCapacity: 5, response: null, outcome: 'succeed', processingMs: 0 })
    expect((await call(h, body.url)).text).toBe('Accepted')
    expect((await h.control<View[]>('GET', '/webhooks')).body.map((w) => w.id)).toContain(body.id)
  })

  it('a default webhook\'s id is its name', async () => {
    const { body } = await h.control<View[]>('GET', '/webhooks')
    expect(body.map((w) => w.id)).toEqual(['orders', 'uploads', 'sync-reply', 'secured', 'paused', 'learning'])
    expect(body.find((w) => w.id === 'paused')?.queue).toEqual({ length: 0, capacity: 3 })
  })

  it('changes part of a flow and keeps the rest', async () => {
    const { body } = await h.control<View>('PUT', '/webhooks/sync-reply/flow', { processingMs: 10 })
    expect(body.flow).toMatchObject({ processingMs: 10, active: true, response: { status: 201 } })
    const cleared = await h.control<View>('PUT', '/webhooks/sync-reply/flow', { response: null })
    expect(cleared.body.flow.response).toBeNull()
  })

  it.each([
    ['POST', '/webhooks', { flow: {} }, 'name'],
    ['POST', '/webhooks', { name: 'x', dataStructure: [{ name: 'a', type: 'integer' }] }, 'dataStructure[0].type'],
    ['POST', '/webhooks', { name: 'x', surprise: true }, ''],
    ['PUT', '/webhooks/orders/flow', { outcome: 'explode' }, 'outcome'],
    ['PUT', '/webhooks/orders/flow', { queueCapacity: -1 }, 'queueCapacity'],
  ])('%s %s with a bad body: 400 naming the field', async (method, path, body, field) => {
    const answer = await h.control<{ error: string; field?: string }>(method, path, body)
    expect(answer.status).toBe(400)
    if (field) expect(answer.body.field).toBe(field)
    else expect(answer.body.error).toMatch(/surprise/)
  })

  it('refuses an id that exists (409)', async () => {
    expect((await h.control('POST', '/webhooks', { id: 'orders', name: 'again' })).status).toBe(409)
  })

  it('deletes a webhook: its address answers 410, its record 404', async () => {
    expect((await h.fetch('/__svc-mock/webhooks/orders', { method: 'DELETE' })).status).toBe(204)
    expect((await call(h, '/hooks/orders?orderId=1')).status).toBe(410)
    expect((await h.control('GET', '/webhooks/orders')).status).toBe(404)
    expect((await h.control('GET', '/webhooks/orders/executions')).status).toBe(404)
    expect((await h.fetch('/__svc-mock/webhooks/orders', { method: 'DELETE' })).status).toBe(404)
  })

  it('reset restores webhooks, flows, queues and executions', async () => {
    await postJson(h, '/hooks/learning', { a: 1 })
    await call(h, '/hooks/paused?n=1')
    await call(h, '/hooks/orders?orderId=1')
    await h.control('PUT', '/webhooks/orders/flow', { active: false })
    await h.fetch('/__svc-mock/webhooks/uploads', { method: 'DELETE' })
    await h.control('POST', '/webhooks', { id: 'extra', name: 'extra' })
    expect((await h.control('POST', '/reset')).status).toBe(200)
    const { body } = await h.control<View[]>('GET', '/webhooks')
    expect(body.map((w) => w.id)).toEqual(['orders', 'uploads', 'sync-reply', 'secured', 'paused', 'learning'])
    expect(body.find((w) => w.id === 'learning')?.learning).toBe(true)
    expect(body.find((w) => w.id === 'orders')?.flow.active).toBe(true)
    expect(body.find((w) => w.id === 'paused')?.queue.length).toBe(0)
    expect(h.emu.webhooks.executions('orders')).toEqual([])
  })
})
