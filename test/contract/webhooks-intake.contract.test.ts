/**
 * Webhook intake, rule by rule (service description "Webhook endpoints", product.md section 2):
 * encodings, the bundle, options, validation against the data structure, learning, malformed
 * bodies, the 5 MB limit, unknown addresses and the CORS preflight, on both transports.
 */
import { expect, it } from 'vitest'
import { contract } from '../support/harness.js'
import { JSON_HEADERS, call, postJson, received, streamOf } from '../support/webhooks.js'

const LIMIT = 5_242_880

contract('webhooks: encodings and the bundle', { team: true }, (h) => {
  it('GET passes the query string to the flow and answers 200 Accepted, text/plain; charset=utf-8', async () => {
    const answer = await call(h, '/hooks/orders?orderId=A-1&amount=12.5')
    expect(answer.status).toBe(200)
    expect(answer.text).toBe('Accepted')
    expect(answer.headers.get('content-type')).toBe('text/plain; charset=utf-8')
    expect(await received(h, 'orders')).toEqual({ orderId: 'A-1', amount: 12.5 })
  })

  it('POST application/x-www-form-urlencoded: form fields, repeated names as arrays, + and %XX decoded', async () => {
    const answer = await call(h, '/hooks/orders', {
      method: 'POST',
      body: 'orderId=A+2&tags=red&tags=blue%20green&note=caf%C3%A9',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    })
    expect(answer.status).toBe(200)
    expect(await received(h, 'orders')).toEqual({ orderId: 'A 2', tags: ['red', 'blue green'], note: 'café' })
  })

  it('POST application/json: the object\'s members, nested as sent', async () => {
    const payload = { orderId: 'A-3', customer: { email: 'a@acme.test' }, items: [{ sku: 'X', quantity: 2 }] }
    expect((await postJson(h, '/hooks/orders', payload)).status).toBe(200)
    expect(await received(h, 'orders')).toEqual(payload)
  })

  it('POST multipart/form-data: text fields, and files as {name, mime, data}', async () => {
    const form = new FormData()
    form.append('title', 'Quarterly report')
    form.append('file', new Blob([new Uint8Array([0, 1, 2, 253, 254, 255])], { type: 'application/pdf' }), 'report.pdf')
    const answer = await call(h, '/hooks/uploads', { method: 'POST', body: form })
    expect(answer.status).toBe(200)
    const bundle = await received(h, 'uploads')
    expect(bundle.title).toBe('Quarterly report')
    expect(bundle.file).toEqual({ name: 'report.pdf', mime: 'application/pdf', data: Buffer.from([0, 1, 2, 253, 254, 255]) })
  })

  it('multipart: repeated names become arrays, files included', async () => {
    const form = new FormData()
    form.append('tag', 'a')
    form.append('tag', 'b')
    form.append('doc', new Blob(['one']), 'one.txt')
    form.append('doc', new Blob(['two'], { type: 'text/plain' }), 'two.txt')
    expect((await call(h, '/hooks/secured', { method: 'POST', body: form, headers: { authorization: 'AppKey svcmock-app-key' } })).status).toBe(200)
    const bundle = await received(h, 'secured')
    expect(bundle.tag).toEqual(['a', 'b'])
    expect(bundle.doc).toEqual([
      { name: 'one.txt', mime: 'application/octet-stream', data: Buffer.from('one') },
      { name: 'two.txt', mime: 'text/plain', data: Buffer.from('two') },
    ])
  })

  it('POST text/plain arrives as `value`', async () => {
    expect((await call(h, '/hooks/learning', { method: 'POST', body: 'hello flow', headers: { 'content-type': 'text/plain' } })).status).toBe(200)
    expect(await received(h, 'learning')).toEqual({ value: 'hello flow' })
  })

  it('merges query and body; the query wins on a clash', async () => {
    await postJson(h, '/hooks/orders?orderId=from-query&source=q', { orderId: 'from-body', amount: 1 })
    expect(await received(h, 'orders')).toEqual({ orderId: 'from-query', amount: 1, source: 'q' })
  })

  it.each(['PUT', 'PATCH', 'DELETE'])('%s is accepted like POST', async (method) => {
    const answer = await call(h, '/hooks/orders', { method, body: JSON.stringify({ orderId: method }), headers: JSON_HEADERS })
    expect(answer.status).toBe(200)
    expect(answer.text).toBe('Accepted')
    expect(await received(h, 'orders')).toEqual({ orderId: method })
  })

  it('HEAD is accepted like a call (query string), with no body in the answer', async () => {
    const answer = await call(h, '/hooks/orders?orderId=H', { method: 'HEAD' })
    expect(answer.status).toBe(200)
    expect(answer.text).toBe('')
    expect(await received(h, 'orders')).toEqual({ orderId: 'H' })
  })
})

