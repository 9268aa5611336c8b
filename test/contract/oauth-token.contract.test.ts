/**
 * The token endpoint, rule by rule: the service description's "Token endpoint" section and
 * product.md section 1 (encodings, client authentication, the token response, RFC 6749 errors),
 * on both transports. A replay revokes what it issued: a used authorization code presented again
 * revokes every token issued from it, access and refresh (RFC 6749 section 4.1.2); a rotated
 * refresh token presented again revokes its whole family (RFC 9700 section 4.14.2).
 */
import { expect, it } from 'vitest'
import { VERSIONS, contract } from '../support/harness.js'
import { CI, CI_POST, type Encoding, LIMITED, VERIFIER, WEB_APP, basic, claims, exchange, getCode, s256, token } from '../support/oauth.js'

const EVERY_SCOPE = [
  'intelligence.knowledge-models:read',
  'intelligence.subscriptions:manage',
  'intelligence.conversations:write',
  'user-provisioning.scim',
  'audit.log:read',
  'integration.data-pools',
  'integration.data-pools:data_push',
  'integration.data-pools:continuous_data_push',
  'platform-adoption.tracking-events:read',
  'team.user-group-info:read',
  'team.login-history:read',
  'task-mining.gateway',
  'task-mining.metadata:read',
  'action-engine.projects',
  'machine-learning',
  'studio',
  'package-manager',
]
const ENCODINGS: Encoding[] = ['urlencoded', 'multipart', 'query']

