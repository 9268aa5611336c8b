/**
 * The journal's new control routes, on every way in: `DELETE /__svc-mock/journal`
 * (`emu.journal.clear()`), `GET /__svc-mock/journal.har` (`emu.journal.har()`, HAR 1.2, redacted
 * as the journal is), the request body as sent (`request.bodyText`) and the near miss of a
 * request no route answered (`nearMiss`: the closest route and what differed). And one redaction
 * list: what the journal redacts, the state and the live events redact too.
 */
import { describe, expect, it } from 'vitest'
import { createEmulator } from '../../src/index.js'
import { APP_KEY, contract, VERSIONS } from '../support/harness.js'
import { parseHar } from '../support/har.js'
import { basic, CI, CI_POST } from '../support/oauth.js'
import { postJson } from '../support/webhooks.js'

const FORM = { 'content-type': 'application/x-www-form-urlencoded' }

contract(
  'control plane: clear and export the journal',
  (h) => {
    it('DELETE /journal empties it (not journaled itself), as emu.journal.clear() does; sequence numbers keep counting', async () => {
      await h.fetch(VERSIONS(), { headers: APP_KEY })
      const before = h.emu.journal.list().at(-1)?.seq ?? 0
      expect(before).toBeGreaterThan(0)
      const cleared = await h.fetch('/__svc-mock/journal', { method: 'DELETE' })
      expect(cleared.status).toBe(204)
      expect((await h.control<unknown[]>('GET', '/journal')).body).toEqual([])
      await h.fetch(VERSIONS(), { headers: APP_KEY })
      const [after] = h.emu.journal.list()
      expect(after?.seq).toBeGreaterThan(before)
      h.emu.journal.clear()
      expect(h.emu.journal.list()).toEqual([])
    })

    it('DELETE /journal from a page of another origin is refused (403) and clears nothing', async () => {
      await h.fetch(VERSIONS(), { headers: APP_KEY })
      const refused = await h.fetch('/__svc-mock/journal', { method: 'DELETE', headers: { origin: 'https://evil.example' } })
      expect(refused.status).toBe(403)
      expect(h.emu.journal.list({ route: 'versions.list' })).toHaveLength(1)
    })

    it('GET /journal.har is a valid HAR 1.2 download of the journal, oldest first, with emulator times', async () => {
      h.emu.scenarios.use('latency:ms=250')
      const pending = h.fetch(`${VERSIONS()}?$pageSize=1`, { headers: APP_KEY })
      await h.emu.clock.waitForParked(1)
      await h.emu.clock.advance(250)
      expect((await pending).status).toBe(200)
      h.emu.scenarios.off('latency')
      await postJson(h, '/hooks/orders?source=shop', { orderId: 'A-1' })

      const response = await h.fetch('/__svc-mock/journal.har')
      expect(response.status).toBe(200)
      expect(response.headers.get('content-type')).toMatch(/^application\/json/)
      expect(response.headers.get('content-disposition')).toMatch(/^attachment; filename="svc-mock-\d{8}-\d{6}\.har"$/)
      const har = parseHar(await response.text())
      expect(har).toEqual(JSON.parse(JSON.stringify(h.emu.journal.har())))
      expect(har.log.creator).toEqual({ name: 'svc-mock', version: h.emu.health().version })
      const journal = h.emu.journal.list()
      expect(har.log.entries.map((e) => e._seq)).toEqual(journal.map((e) => e.seq))

      const [versions, hook] = har.log.entries
      expect(versions?.request.url).toBe(`${h.origin}${VERSIONS()}?$pageSize=1`)
      expect(versions?.request.queryString).toEqual([{ name: '$pageSize', value: '1' }])
      expect(versions?.request.headers).toContainEqual({ name: 'authorization', value: 'AppKey [redacted]' })
      expect(versions?.startedDateTime).toBe(journal[0]?.time)
      expect(versions?.time).toBe(250)
      expect(versions?.timings).toMatchObject({ send: 0, wait: 250, receive: 0 })
      expect(versions?.response).toMatchObject({ status: 200, statusText: 'OK', httpVersion: 'HTTP/1.1', content: { mimeType: expect.stringMatching(/^application\/json/) } })
      expect(JSON.parse(versions?.response.content.text ?? '')).toMatchObject({ count: 1 })
      expect(versions?._scenarios).toEqual(['latency'])
      expect(versions?._route).toBe('versions.list')

      expect(hook?.request).toMatchObject({ method: 'POST', url: `${h.origin}/hooks/orders?source=shop`, postData: { mimeType: 'application/json', text: '{"orderId":"A-1"}' } })
      expect(hook?.response).toMatchObject({ status: 200, content: { text: 'Accepted' } })
    })

    it('redacts the HAR as the journal: credentials, secret form fields and the tokens answered', async () => {
      const form = new URLSearchParams({ grant_type: 'client_credentials', client_id: CI_POST.id, client_secret: CI_POST.secret, scope: 'studio' })
      expect((await h.fetch('/oauth2/token', { method: 'POST', headers: FORM, body: form.toString() })).status).toBe(200)
      expect((await h.fetch('/oauth2/token', { method: 'POST', headers: { ...FORM, authorization: basic(CI.id, CI.secret) }, body: 'grant_type=client_credentials' })).status).toBe(200)
      const text = await (await h.fetch('/__svc-mock/journal.har?route=auth.token')).text()
      for (const secret of [CI_POST.secret, CI.secret, basic(CI.id, CI.secret).slice(6)]) expect(text).not.toContain(secret)
      const [post, basicAuth] = parseHar(text).log.entries
      expect(post?.request.postData?.text).toBe('grant_type=client_credentials&client_id=ci-post-client&client_secret=%5Bredacted%5D&scope=studio')
      expect(post?.request.postData?.params).toContainEqual({ name: 'client_secret', value: '[redacted]' })
      expect(JSON.parse(post?.response.content.text ?? '')).toMatchObject({ access_token: '[redacted]', token_type: 'Bearer' })
      expect(basicAuth?.request.headers).toContainEqual({ name: 'authorization', value: 'Basic [redacted]' })
    })

    it('filters the HAR as the journal (route, status, limit), and refuses a route that does not exist', async () => {
      await h.fetch(VERSIONS(), { headers: APP_KEY })
      await h.fetch(VERSIONS('missing'), { headers: APP_KEY })
      await postJson(h, '/hooks/orders', { orderId: 'A-1' })
      const only = parseHar(await (await h.fetch('/__svc-mock/journal.har?route=versions.*&status=404')).text())
      expect(only.log.entries.map((e) => [e._route, e.response.status])).toEqual([['versions.list', 404]])
      const last = parseHar(await (await h.fetch('/__svc-mock/journal.har?limit=1')).text())
      expect(last.log.entries.map((e) => e._route)).toEqual(['webhooks.receive'])
      const bad = await h.control<{ error: string }>('GET', '/journal.har?route=versions.lst')
      expect(bad.status).toBe(400)
      expect(bad.body.error).toContain('versions.list')
    })

    it('writes a fault answer as HAR does for a failed request: status 0 and an _error', async () => {
      h.emu.scenarios.use('network-error', { route: 'versions.list' })
      await h.fetch(VERSIONS(), { headers: APP_KEY }).catch(() => undefined)
      await h.emu.clock.settle()
      const [entry] = h.emu.journal.har({ route: 'versions.list' }).log.entries
      expect(entry?.response).toMatchObject({ status: 0, statusText: '', _error: expect.stringContaining('network fault') })
      parseHar(JSON.stringify(h.emu.journal.har()))
    })
  },
  { clock: 'manual' },
)