contract('webhooks: options', { team: true }, (h) => {
  const create = async (options: Record<string, boolean>): Promise<string> => {
    const created = await h.control<{ id: string }>('POST', '/webhooks', { name: 'opts', options })
    expect(created.status).toBe(201)
    return created.body.id
  }

  it('JSON pass-through: the body is not parsed, the flow receives the raw text as `value` (query fields still join)', async () => {
    const id = await create({ jsonPassThrough: true })
    const raw = '{ "a": 1,\n  "b": [true] }'
    await call(h, `/hooks/${id}?source=shop`, { method: 'POST', body: raw, headers: JSON_HEADERS })
    expect(await received(h, id)).toEqual({ value: raw, source: 'shop' })
  })

  it('JSON pass-through: malformed JSON is accepted (200) and reaches the flow as sent', async () => {
    const id = await create({ jsonPassThrough: true })
    const answer = await call(h, `/hooks/${id}`, { method: 'POST', body: '{"orderId": ', headers: JSON_HEADERS })
    expect([answer.status, answer.text]).toEqual([200, 'Accepted'])
    expect(await received(h, id)).toEqual({ value: '{"orderId": ' })
  })

  it('JSON pass-through: the data structure is not applied and nothing is learnt from the text', async () => {
    const typed = await h.control<{ id: string }>('POST', '/webhooks', { name: 'typed-raw', options: { jsonPassThrough: true }, dataStructure: [{ name: 'orderId', type: 'text', required: true }] })
    expect((await postJson(h, `/hooks/${typed.body.id}`, { amount: 'not checked' })).status).toBe(200)
    const learning = await h.control<{ id: string }>('POST', '/webhooks', { name: 'learning-raw', learning: true, options: { jsonPassThrough: true } })
    expect((await postJson(h, `/hooks/${learning.body.id}`, { a: 1 })).status).toBe(200)
    expect(h.emu.webhooks.get(learning.body.id)).toMatchObject({ learning: true, dataStructure: null })
  })

  it('JSON pass-through applies to JSON bodies only: a form body is still read and validated', async () => {
    const typed = await h.control<{ id: string }>('POST', '/webhooks', { name: 'form-raw', options: { jsonPassThrough: true }, dataStructure: [{ name: 'orderId', type: 'text', required: true }] })
    const refused = await call(h, `/hooks/${typed.body.id}`, { method: 'POST', body: 'amount=1', headers: { 'content-type': 'application/x-www-form-urlencoded' } })
    expect(refused.status).toBe(400)
    expect((await call(h, `/hooks/${typed.body.id}`, { method: 'POST', body: 'orderId=A', headers: { 'content-type': 'application/x-www-form-urlencoded' } })).status).toBe(200)
    expect(await received(h, typed.body.id)).toEqual({ orderId: 'A' })
  })

  it('Get request headers adds __IMTHEADERS__: [{name, value}], lower-case names, without svc-mock\'s own headers', async () => {
    const id = await create({ requestHeaders: true })
    await call(h, `/hooks/${id}?x=1`, { headers: { 'X-Order-Source': 'shop', 'x-svc-mock-scenario': 'latency:ms=0' } })
    const headers = (await received(h, id)).__IMTHEADERS__ as Array<{ name: string; value: string }>
    expect(headers).toContainEqual({ name: 'x-order-source', value: 'shop' })
    expect(headers.every((e) => e.name === e.name.toLowerCase() && Object.keys(e).join() === 'name,value')).toBe(true)
    expect(headers.some((e) => e.name.startsWith('x-svc-mock'))).toBe(false)
  })

  it('the journal shows a bundle\'s credential headers redacted, while the flow receives them as sent', async () => {
    const id = await create({ requestHeaders: true })
    await call(h, `/hooks/${id}`, { headers: { authorization: 'Bearer flow-secret', cookie: 'session=s3cret', 'x-order-source': 'shop' } })
    const sent = (await received(h, id)).__IMTHEADERS__ as Array<{ name: string; value: string }>
    expect(sent).toContainEqual({ name: 'authorization', value: 'Bearer flow-secret' })
    const [entry] = h.emu.journal.list({ route: 'webhooks.receive' })
    const shown = (entry?.request.body as { __IMTHEADERS__: Array<{ name: string; value: string }> }).__IMTHEADERS__
    expect(shown).toContainEqual({ name: 'authorization', value: '[redacted]' })
    expect(shown).toContainEqual({ name: 'cookie', value: '[redacted]' })
    expect(shown).toContainEqual({ name: 'x-order-source', value: 'shop' })
    expect(JSON.stringify(entry)).not.toContain('s3cret')
  })

  it('the journal shows a JSON member named __proto__ as a member, as the flow receives it', async () => {
    const id = await create({})
    const answer = await call(h, `/hooks/${id}`, { method: 'POST', body: '{"__proto__":{"polluted":true},"orderId":"A"}', headers: { 'content-type': 'application/json' } })
    expect(answer.status).toBe(200)
    const [entry] = h.emu.journal.list({ route: 'webhooks.receive' })
    const body = entry?.request.body as Record<string, unknown>
    expect(Object.hasOwn(body, '__proto__')).toBe(true)
    expect(Object.getPrototypeOf(body)).toBe(Object.prototype)
    expect(JSON.parse(JSON.stringify(body))).toEqual(JSON.parse('{"__proto__":{"polluted":true},"orderId":"A"}'))
  })

  it('Get request method adds __IMTMETHOD__', async () => {
    const id = await create({ requestMethod: true })
    await call(h, `/hooks/${id}`, { method: 'PATCH', body: 'a=1', headers: { 'content-type': 'application/x-www-form-urlencoded' } })
    expect(await received(h, id)).toEqual({ a: '1', __IMTMETHOD__: 'PATCH' })
  })

  it('without options the bundle has none of these', async () => {
    const id = await create({})
    await postJson(h, `/hooks/${id}`, { a: 1 })
    expect(await received(h, id)).toEqual({ a: 1 })
  })
})

