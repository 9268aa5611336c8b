/**
 * The control plane under /__svc-mock/ (and, through the harness, the same operations the
 * in-process emulator exposes): health, reset, clock, journal, storages, elements. Other web
 * pages cannot use it: a cross-site form post cannot change anything (415: a change with a body
 * must be JSON), a page of another origin or site is refused (403) unless it only follows a link
 * here, and nothing it asked for happened.
 */
import { request as httpRequest } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { expect, it } from 'vitest'
import { getResponse } from 'msw'
import type { InProcessEmulator } from '../../src/index.js'
import { APP_KEY, contract, SEED_ELEMENT, VERSIONS } from '../support/harness.js'

type Summary = { storage: string; facet: string; id: string; type: string; versions: Array<{ versionId: string; state: string }> }
type ErrorAnswer = { error: string; field?: string }

const NEW_ELEMENT = {
  storage: 'acme-collection/acme-tenant',
  facet: 'processes',
  id: 'aa0e8400-e29b-41d4-a716-446655440000',
  type: 'subProcess',
  versions: [
    { state: 'released', attributes: { name: { '1033': 'Ship goods' }, version: { '127': '1.0' } } },
    { state: 'inProcess', attributes: { name: { '1033': 'Ship goods' }, version: { '127': '1.1' } } },
  ],
}

