/**
 * OAuth access tokens at the API: the gate verifies each one (signature, alg, exp/nbf on the
 * emulator clock, issuer, audience) and then needs the route's scope AND the identity's
 * permission; static keys skip the scope check. Run on the versions operation, both transports.
 * The tests pin the signing key through fixtures so they can forge tokens with it.
 */
import { type CryptoKey, type JWK, SignJWT, exportJWK, generateKeyPair, importJWK } from 'jose'
import { expect, it } from 'vitest'
import type { InlineFixtures } from '../../src/index.js'
import { APP_KEY, VERSIONS, contract } from '../support/harness.js'
import { CI, LIMITED, claims, exchange, getCode, token } from '../support/oauth.js'

const pinned = await generateKeyPair('ES256', { extractable: true })
const pinnedJwk = await exportJWK(pinned.privateKey)
const stranger = await generateKeyPair('ES256')
const PINNED_KID = 'pinned-test-key'

type ErrorBody = { data: Array<{ error: string }>; type: string }

const fixtures: InlineFixtures = { signingKeys: [{ alg: 'ES256', kid: PINNED_KID, privateJwk: pinnedJwk }] }

contract(
  'oauth: access tokens at the API gate',
  { tls: true, team: true },
  (h) => {
    const call = async (accessToken: string): Promise<{ status: number; body: ErrorBody; headers: Headers }> => {
      const response = await h.fetch(VERSIONS(), { headers: { authorization: `Bearer ${accessToken}` } })
      return { status: response.status, body: (await response.json()) as ErrorBody, headers: response.headers }
    }
    const ciToken = async (): Promise<string> => String((await token(h, { grant_type: 'client_credentials' })).body.access_token)
    /** A token like the emulator's, signed with the pinned key, with some claims changed. */
    const forge = async (changes: Record<string, unknown>, header: Record<string, unknown> = {}, key: CryptoKey = pinned.privateKey): Promise<string> => {
      const now = Math.floor(h.emu.clock.now().getTime() / 1000)
      const payload = { iss: h.emu.urls.auth, sub: 'ci-client', aud: h.emu.urls.base, client_id: 'ci-client', scope: 'studio', iat: now, exp: now + 899, jti: 'x', ...changes }
      return await new SignJWT(payload).setProtectedHeader({ alg: 'ES256', kid: PINNED_KID, ...header }).sign(key)
    }
    const expectRefused = async (accessToken: string, reason: RegExp): Promise<void> => {
      const answer = await call(accessToken)
      expect(answer.status).toBe(401)
      expect(answer.body.type).toBe('Unauthorized')
      expect(answer.headers.get('www-authenticate')).toMatch(/^Bearer error="invalid_token"/)
      expect(answer.headers.get('x-svc-mock-reason')).toMatch(reason)
    }

    it('signs with the pinned key and accepts its own tokens', async () => {
      const accessToken = await ciToken()
      expect(JSON.parse(Buffer.from(accessToken.split('.')[0] ?? '', 'base64url').toString())).toEqual({ alg: 'ES256', kid: PINNED_KID, typ: 'JWT' })
      expect((await call(accessToken)).status).toBe(200)
      expect((await call(await forge({}))).status).toBe(200)
    })

    it('refuses a token with alg "none"', async () => {
      const unsigned = `${Buffer.from(JSON.stringify({ alg: 'none', kid: PINNED_KID })).toString('base64url')}.${(await ciToken()).split('.')[1]}.`
      await expectRefused(unsigned, /alg "none"/)
    })

    it('refuses a tampered token (payload changed after signing)', async () => {
      const [head, , signature] = (await ciToken()).split('.')
      const payload = { ...claims(await ciToken()), client_id: 'limited-client', sub: 'limited-client' }
      await expectRefused(`${head}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}.${signature}`, /signature does not verify/)
    })

    it('refuses a token signed by another key under the same key id', async () => {
      await expectRefused(await forge({}, {}, stranger.privateKey), /signature does not verify/)
    })

    it('refuses a token whose key id it does not know', async () => {
      await expectRefused(await forge({}, { kid: 'other' }, stranger.privateKey), /key id is unknown/)
    })

    it('refuses a token whose header names another algorithm than its key', async () => {
      const hs = await new SignJWT({}).setProtectedHeader({ alg: 'HS256', kid: PINNED_KID }).sign(new TextEncoder().encode('x'.repeat(32)))
      await expectRefused(hs, /alg "HS256"/)
    })

    it('refuses a token from another issuer, or meant for another audience', async () => {
      await expectRefused(await forge({ iss: 'https://evil.example' }), /issued by "https:\/\/evil.example"/)
      await expectRefused(await forge({ aud: 'https://elsewhere.example' }), /meant for "https:\/\/elsewhere.example"/)
    })

    it('refuses a token that is not valid yet (nbf) on the emulator clock', async () => {
      const now = Math.floor(h.emu.clock.now().getTime() / 1000)
      await expectRefused(await forge({ nbf: now + 120 }), /"nbf" claim/)
    })

    it('a token expires after expires_in seconds of emulator time', async () => {
      const accessToken = await ciToken()
      await h.emu.clock.advance(898_000)
      expect((await call(accessToken)).status).toBe(200)
      await h.emu.clock.advance(1_000)
      await expectRefused(accessToken, /expired at/)
    })

    it('refuses the tokens of a deleted client', async () => {
      const accessToken = await ciToken()
      expect((await h.control('DELETE', '/oauth-clients/ci-client')).status).toBe(204)
      await expectRefused(accessToken, /no longer exists/)
    })

    it('emu.oauth.issueToken mints a token without HTTP that the API accepts', async () => {
      const issued = await h.emu.oauth.issueToken({ clientId: 'ci-client', scope: 'studio' })
      expect(issued).toMatchObject({ token_type: 'Bearer', scope: 'studio', expires_in: 899 })
      expect((await call(issued.access_token)).status).toBe(200)
      const forUser = await h.emu.oauth.issueToken({ clientId: 'web-app', userId: 'bob' })
      expect(claims(forUser.access_token)).toMatchObject({ sub: 'bob', client_id: 'web-app' })
      expect((await call(forUser.access_token)).status).toBe(403)
      await expect(h.emu.oauth.issueToken({ clientId: 'limited-client', scope: 'studio' })).rejects.toThrow(/may not request the scope "studio"/)
    })

    it('the JWKS publishes the pinned public key (never a private member)', async () => {
      const jwks = (await (await h.fetch('/.well-known/jwks.json')).json()) as { keys: JWK[] }
      expect(jwks.keys).toEqual([{ kty: 'EC', crv: 'P-256', x: pinnedJwk.x, y: pinnedJwk.y, kid: PINNED_KID, alg: 'ES256', use: 'sig' }])
      expect(await importJWK(jwks.keys[0] ?? {}, 'ES256')).toBeDefined()
    })
  },
  { clock: 'manual', fixtures, tokenAlgorithm: 'ES256' },
)