contract('webhooks: validation against the data structure', { team: true }, (h) => {
  const post = (body: unknown): ReturnType<typeof postJson> => postJson(h, '/hooks/orders', body)

  it.each([
    [{}, "Validation failed for 1 parameter(s). Missing value of required parameter 'orderId'."],
    [{ orderId: '' }, "Validation failed for 1 parameter(s). Missing value of required parameter 'orderId'."],
    [{ orderId: { id: 1 } }, "Validation failed for 1 parameter(s). Invalid text in parameter 'orderId'."],
    [{ orderId: 'A', amount: 'twelve' }, "Validation failed for 1 parameter(s). Invalid number in parameter 'amount'."],
    [{ orderId: 'A', paid: 'maybe' }, "Validation failed for 1 parameter(s). Invalid boolean in parameter 'paid'."],
    [{ orderId: 'A', orderedAt: 'yesterday' }, "Validation failed for 1 parameter(s). Invalid date in parameter 'orderedAt'."],
    [{ orderId: 'A', customer: 'alice' }, "Validation failed for 1 parameter(s). Invalid collection in parameter 'customer'."],
    [{ orderId: 'A', customer: {} }, "Validation failed for 1 parameter(s). Missing value of required parameter 'customer.email'."],
    [{ orderId: 'A', items: [{ sku: 'X' }, { quantity: 'a' }] }, "Validation failed for 2 parameter(s). Missing value of required parameter 'items[1].sku'. Invalid number in parameter 'items[1].quantity'."],
    [{ amount: 'x', paid: 2 }, "Validation failed for 3 parameter(s). Missing value of required parameter 'orderId'. Invalid number in parameter 'amount'. Invalid boolean in parameter 'paid'."],
  ])('refuses %j with 400 naming each field and rule', async (body, message) => {
    const answer = await post(body)
    expect(answer.status).toBe(400)
    expect(answer.headers.get('content-type')).toBe('text/plain; charset=utf-8')
    expect(answer.text).toBe(message)
    expect(h.emu.webhooks.executions('orders')).toEqual([])
  })

  it('query and form values are text: number, boolean and date fields take text that converts cleanly', async () => {
    const answer = await call(h, '/hooks/orders?orderId=A&amount=12.50&paid=true&orderedAt=2026-03-01T10:00:00Z&tags=solo')
    expect(answer.status).toBe(200)
    expect(await received(h, 'orders')).toEqual({ orderId: 'A', amount: 12.5, paid: true, orderedAt: '2026-03-01T10:00:00.000Z', tags: ['solo'] })
  })

  it('the same text that does not convert is refused', async () => {
    const answer = await call(h, '/hooks/orders?orderId=A&amount=12,50&paid=yes')
    expect(answer.text).toBe("Validation failed for 2 parameter(s). Invalid number in parameter 'amount'. Invalid boolean in parameter 'paid'.")
  })

  it('fields the structure does not name pass through unchanged', async () => {
    await post({ orderId: 'A', extra: { deep: [1] } })
    expect(await received(h, 'orders')).toEqual({ orderId: 'A', extra: { deep: [1] } })
  })

  it('a field named like a built-in property (toString, constructor) is read from the call only: absent, it is absent', async () => {
    const created = await h.control<{ id: string }>('POST', '/webhooks', {
      name: 'built-in-names',
      dataStructure: [{ name: 'toString', type: 'text' }, { name: 'constructor', type: 'number' }, { name: 'id', type: 'text', required: true }],
    })
    expect((await postJson(h, `/hooks/${created.body.id}`, { id: 'A' })).status).toBe(200)
    expect(await received(h, created.body.id)).toEqual({ id: 'A' })
    expect((await postJson(h, `/hooks/${created.body.id}`, { id: 'B', constructor: 'x' })).text).toBe("Validation failed for 1 parameter(s). Invalid number in parameter 'constructor'.")
  })

  it('a learning webhook learns its structure from the first call, then validates against it', async () => {
    expect((await postJson(h, '/hooks/learning', { orderId: 'A', amount: 3, paid: true, lines: [{ sku: 'X' }] })).status).toBe(200)
    const learnt = await h.control<{ learning: boolean; dataStructure: unknown }>('GET', '/webhooks/learning')
    expect(learnt.body.learning).toBe(false)
    expect(learnt.body.dataStructure).toEqual([
      { name: 'orderId', type: 'text' },
      { name: 'amount', type: 'number' },
      { name: 'paid', type: 'boolean' },
      { name: 'lines', type: 'array', spec: [{ name: 'sku', type: 'text' }] },
    ])
    const refused = await postJson(h, '/hooks/learning', { amount: 'lots' })
    expect(refused.status).toBe(400)
    expect(refused.text).toBe("Validation failed for 1 parameter(s). Invalid number in parameter 'amount'.")
    expect((await postJson(h, '/hooks/learning', { amount: 4 })).status).toBe(200)
    expect(h.emu.webhooks.executions('learning').map((e) => e.bundle)).toEqual([{ orderId: 'A', amount: 3, paid: true, lines: [{ sku: 'X' }] }, { amount: 4 }])
  })

  it('a learning sample always passes the structure learnt from it: items of mixed types leave the array unconstrained', async () => {
    const sample = { flags: [true, 5, 'x'], same: [1, 2], rows: [{ a: 1 }, { b: 'x' }] }
    expect((await postJson(h, '/hooks/learning', sample)).status).toBe(200)
    const learnt = await h.control<{ dataStructure: unknown }>('GET', '/webhooks/learning')
    expect(learnt.body.dataStructure).toEqual([
      { name: 'flags', type: 'array' },
      { name: 'same', type: 'array', spec: { type: 'number' } },
      { name: 'rows', type: 'array' },
    ])
    expect((await postJson(h, '/hooks/learning', sample)).status).toBe(200)
    expect((await postJson(h, '/hooks/learning', { same: [1, 'two'] })).text).toBe("Validation failed for 1 parameter(s). Invalid number in parameter 'same[1]'.")
  })

  it('a learning sample its own structure refuses (a number past the double range) is refused and teaches nothing', async () => {
    const refused = await call(h, '/hooks/learning', { method: 'POST', body: '{"total":1e400}', headers: { 'content-type': 'application/json' } })
    expect([refused.status, refused.text]).toEqual([400, "Validation failed for 1 parameter(s). Invalid number in parameter 'total'."])
    expect(h.emu.webhooks.get('learning')).toMatchObject({ learning: true, dataStructure: null })
    expect((await postJson(h, '/hooks/learning', { total: 5 })).status).toBe(200)
    expect(h.emu.webhooks.get('learning')).toMatchObject({ learning: false, dataStructure: [{ name: 'total', type: 'number' }] })
  })

  it('a data structure given over the control plane is enforced', async () => {
    const created = await h.control<{ id: string }>('POST', '/webhooks', {
      name: 'typed',
      dataStructure: [{ name: 'when', type: 'date', required: true }, { name: 'blob', type: 'buffer' }],
    })
    expect((await postJson(h, `/hooks/${created.body.id}`, { blob: 'x' })).text).toBe("Validation failed for 1 parameter(s). Missing value of required parameter 'when'.")
    expect((await postJson(h, `/hooks/${created.body.id}`, { when: 0, blob: [1] })).text).toBe("Validation failed for 1 parameter(s). Invalid buffer in parameter 'blob'.")
    expect((await postJson(h, `/hooks/${created.body.id}`, { when: '2026-01-02' })).status).toBe(200)
  })
})