contract(
  'oauth: token endpoint grants',
  { tls: true, team: true },
  (h) => {
    for (const encoding of ENCODINGS) {
      it(`client credentials with Client secret basic, parameters ${encoding}`, async () => {
        const { status, body, headers } = await token(h, { grant_type: 'client_credentials', scope: 'audit.log:read studio' }, { encoding, auth: 'basic', client: CI })
        expect(status).toBe(200)
        expect(Object.keys(body)).toEqual(['access_token', 'scope', 'token_type', 'expires_in'])
        expect(body).toMatchObject({ scope: 'audit.log:read studio', token_type: 'Bearer', expires_in: 899 })
        expect(headers.get('cache-control')).toBe('no-store')
        expect(headers.get('content-type')).toMatch(/^application\/json/)
      })

      it(`client credentials with Client secret post, parameters ${encoding}`, async () => {
        const { status, body } = await token(h, { grant_type: 'client_credentials', scope: 'machine-learning' }, { encoding, auth: 'post', client: CI_POST })
        expect(status).toBe(200)
        expect(body.scope).toBe('machine-learning')
        expect(body.refresh_token).toBeUndefined()
      })

      it(`authorization code exchange and refresh, parameters ${encoding}`, async () => {
        const code = await getCode(h)
        const issued = await token(h, { grant_type: 'authorization_code', code, redirect_uri: 'http://127.0.0.1:8765/callback', state: 's-1' }, { encoding, auth: 'post', client: WEB_APP })
        expect(issued.status).toBe(200)
        expect(Object.keys(issued.body)).toEqual(['access_token', 'scope', 'token_type', 'expires_in', 'refresh_token'])
        expect(issued.headers.get('cache-control')).toBe('no-store')
        const refreshed = await token(h, { grant_type: 'refresh_token', refresh_token: String(issued.body.refresh_token), scope: 'studio' }, { encoding, auth: 'post', client: WEB_APP })
        expect(refreshed.status).toBe(200)
        expect(refreshed.body.scope).toBe('studio')
        expect(refreshed.body.refresh_token).toEqual(expect.any(String))
      })
    }

    it('authorization code and refresh with Client secret basic, for a client registered for it', async () => {
      await h.emu.oauth.clients.create({ clientId: 'basic-app', name: 'Basic app', grantType: 'authorization_code', authMethod: 'client_secret_basic', redirectUris: ['http://127.0.0.1/callback'] })
      const secret = (await h.emu.oauth.clients.regenerateSecret('basic-app')).clientSecret
      const code = await getCode(h, { client_id: 'basic-app' })
      const issued = await token(h, { grant_type: 'authorization_code', code, redirect_uri: 'http://127.0.0.1:8765/callback' }, { auth: 'basic', client: { id: 'basic-app', secret } })
      expect(issued.status).toBe(200)
      const refreshed = await token(h, { grant_type: 'refresh_token', refresh_token: String(issued.body.refresh_token) }, { encoding: 'multipart', auth: 'basic', client: { id: 'basic-app', secret } })
      expect(refreshed.status).toBe(200)
      expect((await token(h, { grant_type: 'refresh_token', refresh_token: String(refreshed.body.refresh_token) }, { auth: 'post', client: { id: 'basic-app', secret } })).body.error).toBe('invalid_client')
    })

    it('gives the same codes, tokens ids and secrets after a reset (seeded generator)', async () => {
      const first = [await getCode(h), (await h.emu.oauth.clients.create({ name: 'x', grantType: 'client_credentials', authMethod: 'client_secret_basic' })).clientSecret]
      await h.emu.reset()
      const second = [await getCode(h), (await h.emu.oauth.clients.create({ name: 'x', grantType: 'client_credentials', authMethod: 'client_secret_basic' })).clientSecret]
      expect(second).toEqual(first)
      expect(h.emu.oauth.consents.list('alice').length).toBe(1)
    })

    it('grants every scope of the client when the request names none', async () => {
      const { body } = await token(h, { grant_type: 'client_credentials' })
      expect(String(body.scope).split(' ')).toEqual(EVERY_SCOPE)
      const limited = await token(h, { grant_type: 'client_credentials' }, { client: LIMITED })
      expect(limited.body.scope).toBe('audit.log:read')
    })

    it('issues a JWT with iss, sub, aud, client_id, scope, iat, exp and jti', async () => {
      const { body } = await token(h, { grant_type: 'client_credentials', scope: 'audit.log:read' })
      const c = claims(body.access_token)
      expect(c).toMatchObject({ iss: h.origin, sub: 'ci-client', aud: h.origin, client_id: 'ci-client', scope: 'audit.log:read' })
      expect(Object.keys(c).sort()).toEqual(['aud', 'client_id', 'exp', 'iat', 'iss', 'jti', 'scope', 'sub'])
      expect(Number(c.exp) - Number(c.iat)).toBe(899)
      expect(c.iat).toBe(Math.floor(h.emu.clock.now().getTime() / 1000))
    })

    it('makes the user the subject of an authorization code token', async () => {
      const issued = await exchange(h, await getCode(h, { login_hint: 'bob' }))
      expect(claims(issued.body.access_token)).toMatchObject({ sub: 'bob', client_id: 'web-app' })
    })

    it('decodes Basic credentials form-encoded as RFC 6749 section 2.3.1 asks', async () => {
      const created = await h.control<{ clientId: string; clientSecret: string }>('POST', '/oauth-clients', {
        clientId: 'id with spaces:and+plus',
        name: 'odd',
        grantType: 'client_credentials',
        authMethod: 'client_secret_basic',
      })
      expect(created.status).toBe(201)
      const ok = await token(h, { grant_type: 'client_credentials' }, { client: { id: created.body.clientId, secret: created.body.clientSecret } })
      expect(ok.status).toBe(200)
      expect(claims(ok.body.access_token).client_id).toBe('id with spaces:and+plus')
    })
  },
  { clock: 'manual' },
)