contract(
  'oauth: scopes and permissions on the versions operation (versionsScope set)',
  { tls: true, team: true },
  (h) => {
    const call = async (authorization: string): Promise<Response> => await h.fetch(VERSIONS(), { headers: { authorization } })

    it('a token with the scope and the permission is let through', async () => {
      const { body } = await token(h, { grant_type: 'client_credentials', scope: 'studio' })
      expect((await call(`Bearer ${String(body.access_token)}`)).status).toBe(200)
    })

    it('a token without the scope gets 403, even with the permission', async () => {
      const { body } = await token(h, { grant_type: 'client_credentials', scope: 'audit.log:read' }, { client: CI })
      const response = await call(`Bearer ${String(body.access_token)}`)
      expect(response.status).toBe(403)
      expect(response.headers.get('x-svc-mock-reason')).toMatch(/lacks the scope "studio"/)
      expect(((await response.json()) as ErrorBody).type).toBe('Unauthorized')
    })

    it('a static key skips the scope check', async () => {
      expect((await call(APP_KEY.authorization)).status).toBe(200)
      expect((await call('Bearer svcmock-user-key-alice')).status).toBe(200)
    })

    it('a code-grant token carries the consenting user\'s permissions: alice reads, bob gets 403', async () => {
      const alice = await exchange(h, await getCode(h, { login_hint: 'alice' }))
      expect((await call(`Bearer ${String(alice.body.access_token)}`)).status).toBe(200)
      const bob = await exchange(h, await getCode(h, { login_hint: 'bob' }))
      const response = await call(`Bearer ${String(bob.body.access_token)}`)
      expect(response.status).toBe(403)
      expect(response.headers.get('x-svc-mock-reason')).toMatch(/bob via OAuth client web-app lacks the permission read on storage\/acme-collection\/acme-tenant/)
    })
  },
  { clock: 'manual', versionsScope: 'studio' },
)

contract(
  'oauth: permissions without a route scope (the default for the versions operation)',
  { tls: true, team: true },
  (h) => {
    it('any scope will do; a client without the permission gets 403 with the platform body', async () => {
      const limited = await token(h, { grant_type: 'client_credentials' }, { client: LIMITED })
      const response = await h.fetch('/acme-collection/acme-tenant/_api/rest/facets/processes/views/default/elements/0f8fad5b-d9cb-469f-a165-70867728950e/versions', {
        headers: { authorization: `Bearer ${String(limited.body.access_token)}` },
      })
      expect(response.status).toBe(403)
      expect(response.headers.get('x-svc-mock-reason')).toMatch(/OAuth client limited-client lacks the permission/)
      const ci = await token(h, { grant_type: 'client_credentials', scope: 'audit.log:read' })
      expect((await h.fetch(VERSIONS(), { headers: { authorization: `Bearer ${String(ci.body.access_token)}` } })).status).toBe(200)
    })

    it('records who called in the journal, never the token', async () => {
      const ci = await token(h, { grant_type: 'client_credentials' })
      await h.fetch(VERSIONS(), { headers: { authorization: `Bearer ${String(ci.body.access_token)}` } })
      const [entry] = h.emu.journal.list({ route: 'versions.list', limit: 1 })
      expect(entry?.identity).toBe('OAuth client ci-client')
      expect(JSON.stringify(h.emu.journal.list())).not.toContain(String(ci.body.access_token))
    })
  },
  { clock: 'manual' },
)