contract('webhooks: malformed bodies get 400 with the reason, never 500', { team: true }, (h) => {
  it.each([
    ['bad JSON', 'application/json', '{"orderId": ', /^The JSON body is not valid JSON: /],
    ['a JSON charset the platform cannot read', 'application/json; charset=klingon', '{}', /^Unsupported charset 'klingon' in Content-Type\.$/],
    ['a multipart type without a boundary', 'multipart/form-data', 'x', /no boundary parameter/],
    ['a multipart body with a broken boundary', 'multipart/form-data; boundary=abc', '--abc\r\nContent-Disposition: form-data; name="a"\r\n\r\nvalue\r\n--abd--\r\n', /ends before the closing boundary/],
    ['a multipart part without a name', 'multipart/form-data; boundary=abc', '--abc\r\nContent-Type: text/plain\r\n\r\nvalue\r\n--abc--\r\n', /part 1 has no Content-Disposition with a name/],
    ['an unsupported Content-Type', 'application/octet-stream', 'xyz', /^Unsupported Content-Type 'application\/octet-stream'\./],
  ])('%s', async (_what, type, body, reason) => {
    const answer = await call(h, '/hooks/learning', { method: 'POST', body, headers: { 'content-type': type } })
    expect(answer.status).toBe(400)
    expect(answer.text).toMatch(reason)
    expect(h.emu.webhooks.get('learning').learning).toBe(true)
  })

  it.each([
    ['text/plain', new Uint8Array([0x68, 0x69, 0xff, 0xfe])],
    ['application/json', new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0x22, 0x7d])],
    ['application/x-www-form-urlencoded', new TextEncoder().encode('a=%FF%FE')],
  ])('bytes that are not valid UTF-8 (%s): 400 naming the charset', async (type, bytes) => {
    const answer = await call(h, '/hooks/learning', { method: 'POST', body: bytes, headers: { 'content-type': type } })
    expect(answer.status).toBe(400)
    expect(answer.text).toMatch(/is not valid utf-8 text \(wrong charset\?\)\.$/)
  })

  it('a multipart text field in a wrong charset: 400 naming the field', async () => {
    const body = Buffer.concat([Buffer.from('--b\r\nContent-Disposition: form-data; name="title"\r\n\r\n'), Buffer.from([0xe9, 0x74, 0xe9]), Buffer.from('\r\n--b--\r\n')])
    const answer = await call(h, '/hooks/uploads', { method: 'POST', body, headers: { 'content-type': 'multipart/form-data; boundary=b' } })
    expect(answer.status).toBe(400)
    expect(answer.text).toBe("Field 'title' of the multipart body is not valid utf-8 text (wrong charset?).")
  })

  it('a body in a declared charset the platform reads is decoded', async () => {
    const answer = await call(h, '/hooks/learning', { method: 'POST', body: new Uint8Array([0x63, 0x61, 0x66, 0xe9]), headers: { 'content-type': 'text/plain; charset=iso-8859-1' } })
    expect(answer.status).toBe(200)
    expect(await received(h, 'learning')).toEqual({ value: 'café' })
  })
})