contract('control plane', (h) => {
  it('reports health with the package version', async () => {
    const { status, body } = await h.control<{ status: string; version: string }>('GET', '/health')
    expect(status).toBe(200)
    expect(body).toEqual({ status: 'ok', version: h.emu.health().version })
    expect(body.version).toMatch(/^\d+\.\d+\.\d+/)
  })

  it('lists every route it serves', async () => {
    const { body } = await h.control<Array<{ id: string; method: string; path: string }>>('GET', '/routes')
    expect(body.find((r) => r.id === 'versions.list')).toMatchObject({ method: 'GET' })
    expect(body.some((r) => r.id === 'control.reset')).toBe(true)
  })

  it('adds an element with generated version ids, lists it, serves its versions, and removes it', async () => {
    const added = await h.control<Summary>('POST', '/elements', NEW_ELEMENT)
    expect(added.status).toBe(201)
    expect(added.body.versions.map((v) => v.state)).toEqual(['released', 'inProcess'])
    for (const v of added.body.versions) expect(v.versionId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)

    const listed = await h.control<Summary[]>('GET', '/elements?facet=processes')
    expect(listed.body.some((e) => e.id === NEW_ELEMENT.id)).toBe(true)

    const versions = (await (await h.fetch(VERSIONS(NEW_ELEMENT.id), { headers: APP_KEY })).json()) as { count: number; elements: Array<{ type: string; related: Record<string, unknown[]> }> }
    expect(versions.count).toBe(2)
    expect(versions.elements[0]?.type).toBe('subProcess')
    expect(versions.elements[0]?.related.releaseHistory).toHaveLength(1)

    expect((await h.control('DELETE', `/elements/${NEW_ELEMENT.id}`)).status).toBe(204)
    expect((await h.fetch(VERSIONS(NEW_ELEMENT.id), { headers: APP_KEY })).status).toBe(404)
    expect((await h.control('DELETE', `/elements/${NEW_ELEMENT.id}`)).status).toBe(404)
  })

  it('appends a version as the newest, and removes one version', async () => {
    const appended = await h.control<Summary>('POST', `/elements/${SEED_ELEMENT}/versions`, {
      versionId: '4f607182-3c5d-4e7f-a0b1-2c3d4e5f6071',
      state: 'inProcess',
      attributes: { version: { '127': '2.2' } },
    })
    expect(appended.status).toBe(201)
    const after = (await (await h.fetch(VERSIONS(), { headers: APP_KEY })).json()) as { elements: Array<{ versionId: string }> }
    expect(after.elements.map((e) => e.versionId).at(-1)).toBe('4f607182-3c5d-4e7f-a0b1-2c3d4e5f6071')

    expect((await h.control('DELETE', `/elements/${SEED_ELEMENT}/versions/4f607182-3c5d-4e7f-a0b1-2c3d4e5f6071`)).status).toBe(204)
    const back = (await (await h.fetch(VERSIONS(), { headers: APP_KEY })).json()) as { count: number }
    expect(back.count).toBe(3)
  })

  it('refuses bad element bodies with 400 naming the field, and duplicates with 409', async () => {
    const wrongState = await h.control<ErrorAnswer>('POST', '/elements', { ...NEW_ELEMENT, versions: [{ attributes: {} }] })
    expect(wrongState.status).toBe(400)
    expect(wrongState.body.field).toBe('versions[0].state')
    const badId = await h.control<ErrorAnswer>('POST', '/elements', { ...NEW_ELEMENT, id: 'not-a-guid' })
    expect(badId.status).toBe(400)
    expect(badId.body.field).toBe('id')
    const unknownStorage = await h.control<ErrorAnswer>('POST', '/elements', { ...NEW_ELEMENT, storage: 'nope/nada' })
    expect(unknownStorage.status).toBe(400)
    expect(unknownStorage.body.field).toBe('storage')
    const notJson = await h.fetch('/__svc-mock/elements', { method: 'POST', body: '{"storage":', headers: { 'content-type': 'application/json' } })
    expect(notJson.status).toBe(400)
    expect(((await notJson.json()) as ErrorAnswer).error).toMatch(/^The body is not valid JSON/)
    expect((await h.control('POST', '/elements', NEW_ELEMENT)).status).toBe(201)
    expect((await h.control('POST', '/elements', NEW_ELEMENT)).status).toBe(409)
  })

  it('adds a storage whose elements the versions operation then serves', async () => {
    const storage = { collectionId: 'acme-collection', storageId: 'second', facets: [{ name: 'processes', views: ['default'] }] }
    expect((await h.control('POST', '/storages', storage)).status).toBe(201)
    expect((await h.control('POST', '/storages', storage)).status).toBe(409)
    await h.control('POST', '/elements', { ...NEW_ELEMENT, storage: 'acme-collection/second' })
    const key = await h.emu.apiKeys.create({ kind: 'app', permissions: [{ action: 'read', resource: 'storage/acme-collection/second' }] })
    const response = await h.fetch(VERSIONS(NEW_ELEMENT.id, 'processes', 'default', 'acme-collection/second'), { headers: { authorization: `AppKey ${key.key}` } })
    expect(response.status).toBe(200)
  })

  it('reset goes back to the fixtures: elements, keys, scenarios, clock and journal', async () => {
    await h.control('POST', '/elements', NEW_ELEMENT)
    await h.control('DELETE', `/elements/${SEED_ELEMENT}`)
    const key = await h.control<{ key: string }>('POST', '/api-keys', { kind: 'app' })
    await h.control('POST', '/scenarios/versions-not-found')
    const before = Date.parse((await h.control<{ now: string }>('GET', '/clock')).body.now)
    await h.control('POST', '/clock/advance', { ms: 3_600_000 })
    await h.fetch(VERSIONS(), { headers: APP_KEY })

    const reset = await h.control<{ status: string }>('POST', '/reset')
    expect(reset.status).toBe(200)

    expect(h.emu.elements.list().some((e) => e.id === NEW_ELEMENT.id)).toBe(false)
    expect((await h.fetch(VERSIONS(), { headers: APP_KEY })).status).toBe(200)
    expect(h.emu.apiKeys.list().length).toBe(3)
    expect((await h.fetch(VERSIONS(), { headers: { authorization: `AppKey ${key.body.key}` } })).status).toBe(401)
    const scenarios = await h.control<Array<{ name: string; active: boolean }>>('GET', '/scenarios')
    expect(scenarios.body.filter((s) => s.active)).toEqual([])
    const now = Date.parse((await h.control<{ now: string }>('GET', '/clock')).body.now)
    expect(now - before).toBeLessThan(3_600_000)
    expect(h.emu.journal.list({ route: 'control.*' }).every((e) => e.route !== 'control.clock.advance')).toBe(true)
  })

  it('generates the same ids again after a reset (deterministic)', async () => {
    const first = await h.control<Summary>('POST', '/elements', { ...NEW_ELEMENT })
    await h.control('POST', '/reset')
    const second = await h.control<Summary>('POST', '/elements', { ...NEW_ELEMENT })
    expect(second.body.versions.map((v) => v.versionId)).toEqual(first.body.versions.map((v) => v.versionId))
  })
})

