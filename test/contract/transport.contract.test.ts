/**
 * What both transports must agree on beyond the routes: unknown paths, wrong methods, body
 * limits (the 413 reaches a client that is still sending, every time, whether the limit was
 * decided from Content-Length or while a body of unknown length streamed in), requests that
 * arrive concurrently, and text from a request in a response header (a storage id in another
 * script, a token's issuer with accents, a webhook response step's or a scenario's header in any
 * script all reach the client percent-encoded, never a 500).
 */
import { SignJWT, exportJWK, generateKeyPair } from 'jose'
import { expect, it } from 'vitest'
import type { InlineFixtures } from '../../src/index.js'
import { APP_KEY, contract, VERSIONS } from '../support/harness.js'

const SIX_MB = 6 * 1024 * 1024
const pinned = await generateKeyPair('ES256', { extractable: true })
const KID = 'pinned-header-text-key'
const fixtures: InlineFixtures = {
  signingKeys: [{ alg: 'ES256', kid: KID, privateJwk: await exportJWK(pinned.privateKey) }],
  apiKeys: [{ id: 'no-rights', kind: 'app', key: 'svcmock-app-key-no-rights', permissions: [] }],
}

contract('transport behaviour', { tls: true }, (h) => {
  it('answers a platform path it does not emulate with 404 "Not emulated", naming the closest emulated platform route', async () => {
    const response = await h.fetch('/acme-collection/acme-tenant/_api/rest/facets/processes/views/default/elements/x/version')
    expect(response.status).toBe(404)
    const body = (await response.json()) as { error: string; path: string; message: string; closest?: string }
    expect(body.error).toBe('Not emulated')
    expect(body.path).toBe('/acme-collection/acme-tenant/_api/rest/facets/processes/views/default/elements/x/version')
    expect(body.message).toMatch(/does not emulate GET .*\/elements\/x\/version.*listed at GET .*\/__svc-mock\/routes/)
    expect(body.closest).toContain('versions.list')
  })

  it('points a platform CLI\'s other paths at an emulated platform route, never at a control-plane route', async () => {
    for (const path of ['/package-manager/api/spaces', '/integration/api/pools/paged', '/api/cloud/settings']) {
      const body = (await (await h.fetch(path, { headers: APP_KEY })).json()) as { error: string; closest?: string }
      expect(body.error).toBe('Not emulated')
      expect(body.closest).toMatch(/^GET \//)
      expect(body.closest).not.toContain('__svc-mock')
    }
  })

  it('answers an unknown control-plane path with 404 naming the closest control route', async () => {
    const body = (await (await h.fetch('/__svc-mock/scenario')).json()) as { error: string; closest?: string }
    expect(body).toMatchObject({ error: 'Not Found', closest: expect.stringContaining('/__svc-mock/scenarios') })
  })

  it('answers a known path with the wrong method with 405 and Allow', async () => {
    const response = await h.fetch(VERSIONS(), { method: 'POST', headers: APP_KEY, body: '{}' })
    expect(response.status).toBe(405)
    expect(response.headers.get('allow')).toBe('GET, HEAD')
  })

  it('refuses a body over the route limit with 413, and keeps serving', async () => {
    const big = JSON.stringify({ storage: 'acme-collection/acme-tenant', pad: 'x'.repeat(10 * 1024 * 1024 + 10) })
    const response = await h.fetch('/__svc-mock/elements', { method: 'POST', body: big, headers: { 'content-type': 'application/json' } })
    expect(response.status).toBe(413)
    expect(await response.text()).toBe('Payload Too Large')
    expect((await h.fetch(VERSIONS(), { headers: APP_KEY })).status).toBe(200)
  })

  it('twenty concurrent 6 MB uploads to a webhook each receive the 413 (Content-Length over 5 MB)', async () => {
    const body = Buffer.alloc(SIX_MB, 0x61)
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        h
          .fetch('/hooks/orders', { method: 'POST', headers: { 'content-type': 'text/plain' }, body })
          .then(async (response) => `${response.status} ${await response.text()}`, (error: unknown) => `failed: ${String(error)}`),
      ),
    )
    expect(answers).toEqual(Array.from({ length: 20 }, () => '413 Payload Too Large'))
    expect((await h.fetch(VERSIONS(), { headers: APP_KEY })).status).toBe(200)
  })

  it('an upload of unknown length over 5 MB receives the 413 while it streams', async () => {
    const chunk = new Uint8Array(256 * 1024).fill(0x62)
    let sent = 0
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= SIX_MB) controller.close()
        else {
          sent += chunk.byteLength
          controller.enqueue(chunk)
        }
      },
    })
    const response = await h.fetch('/hooks/orders', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: stream, duplex: 'half' } as RequestInit)
    expect([response.status, await response.text()]).toEqual([413, 'Payload Too Large'])
    expect((await h.fetch(VERSIONS(), { headers: APP_KEY })).status).toBe(200)
  })

  it('answers many concurrent requests, each with its own answer', async () => {
    const statuses = await Promise.all(
      Array.from({ length: 50 }, (_, i) => h.fetch(VERSIONS(), { headers: i % 2 === 0 ? APP_KEY : { authorization: 'Bearer svcmock-user-key-bob' } }).then((r) => r.status)),
    )
    expect(statuses).toEqual(Array.from({ length: 50 }, (_, i) => (i % 2 === 0 ? 200 : 403)))
    expect(h.emu.journal.list({ route: 'versions.list' })).toHaveLength(50)
  })
})