contract('webhooks: payload limit of 5,242,880 bytes', { team: true }, (h) => {
  const json = (size: number): Uint8Array => {
    const bytes = new Uint8Array(size).fill(0x61)
    bytes.set(new TextEncoder().encode('{"orderId":"'), 0)
    bytes.set(new TextEncoder().encode('"}'), size - 2)
    return bytes
  }

  it('accepts a body of exactly 5,242,880 bytes (bytes body)', async () => {
    const answer = await call(h, '/hooks/orders', { method: 'POST', body: json(LIMIT), headers: JSON_HEADERS })
    expect(answer.status).toBe(200)
    expect(((await received(h, 'orders')).orderId as string).length).toBe(LIMIT - 14)
  })

  it('refuses 5,242,881 bytes with 413 Payload Too Large (bytes body)', async () => {
    const answer = await call(h, '/hooks/orders', { method: 'POST', body: json(LIMIT + 1), headers: JSON_HEADERS })
    expect(answer.status).toBe(413)
    expect(answer.text).toBe('Payload Too Large')
    expect(answer.headers.get('content-type')).toBe('text/plain; charset=utf-8')
  })

  it('accepts exactly the limit streamed without Content-Length', async () => {
    const answer = await call(h, '/hooks/orders', { method: 'POST', body: streamOf(json(LIMIT)), headers: JSON_HEADERS, duplex: 'half' } as RequestInit)
    expect(answer.status).toBe(200)
  })

  it('refuses one byte over the limit streamed without Content-Length, while streaming', async () => {
    const answer = await call(h, '/hooks/orders', { method: 'POST', body: streamOf(json(LIMIT + 1)), headers: JSON_HEADERS, duplex: 'half' } as RequestInit)
    expect(answer.status).toBe(413)
    expect(answer.text).toBe('Payload Too Large')
    expect(h.emu.webhooks.executions('orders')).toEqual([])
  })

  // Text is decoded only once the last byte is in, so the byte count decides first, as it does from a Content-Length.
  it.each([
    ['application/json', '/hooks/orders', '{"orderId":"\xff'],
    ['text/plain', '/hooks/orders', '\xff'],
    [undefined, '/hooks/orders', '\xff'],
    ['application/x-www-form-urlencoded', '/hooks/orders', 'orderId=%FF'],
    ['multipart/form-data; boundary=b', '/hooks/uploads', '--b\r\nContent-Disposition: form-data; name="title"\r\n\r\n\xff\r\n--b\r\nContent-Disposition: form-data; name="file"; filename="f"\r\n\r\n'],
  ])('a body over the limit streamed without Content-Length is refused 413 even when its first bytes are not valid in its charset (Content-Type %s)', async (type, path, head) => {
    const bytes = Buffer.alloc(LIMIT + 1, 0x61)
    bytes.write(head, 'latin1')
    const headers = type === undefined ? {} : { 'content-type': type }
    const answer = await call(h, path, { method: 'POST', body: streamOf(bytes), headers, duplex: 'half' } as RequestInit)
    expect(answer.status).toBe(413)
    expect(answer.text).toBe('Payload Too Large')
  })

  it('a multipart upload just under the limit is accepted, just over is refused', async () => {
    const boundary = 'limit-boundary'
    const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`)
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`)
    const body = (size: number): Buffer => Buffer.concat([head, Buffer.alloc(size - head.length - tail.length, 7), tail])
    const headers = { 'content-type': `multipart/form-data; boundary=${boundary}` }
    expect((await call(h, '/hooks/uploads', { method: 'POST', body: body(LIMIT), headers })).status).toBe(200)
    const file = (await received(h, 'uploads')).file as { data: Buffer }
    expect(file.data.length).toBe(LIMIT - head.length - tail.length)
    expect((await call(h, '/hooks/uploads', { method: 'POST', body: body(LIMIT + 1), headers })).status).toBe(413)
  })
})