contract(
  'control plane: clock and journal with a manual clock',
  (h) => {
    it('reads the clock and moves it by exactly the advance', async () => {
      const before = await h.control<{ now: string; mode: string; timeScale: number }>('GET', '/clock')
      expect(before.body.mode).toBe('manual')
      expect(before.body.timeScale).toBe(1)
      const after = await h.control<{ now: string }>('POST', '/clock/advance', { ms: 40_000 })
      expect(Date.parse(after.body.now) - Date.parse(before.body.now)).toBe(40_000)
    })

    it('refuses an advance without a valid ms, naming the field', async () => {
      for (const body of [{}, { ms: -5 }, { ms: 'soon' }, { ms: 5, extra: true }]) {
        const { status, body: answer } = await h.control<ErrorAnswer>('POST', '/clock/advance', body)
        expect(status).toBe(400)
        expect(answer.error).toMatch(/^Invalid clock advance: /)
      }
    })

    it('an advance past the representable date range is a 400, and everything keeps answering', async () => {
      const refused = await h.control('POST', '/clock/advance', { ms: 1e16 })
      expect(refused.status).toBe(400)
      expect(refused.body).toMatchObject({ field: 'ms', error: expect.stringMatching(/past the last date it can represent/) })
      expect((await h.fetch(VERSIONS(), { headers: APP_KEY })).status).toBe(200)
      expect((await h.control('GET', '/clock')).status).toBe(200)
      expect((await h.control('POST', '/reset')).status).toBe(200)
      const token = await h.fetch('/oauth2/token', { method: 'POST', headers: { authorization: `Basic ${btoa('ci-client:ci-secret')}`, 'content-type': 'application/x-www-form-urlencoded' }, body: 'grant_type=client_credentials' })
      expect(token.status).toBe(200)
    })

    it('journals requests newest last, with route, status, identity and redacted secrets; filters by route and limit', async () => {
      await h.fetch(VERSIONS(), { headers: APP_KEY })
      await h.fetch(VERSIONS(), { headers: { authorization: 'Bearer svcmock-user-key-bob' } })
      await h.fetch('/nowhere')
      const all = await h.control<Array<{ route: string; status: number; identity: string | null; method: string; path: string; request: { headers: Record<string, string> } }>>('GET', '/journal?route=versions.list')
      expect(all.body.map((e) => e.status)).toEqual([200, 403])
      expect(all.body[1]?.identity).toBe('bob (user API key bob-user-key)')
      expect(all.body[1]?.request.headers.authorization).toBe('Bearer [redacted]')
      const last = await h.control<Array<{ route: string; status: number }>>('GET', '/journal?limit=1')
      expect(last.body).toHaveLength(1)
      expect(last.body[0]).toMatchObject({ route: 'unmatched', status: 404 })
      const unjournaled = await h.control<Array<{ route: string }>>('GET', '/journal')
      expect(unjournaled.body.some((e) => e.route === 'control.journal.list')).toBe(false)
    })

    it('journal wait answers with the next matching request', async () => {
      const waiting = h.control<{ route: string; status: number }>('GET', '/journal/wait?route=versions.list&timeoutMs=60000')
      await h.emu.clock.waitForParked(1)
      await h.fetch(VERSIONS(), { headers: APP_KEY })
      const { status, body } = await waiting
      expect(status).toBe(200)
      expect(body).toMatchObject({ route: 'versions.list', status: 200 })
    })

    it('journal wait answers an entry already recorded after `since` at once', async () => {
      const since = h.emu.journal.list().at(-1)?.seq ?? 0
      await h.fetch(VERSIONS(), { headers: APP_KEY })
      const { status, body } = await h.control<{ seq: number }>('GET', `/journal/wait?route=versions.list&since=${since}`)
      expect(status).toBe(200)
      expect(body.seq).toBeGreaterThan(since)
    })

    it('journal wait answers 408 when the emulator clock passes the timeout first', async () => {
      const waiting = h.control<{ error: string }>('GET', '/journal/wait?route=versions.list&timeoutMs=5000')
      await h.emu.clock.waitForParked(1)
      await h.emu.clock.advance(5000)
      const { status, body } = await waiting
      expect(status).toBe(408)
      expect(body.error).toMatch(/within 5000 ms/)
    })
  },
  { clock: 'manual' },
)