contract(
  'transport: request text in response headers, percent-encoded',
  { tls: true },
  (h) => {
    it('a storage id in another script, refused for lack of permission: 403 with the reason percent-encoded', async () => {
      for (const storage of ['€/x', '日本/tenant', 'a\u0000b/c']) {
        const response = await h.fetch(VERSIONS(undefined, undefined, undefined, storage.split('/').map(encodeURIComponent).join('/')), {
          headers: { authorization: 'AppKey svcmock-app-key-no-rights' },
        })
        expect(response.status).toBe(403)
        const reason = response.headers.get('x-svc-mock-reason') ?? ''
        expect(reason).toMatch(/lacks the permission read on storage\//)
        expect(decodeURIComponent(reason)).toContain(`storage/${storage}`)
        expect(((await response.json()) as { data: Array<{ error: string }> }).data).toEqual([{ error: 'Access is denied' }])
      }
    })

    it('a token whose issuer has accents: 401 with an invalid_token challenge in plain ASCII', async () => {
      const now = Math.floor(h.emu.clock.now().getTime() / 1000)
      const forged = await new SignJWT({ iss: 'https://é€.example', sub: 'ci-client', aud: h.emu.urls.base, client_id: 'ci-client', scope: 'studio', iat: now, exp: now + 60 })
        .setProtectedHeader({ alg: 'ES256', kid: KID })
        .sign(pinned.privateKey)
      const response = await h.fetch(VERSIONS(), { headers: { authorization: `Bearer ${forged}` } })
      expect(response.status).toBe(401)
      const challenge = response.headers.get('www-authenticate') ?? ''
      expect(challenge).toMatch(/^Bearer error="invalid_token", error_description="[\x20-\x21\x23-\x5b\x5d-\x7e]*"$/)
      expect(decodeURIComponent(challenge)).toContain('https://é€.example')
    })

    it('a webhook response step whose header is in another script or holds a line break: sent encoded', async () => {
      const created = await h.emu.webhooks.create({
        name: 'unicode-reply',
        flow: { response: { status: 200, headers: { 'x-greeting': 'grüße 日本', 'x-split': 'a\r\nset-cookie: evil=1' }, body: 'ok' } },
      })
      const response = await h.fetch(new URL(created.url).pathname, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })
      expect(response.status).toBe(200)
      expect(decodeURIComponent(response.headers.get('x-greeting') ?? '')).toBe('grüße 日本')
      expect(response.headers.get('x-split')).toBe('a%0D%0Aset-cookie: evil=1')
      expect(response.headers.get('set-cookie')).toBeNull()
    })

    it('a scenario answer with a header in another script is sent encoded', async () => {
      const response = await h.fetch(VERSIONS(), { headers: { ...APP_KEY, 'x-svc-mock-scenario': 'odd-header' } })
      expect(response.status).toBe(418)
      expect(decodeURIComponent(response.headers.get('x-note') ?? '')).toBe('ü 日本')
    })
  },
  {
    fixtures,
    clock: 'manual',
    scenarioDefinitions: [{ name: 'odd-header', description: 'answers with a header in another script', rules: [{ route: 'versions.list', respond: { status: 418, headers: { 'x-note': 'ü 日本' } } }] }],
  },
)