contract('webhooks: addresses and preflight', { team: true }, (h) => {
  it.each(['GET', 'POST'])('an unknown address answers %s with 410 Webhook not found.', async (method) => {
    const answer = await call(h, '/hooks/no-such-hook', { method, ...(method === 'POST' ? { body: '{}', headers: JSON_HEADERS } : {}) })
    expect(answer.status).toBe(410)
    expect(answer.text).toBe('Webhook not found.')
    expect(answer.headers.get('content-type')).toBe('text/plain; charset=utf-8')
  })

  it('a method webhooks do not take answers 405 with Allow', async () => {
    const answer = await call(h, '/hooks/orders', { method: 'PROPFIND' })
    expect(answer.status).toBe(405)
    expect(answer.headers.get('allow')).toBe('GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS')
  })

  it('OPTIONS answers 200 ok with CORS headers', async () => {
    const answer = await call(h, '/hooks/orders', { method: 'OPTIONS', headers: { origin: 'https://shop.test', 'access-control-request-method': 'POST' } })
    expect(answer.status).toBe(200)
    expect(answer.text).toBe('ok')
    expect(answer.headers.get('access-control-allow-methods')).toBe('GET, PUT, POST, PATCH, DELETE, HEAD, OPTIONS')
    expect(answer.headers.get('access-control-allow-origin')).toBe('*')
    expect(h.emu.webhooks.executions('orders')).toEqual([])
  })

  it('records the bundle in the journal, file bytes summarised', async () => {
    const form = new FormData()
    form.append('file', new Blob([new Uint8Array(1000)]), 'zeros.bin')
    await call(h, '/hooks/uploads?title=T', { method: 'POST', body: form })
    const [entry] = h.emu.journal.list({ route: 'webhooks.receive' })
    expect(entry?.request.body).toEqual({ file: { name: 'zeros.bin', mime: 'application/octet-stream', data: '[1000 bytes]' }, title: 'T' })
    expect(entry?.status).toBe(200)
  })
})
