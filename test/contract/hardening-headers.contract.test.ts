/**
 * Text from a request never breaks a response header: a storage id in another script, a token's
 * issuer with accents, a webhook response step's header in any script all reach the client
 * percent-encoded (never a 500); and every 401 carries a challenge (RFC 9110), while a token
 * endpoint client that authenticated in the body sees its error without one.
 */
import { SignJWT, exportJWK, generateKeyPair } from 'jose'
import { expect, it } from 'vitest'
import type { InlineFixtures } from '../../src/index.js'
import { APP_KEY, VERSIONS, contract } from '../support/harness.js'
import { CI_POST, basic, token } from '../support/oauth.js'

const pinned = await generateKeyPair('ES256', { extractable: true })
const KID = 'pinned-hardening-key'
const fixtures: InlineFixtures = {
  signingKeys: [{ alg: 'ES256', kid: KID, privateJwk: await exportJWK(pinned.privateKey) }],
  apiKeys: [{ id: 'no-rights', kind: 'app', key: 'svcmock-app-key-no-rights', permissions: [] }],
}

contract(
  'hardening: request text in response headers',
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

contract('hardening: every 401 carries a challenge', (h) => {
  it('an API call with Authorization: Basic (neither Bearer nor AppKey): 401, the documented text, and WWW-Authenticate: Bearer', async () => {
    const response = await h.fetch(VERSIONS(), { headers: { authorization: basic('ci-client', 'ci-secret') } })
    expect(response.status).toBe(401)
    expect(response.headers.get('www-authenticate')).toBe('Bearer')
    expect(((await response.json()) as { data: Array<{ error: string }> }).data[0]?.error).toMatch(/^Invalid "Authorization" header format/)
  })

  it('no credential: 401 with WWW-Authenticate: Bearer', async () => {
    const response = await h.fetch(VERSIONS())
    expect(response.status).toBe(401)
    expect(response.headers.get('www-authenticate')).toBe('Bearer')
  })

  it('invalid_client for a Client secret post client carries no Basic challenge; for a Basic attempt it does', async () => {
    const post = await token(h, { grant_type: 'client_credentials' }, { auth: 'post', client: { ...CI_POST, secret: 'wrong' } })
    expect([post.status, post.body.error, post.headers.get('www-authenticate')]).toEqual([401, 'invalid_client', null])
    const viaHeader = await token(h, { grant_type: 'client_credentials' }, { auth: 'basic', client: { ...CI_POST, secret: 'wrong' } })
    expect([viaHeader.status, viaHeader.body.error]).toEqual([401, 'invalid_client'])
    expect(viaHeader.headers.get('www-authenticate')).toMatch(/^Basic realm=/)
  })
})