contract('journal: the request as sent, and near misses', (h) => {
  it('keeps a text body as it was sent (request.bodyText), secret fields of a JSON body redacted', async () => {
    await postJson(h, '/hooks/orders', { orderId: 'A-1', amount: '12.50' })
    const [hook] = h.emu.journal.list({ route: 'webhooks.receive' })
    expect(hook?.request.bodyText).toBe('{"orderId":"A-1","amount":"12.50"}')
    await h.fetch('/__svc-mock/oauth-clients', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'x', grantType: 'client_credentials', authMethod: 'client_secret_basic', scopes: ['studio'], clientSecret: 'never-shown' }),
    })
    const [created] = h.emu.journal.list({ route: 'control.oauthClients.create' })
    expect(created?.request.bodyText).toContain('"clientSecret":"[redacted]"')
    expect(created?.request.bodyText).not.toContain('never-shown')
  })

  it('names the closest route of an unmatched request and what differed: a path segment', async () => {
    const missed = await h.fetch('/oauth2/tokn', { method: 'POST', headers: FORM, body: 'grant_type=client_credentials' })
    expect(missed.status).toBe(404)
    const [entry] = h.emu.journal.list({ route: 'unmatched' })
    expect(entry?.nearMiss).toEqual({
      route: { id: 'auth.token', method: 'POST', path: '/oauth2/token', origin: h.origin },
      differences: [{ part: 'path', segment: 2, expected: 'token', actual: 'tokn' }],
    })
  })

  it('a wrong method (405) differs in the method only; a missing segment is named with its pattern', async () => {
    expect((await h.fetch('/oauth2/token', { method: 'DELETE' })).status).toBe(405)
    expect((await h.fetch('/acme-collection/acme-tenant/_api/rest/facets/processes/views/default/elements/versions', { headers: APP_KEY })).status).toBe(404)
    const [wrongMethod, short] = h.emu.journal.list({ route: 'unmatched' })
    expect(wrongMethod?.nearMiss?.differences).toEqual([{ part: 'method', expected: 'POST', actual: 'DELETE' }])
    expect(short?.nearMiss?.route.id).toBe('versions.list')
    expect(short?.nearMiss?.differences).toEqual([{ part: 'path', segment: 11, expected: 'versions', actual: null }])
  })

  it('a miss under the control prefix is compared with the control routes', async () => {
    expect((await h.fetch('/__svc-mock/journal.hra')).status).toBe(404)
    const [entry] = h.emu.journal.list({ route: 'unmatched' })
    expect(entry?.nearMiss?.route.id).toBe('control.journal.har')
    expect(entry?.nearMiss?.differences).toEqual([{ part: 'path', segment: 2, expected: 'journal.har', actual: 'journal.hra' }])
  })
})

describe('journal: a near miss on another origin (in-process, one origin per address)', () => {
  it('names the origin the route lives on', async () => {
    const emu = await createEmulator({ authUrl: 'https://login.acme.test' })
    try {
      const answer = await emu.handle(new Request('https://acme.svc-mock.test/oauth2/token', { method: 'POST', headers: FORM, body: 'grant_type=client_credentials' }))
      expect(answer.status).toBe(404)
      const [entry] = emu.journal.list({ route: 'unmatched' })
      expect(entry?.origin).toBe('https://acme.svc-mock.test')
      expect(entry?.nearMiss).toEqual({
        route: { id: 'auth.token', method: 'POST', path: '/oauth2/token', origin: 'https://login.acme.test' },
        differences: [{ part: 'origin', expected: 'https://login.acme.test', actual: 'https://acme.svc-mock.test' }],
      })
    } finally {
      await emu.close()
    }
  })
})

contract(
  'journal: one redaction list for the journal, the state and the live events',
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