contract('oauth: token endpoint errors (RFC 6749 section 5.2)', { tls: true, team: true }, (h) => {
  const expectError = (answer: { status: number; body: Record<string, unknown>; headers: Headers }, status: number, error: string, description?: RegExp): void => {
    expect(answer.status).toBe(status)
    expect(Object.keys(answer.body)).toEqual(['error', 'error_description'])
    expect(answer.body.error).toBe(error)
    expect(String(answer.body.error_description).length).toBeGreaterThan(20)
    if (description) expect(answer.body.error_description).toMatch(description)
    expect(answer.headers.get('cache-control')).toBe('no-store')
  }

  it('invalid_client (401) for a wrong secret, an unknown client, no credentials; the Basic challenge only to a client that tried the Authorization header', async () => {
    const wrong = await token(h, { grant_type: 'client_credentials' }, { client: { id: 'ci-client', secret: 'nope' } })
    expectError(wrong, 401, 'invalid_client', /secret of "ci-client" is wrong/)
    expect(wrong.headers.get('www-authenticate')).toMatch(/^Basic /)
    const unknown = await token(h, { grant_type: 'client_credentials' }, { client: { id: 'ghost', secret: 'x' } })
    expectError(unknown, 401, 'invalid_client', /Unknown client "ghost"/)
    const none = await token(h, { grant_type: 'client_credentials' }, { auth: 'none' })
    expectError(none, 401, 'invalid_client', /No client authentication/)
    expect(none.headers.get('www-authenticate')).toBeNull()
    const post = await token(h, { grant_type: 'client_credentials' }, { auth: 'post', client: { id: 'ci-post-client', secret: 'nope' } })
    expectError(post, 401, 'invalid_client', /secret of "ci-post-client" is wrong/)
    expect(post.headers.get('www-authenticate')).toBeNull()
  })

  it('invalid_client for a Client secret post client carries no Basic challenge; for a Basic attempt it does', async () => {
    const post = await token(h, { grant_type: 'client_credentials' }, { auth: 'post', client: { ...CI_POST, secret: 'wrong' } })
    expect([post.status, post.body.error, post.headers.get('www-authenticate')]).toEqual([401, 'invalid_client', null])
    const viaHeader = await token(h, { grant_type: 'client_credentials' }, { auth: 'basic', client: { ...CI_POST, secret: 'wrong' } })
    expect([viaHeader.status, viaHeader.body.error]).toEqual([401, 'invalid_client'])
    expect(viaHeader.headers.get('www-authenticate')).toMatch(/^Basic realm=/)
  })

  it('invalid_client when a client authenticates by a method it is not registered for', async () => {
    const postForBasic = await token(h, { grant_type: 'client_credentials' }, { auth: 'post', client: CI })
    expectError(postForBasic, 401, 'invalid_client', /registered for Client secret basic/)
    const basicForPost = await token(h, { grant_type: 'client_credentials' }, { auth: 'basic', client: CI_POST })
    expectError(basicForPost, 401, 'invalid_client', /registered for Client secret post/)
  })

  it('invalid_client for a Basic value that is not base64(id:secret)', async () => {
    const answer = await token(h, { grant_type: 'client_credentials' }, { auth: 'none', headers: { authorization: 'Basic !!!' } })
    expectError(answer, 401, 'invalid_client', /RFC 6749 section 2.3.1/)
  })

  it('invalid_request for a missing grant_type, a parameter sent twice, two authentication methods, a JSON body', async () => {
    expectError(await token(h, {}), 400, 'invalid_request', /"grant_type" is missing/)
    const twice = await h.fetch('/oauth2/token?grant_type=client_credentials', {
      method: 'POST',
      headers: { authorization: basic('ci-client', 'ci-secret'), 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials',
    })
    expectError({ status: twice.status, body: (await twice.json()) as Record<string, unknown>, headers: twice.headers }, 400, 'invalid_request', /more than once/)
    const both = await token(h, { grant_type: 'client_credentials', client_secret: 'ci-secret' }, { auth: 'basic' })
    expectError(both, 400, 'invalid_request', /authenticates twice/)
    const asJson = await h.fetch('/oauth2/token', {
      method: 'POST',
      headers: { authorization: basic('ci-client', 'ci-secret'), 'content-type': 'application/json' },
      body: JSON.stringify({ grant_type: 'client_credentials' }),
    })
    expectError({ status: asJson.status, body: (await asJson.json()) as Record<string, unknown>, headers: asJson.headers }, 400, 'invalid_request', /application\/x-www-form-urlencoded or multipart\/form-data/)
  })

  it('unsupported_grant_type for a grant the platform does not have', async () => {
    expectError(await token(h, { grant_type: 'password', username: 'alice', password: 'x' }), 400, 'unsupported_grant_type', /"password" is not supported/)
  })

  it('unauthorized_client for a grant the client is not registered for', async () => {
    expectError(await token(h, { grant_type: 'authorization_code', code: 'x' }), 400, 'unauthorized_client', /registered for client_credentials/)
    expectError(await token(h, { grant_type: 'refresh_token', refresh_token: 'x' }), 400, 'unauthorized_client', /authorization code and device grants only/)
    expectError(await token(h, { grant_type: 'client_credentials' }, { auth: 'post', client: WEB_APP }), 400, 'unauthorized_client', /authorization code grant/)
  })

  it('invalid_scope for a scope that does not exist or is not the client\'s', async () => {
    expectError(await token(h, { grant_type: 'client_credentials', scope: 'audit.log:read admin' }), 400, 'invalid_scope', /"admin" does not exist/)
    expectError(await token(h, { grant_type: 'client_credentials', scope: 'studio' }, { client: LIMITED }), 400, 'invalid_scope', /may not request the scope "studio"/)
  })

  it('invalid_grant for an unknown code and an unknown refresh token', async () => {
    expectError(await exchange(h, 'not-a-code'), 400, 'invalid_grant', /not valid/)
    expectError(await token(h, { grant_type: 'refresh_token', refresh_token: 'nope' }, { auth: 'post', client: WEB_APP }), 400, 'invalid_grant', /not valid/)
  })

  it('answers 405 for GET on the token endpoint', async () => {
    const response = await h.fetch('/oauth2/token')
    expect(response.status).toBe(405)
    expect(response.headers.get('allow')).toContain('POST')
  })

  it('answers 405 with Allow for PATCH on the token endpoint, though no route takes PATCH', async () => {
    const response = await h.fetch('/oauth2/token', { method: 'PATCH' })
    expect(response.status).toBe(405)
    expect(response.headers.get('allow')).toBe('POST')
  })
})

contract('oauth: a replayed code or refresh token revokes what it issued', { tls: true, team: true }, (h) => {
  const api = async (accessToken: unknown): Promise<Response> => await h.fetch(VERSIONS(), { headers: { authorization: `Bearer ${String(accessToken)}` } })
  const refresh = async (refreshToken: unknown) =>
    await token(h, { grant_type: 'refresh_token', refresh_token: String(refreshToken) }, { auth: 'post', client: WEB_APP })

  it('a reused code: invalid_grant, and the access and refresh tokens issued from it (and from its refreshes) stop working', async () => {
    const code = await getCode(h)
    const first = await exchange(h, code)
    expect(first.status).toBe(200)
    const renewed = await refresh(first.body.refresh_token)
    expect(renewed.status).toBe(200)
    expect((await api(first.body.access_token)).status).toBe(200)
    expect((await api(renewed.body.access_token)).status).toBe(200)

    const replay = await exchange(h, code)
    expect([replay.status, replay.body.error]).toEqual([400, 'invalid_grant'])
    expect(String(replay.body.error_description)).toMatch(/tokens issued from it are revoked/)

    for (const accessToken of [first.body.access_token, renewed.body.access_token]) {
      const refused = await api(accessToken)
      expect(refused.status).toBe(401)
      expect(refused.headers.get('www-authenticate')).toMatch(/^Bearer error="invalid_token"/)
      expect(refused.headers.get('x-svc-mock-reason')).toMatch(/revoked: the authorization code it was issued from was used twice/)
    }
    const refreshAfter = await refresh(renewed.body.refresh_token)
    expect([refreshAfter.status, refreshAfter.body.error]).toEqual([400, 'invalid_grant'])
    expect(String(refreshAfter.body.error_description)).toMatch(/code it was issued from was used twice/)
  })

  it('a reused refresh token: invalid_grant, and the newest refresh token of the family is revoked too; another grant is untouched', async () => {
    const first = await exchange(h, await getCode(h))
    const other = await exchange(h, await getCode(h, { state: 's-2' }))
    const second = await refresh(first.body.refresh_token)
    expect(second.status).toBe(200)
    const replay = await refresh(first.body.refresh_token)
    expect([replay.status, replay.body.error]).toEqual([400, 'invalid_grant'])
    const newest = await refresh(second.body.refresh_token)
    expect([newest.status, newest.body.error]).toEqual([400, 'invalid_grant'])
    expect(String(newest.body.error_description)).toMatch(/an earlier refresh token of this grant was used twice/)
    expect((await refresh(other.body.refresh_token)).status).toBe(200)
  })
})

contract(
  'oauth: secrets in the query string never count (RFC 6749 section 2.3.1)',
  { tls: true, team: true },
  (h) => {
    /** A token request with some parameters in the query string and the rest in a urlencoded body. */
    const split = async (query: Record<string, string>, body: Record<string, string>, headers: Record<string, string> = {}): Promise<{ status: number; body: Record<string, unknown>; headers: Headers }> => {
      const response = await h.fetch(`/oauth2/token?${new URLSearchParams(query).toString()}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
        body: new URLSearchParams(body).toString(),
      })
      return { status: response.status, body: (await response.json()) as Record<string, unknown>, headers: response.headers }
    }

    it('a post client whose client_secret is only in the query string gets invalid_client (401), without a Basic challenge', async () => {
      const response = await h.fetch('/oauth2/token?grant_type=client_credentials&client_id=ci-post-client&client_secret=ci-post-secret', { method: 'POST' })
      expect(response.status).toBe(401)
      const body = (await response.json()) as Record<string, unknown>
      expect(body.error).toBe('invalid_client')
      expect(body.error_description).toMatch(/query string/)
      expect(response.headers.get('www-authenticate')).toBeNull()
    })

    it('grant_type, scope, client_id, redirect_uri and state may come in the query string, the secrets in the body', async () => {
      const post = await split({ grant_type: 'client_credentials', scope: 'studio', client_id: CI_POST.id }, { client_secret: CI_POST.secret })
      expect([post.status, post.body.scope]).toEqual([200, 'studio'])
      const code = await getCode(h)
      const exchanged = await split({ grant_type: 'authorization_code', client_id: WEB_APP.id, redirect_uri: 'http://127.0.0.1:8765/callback', state: 's-1' }, { code, client_secret: WEB_APP.secret })
      expect(exchanged.status).toBe(200)
    })

    it('a code, refresh_token or code_verifier in the query string is ignored, and a code sent there is not used up', async () => {
      const code = await getCode(h)
      const codeInQuery = await split({ code }, { grant_type: 'authorization_code', redirect_uri: 'http://127.0.0.1:8765/callback', client_id: WEB_APP.id, client_secret: WEB_APP.secret })
      expect([codeInQuery.status, codeInQuery.body.error]).toEqual([400, 'invalid_request'])
      expect(codeInQuery.body.error_description).toMatch(/"code" is missing.*query string/)
      expect((await exchange(h, code)).status).toBe(200)

      const refreshToken = String((await exchange(h, await getCode(h))).body.refresh_token)
      const refreshInQuery = await split({ refresh_token: refreshToken }, { grant_type: 'refresh_token', client_id: WEB_APP.id, client_secret: WEB_APP.secret })
      expect([refreshInQuery.status, refreshInQuery.body.error]).toEqual([400, 'invalid_request'])
      expect((await token(h, { grant_type: 'refresh_token', refresh_token: refreshToken }, { auth: 'post', client: WEB_APP })).status).toBe(200)

      const pkceCode = await getCode(h, { code_challenge: s256(VERIFIER), code_challenge_method: 'S256' })
      const verifierInQuery = await split({ code_verifier: VERIFIER }, { grant_type: 'authorization_code', code: pkceCode, redirect_uri: 'http://127.0.0.1:8765/callback', client_id: WEB_APP.id, client_secret: WEB_APP.secret })
      expect([verifierInQuery.status, verifierInQuery.body.error]).toEqual([400, 'invalid_grant'])
      expect(verifierInQuery.body.error_description).toMatch(/"code_verifier" is missing/)
    })

    it('a device_code in the query string is ignored', async () => {
      const issued = await token(h, { client_id: 'content-cli', scope: 'studio' }, { auth: 'none', path: '/oauth2/device_authorization' })
      const polled = await split({ device_code: String(issued.body.device_code) }, { grant_type: 'urn:ietf:params:oauth:grant-type:device_code', client_id: 'content-cli' })
      expect([polled.status, polled.body.error]).toEqual([400, 'invalid_request'])
      expect(polled.body.error_description).toMatch(/"device_code" is missing/)
    })

    it('a client_secret in the query string beside Basic does not count, so the client does not authenticate twice', async () => {
      const answer = await split({ client_secret: 'anything' }, { grant_type: 'client_credentials' }, { authorization: basic(CI.id, CI.secret) })
      expect(answer.status).toBe(200)
    })
  },
  { clock: 'manual' },
)