contract('control plane against other web pages: a change with a body must be JSON, from the same origin and site', (h) => {
  it('a cross-site form post (urlencoded) is refused with 415 and switches nothing on', async () => {
    const response = await h.fetch('/__svc-mock/scenarios/network-error', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'times=1' })
    expect(response.status).toBe(415)
    expect(((await response.json()) as { error: string }).error).toMatch(/Content-Type: application\/json/)
    expect(h.emu.scenarios.list().some((s) => s.active)).toBe(false)
  })

  it('a change without a body needs no Content-Type: a bare POST resets, a bare DELETE switches off', async () => {
    await h.emu.scenarios.use('latency')
    const reset = await h.fetch('/__svc-mock/reset', { method: 'POST' })
    expect(reset.status).toBe(200)
    expect(h.emu.scenarios.list().find((s) => s.name === 'latency')?.active).toBe(false)
    const on = await h.fetch('/__svc-mock/scenarios/latency', { method: 'POST' })
    expect(on.status).toBe(200)
    expect(h.emu.scenarios.list().find((s) => s.name === 'latency')?.active).toBe(true)
    const off = await h.fetch('/__svc-mock/scenarios/latency', { method: 'DELETE' })
    expect(off.status).toBe(200)
    expect(h.emu.scenarios.list().find((s) => s.name === 'latency')?.active).toBe(false)
  })

  it('a change with a body that is not JSON is refused with 415 and changes nothing (text/plain, none, DELETE too)', async () => {
    await h.emu.scenarios.use('latency')
    const reset = await h.fetch('/__svc-mock/reset', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: '{}' })
    expect(reset.status).toBe(415)
    expect(((await reset.json()) as { error: string }).error).toMatch(/Content-Type: application\/json/)
    expect(h.emu.scenarios.list().find((s) => s.name === 'latency')?.active).toBe(true)
    const off = await h.fetch('/__svc-mock/scenarios/latency', { method: 'DELETE', headers: { 'content-type': 'text/plain' }, body: 'x' })
    expect(off.status).toBe(415)
    expect(h.emu.scenarios.list().find((s) => s.name === 'latency')?.active).toBe(true)
    const before = h.emu.oauth.clients.list().length
    const created = await h.fetch('/__svc-mock/oauth-clients', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: '{"name":"x","grantType":"client_credentials","authMethod":"client_secret_basic"}' })
    expect(created.status).toBe(415)
    expect(h.emu.oauth.clients.list()).toHaveLength(before)
  })

  it('a bodiless change from a page of another origin (browsers send Origin on every POST) is refused with 403, null included', async () => {
    await h.emu.scenarios.use('latency')
    for (const origin of ['https://evil.example', 'null']) {
      const reset = await h.fetch('/__svc-mock/reset', { method: 'POST', headers: { origin } })
      expect(reset.status).toBe(403)
    }
    expect(h.emu.scenarios.list().find((s) => s.name === 'latency')?.active).toBe(true)
  })

  it('a request a browser marks Sec-Fetch-Site: cross-site or same-site is refused with 403, reads included', async () => {
    await h.emu.scenarios.use('latency')
    for (const site of ['cross-site', 'same-site']) {
      const reset = await h.fetch('/__svc-mock/reset', { method: 'POST', headers: { 'sec-fetch-site': site } })
      expect(reset.status).toBe(403)
      const state = await h.fetch('/__svc-mock/state', { headers: { 'sec-fetch-site': site } })
      expect(state.status).toBe(403)
    }
    expect(h.emu.scenarios.list().find((s) => s.name === 'latency')?.active).toBe(true)
    for (const site of ['same-origin', 'none']) {
      const state = await h.fetch('/__svc-mock/state', { headers: { 'sec-fetch-site': site } })
      expect(state.status).toBe(200)
    }
  })

  it('a link followed from a page of the same or another site opens the dashboard (a top-level GET navigation), but no change rides on one', async () => {
    // Node's fetch sets Sec-Fetch-Mode itself (Node.js 22 and later put 'cors' on the wire, which msw 3
    // intercepts): in-process, msw's handlers are given the request a browser's service worker would hand
    // them (msw's getResponse); over a socket, node:http sends the headers as a browser does.
    const send = async (method: string, path: string, headers: Record<string, string>): Promise<number> => {
      if (h.kind === 'handle') return (await h.fetch(path, { method, headers })).status
      if (h.kind === 'in-process') return (await getResponse([...(h.emu as InProcessEmulator).handlers] as Parameters<typeof getResponse>[0], new Request(new URL(path, h.origin), { method, headers })))?.status ?? 0
      const url = new URL(path, h.origin)
      const request = url.protocol === 'https:' ? httpsRequest : httpRequest
      return await new Promise<number>((resolve, reject) => {
        const req = request(url, { method, headers, rejectUnauthorized: false }, (res) => {
          res.resume()
          resolve(res.statusCode ?? 0)
        })
        req.on('error', reject)
        req.end()
      })
    }
    for (const site of ['same-site', 'cross-site']) {
      expect(await send('GET', '/__svc-mock/', { 'sec-fetch-site': site, 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document' })).toBe(200)
      expect(await send('GET', '/__svc-mock/state', { 'sec-fetch-site': site, 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'object' })).toBe(403)
      expect(await send('GET', '/__svc-mock/state', { 'sec-fetch-site': site, 'sec-fetch-mode': 'cors', 'sec-fetch-dest': 'empty' })).toBe(403)
      expect(await send('POST', '/__svc-mock/reset', { 'sec-fetch-site': site, 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document' })).toBe(403)
    }
  })

  it('a request sent by a page of another origin is refused with 403, reads included', async () => {
    const state = await h.fetch('/__svc-mock/state', { headers: { origin: 'https://evil.example' } })
    expect(state.status).toBe(403)
    const change = await h.fetch('/__svc-mock/scenarios/network-error', { method: 'POST', headers: { origin: 'https://evil.example', 'content-type': 'application/json' }, body: '{}' })
    expect(change.status).toBe(403)
    expect(h.emu.scenarios.list().some((s) => s.active)).toBe(false)
  })

  it('the emulator\'s own page (same origin, JSON) is served', async () => {
    const response = await h.fetch('/__svc-mock/scenarios/latency', { method: 'POST', headers: { origin: h.origin, 'content-type': 'application/json' }, body: '{"times":1}' })
    expect(response.status).toBe(200)
    expect(h.emu.scenarios.list().find((s) => s.name === 'latency')?.active).toBe(true)
  })

  it('the platform\'s own routes are not guarded (a webhook takes a form from anywhere)', async () => {
    const response = await h.fetch('/hooks/orders', { method: 'POST', headers: { origin: 'https://shop.example', 'content-type': 'application/x-www-form-urlencoded' }, body: 'orderId=A-1' })
    expect(response.status).toBe(200)
  })
})
