/**
 * The authorize step and what follows it: redirect URI checks (exact, loopback on any port, an
 * error page and never a redirect on a mismatch), single-use codes bound to client, redirect URI
 * and PKCE, the consent page, refresh token rotation and consent revocation, on both transports.
 */
import { expect, it } from 'vitest'
import { contract } from '../support/harness.js'
import { CALLBACK, VERIFIER, WEB_APP, authorizeStep, exchange, getCode, s256, token } from '../support/oauth.js'

const base = { response_type: 'code', client_id: WEB_APP.id, redirect_uri: CALLBACK, state: 'st-42' }
const query = (response: Response): URLSearchParams => new URL(response.headers.get('location') ?? 'http://none/').searchParams

contract(
  'oauth: authorize and redirect URIs',
  { tls: true, team: true },
  (h) => {
    it('consents at once as the login_hint user (default alice) and redirects 302 with code and state', async () => {
      const response = await authorizeStep(h, base)
      expect(response.status).toBe(302)
      const location = new URL(response.headers.get('location') ?? '')
      expect(`${location.origin}${location.pathname}`).toBe(CALLBACK)
      expect(location.searchParams.get('state')).toBe('st-42')
      expect(location.searchParams.get('code')).toMatch(/^[A-Za-z0-9]{32}$/)
      const consents = await h.control<Array<{ clientId: string }>>('GET', '/users/alice/consents')
      expect(consents.body.map((c) => c.clientId)).toEqual(['web-app'])
    })

    it('matches loopback redirect URIs on any port, and localhost too', async () => {
      for (const uri of ['http://127.0.0.1/callback', 'http://127.0.0.1:1/callback', 'http://127.0.0.1:65000/callback', 'http://localhost:3000/callback']) {
        const response = await authorizeStep(h, { ...base, redirect_uri: uri })
        expect(response.status, uri).toBe(302)
        expect(response.headers.get('location')?.startsWith(`${uri}?`)).toBe(true)
      }
    })

    it.each([
      ['another path', 'http://127.0.0.1:8765/other'],
      ['another host', 'http://evil.example/callback'],
      ['https instead of http', 'https://127.0.0.1/callback'],
      ['an extra query', 'http://127.0.0.1/callback?x=1'],
      ['a trailing slash', 'http://127.0.0.1/callback/'],
    ])('shows an error page and never redirects for a redirect URI with %s', async (_what, uri) => {
      const response = await authorizeStep(h, { ...base, redirect_uri: uri })
      expect(response.status).toBe(400)
      expect(response.headers.get('location')).toBeNull()
      expect(response.headers.get('content-type')).toMatch(/^text\/html/)
      expect(await response.text()).toContain('is not registered for this client')
    })

    it('shows an error page for a missing or unknown client_id', async () => {
      const missing = await authorizeStep(h, { response_type: 'code', redirect_uri: CALLBACK })
      expect(missing.status).toBe(400)
      expect(await missing.text()).toContain('has no client_id')
      const unknown = await authorizeStep(h, { ...base, client_id: 'ghost' })
      expect(unknown.status).toBe(400)
      expect(unknown.headers.get('location')).toBeNull()
      expect(await unknown.text()).toContain('No OAuth client has the ID &#34;ghost&#34;')
    })

    it('checks the client and redirect URI before anything else', async () => {
      const response = await authorizeStep(h, { response_type: 'token', client_id: WEB_APP.id, redirect_uri: 'http://evil.example/cb' })
      expect(response.status).toBe(400)
      expect(response.headers.get('location')).toBeNull()
    })

    it.each([
      [{ response_type: 'token' }, 'unsupported_response_type'],
      [{ response_type: '' }, 'invalid_request'],
      [{ scope: 'audit.log:read nonsense' }, 'invalid_scope'],
      [{ code_challenge: 'short' }, 'invalid_request'],
      [{ code_challenge: s256(VERIFIER), code_challenge_method: 'S512' }, 'invalid_request'],
    ])('redirects with error and state for %o', async (params, error) => {
      const response = await authorizeStep(h, { ...base, ...params })
      expect(response.status).toBe(302)
      expect(query(response).get('error')).toBe(error)
      expect(query(response).get('error_description')).toBeTruthy()
      expect(query(response).get('state')).toBe('st-42')
      expect(query(response).get('code')).toBeNull()
    })

    it('redirects with unauthorized_client for a client credentials client with a redirect URI', async () => {
      const created = await h.control<{ clientId: string }>('POST', '/oauth-clients', {
        name: 'machine',
        grantType: 'Client Credentials',
        authMethod: 'Client secret basic',
        redirectUris: [CALLBACK],
      })
      const response = await authorizeStep(h, { ...base, client_id: created.body.clientId })
      expect(query(response).get('error')).toBe('unauthorized_client')
    })

    it('shows an error page for a login_hint that names no user', async () => {
      const response = await authorizeStep(h, { ...base, login_hint: 'mallory' })
      expect(response.status).toBe(400)
      expect(await response.text()).toContain('no user &#34;mallory&#34;')
    })
  },
  { clock: 'manual' },
)

contract(
  'oauth: authorization codes',
  { tls: true, team: true },
  (h) => {
    it('a code works once; a second use fails with invalid_grant', async () => {
      const code = await getCode(h)
      expect((await exchange(h, code)).status).toBe(200)
      const again = await exchange(h, code)
      expect(again.status).toBe(400)
      expect(again.body).toMatchObject({ error: 'invalid_grant' })
      expect(again.body.error_description).toMatch(/already used/)
    })

    it('a code expires 60 s after it was issued, on the emulator clock', async () => {
      const fresh = await getCode(h)
      await h.emu.clock.advance(59_999)
      expect((await exchange(h, fresh)).status).toBe(200)
      const stale = await getCode(h)
      await h.emu.clock.advance(60_000)
      const answer = await exchange(h, stale)
      expect(answer.body).toMatchObject({ error: 'invalid_grant' })
      expect(answer.body.error_description).toMatch(/expired/)
    })

    it('a code is bound to its client', async () => {
      const other = await h.control<{ clientId: string; clientSecret: string }>('POST', '/oauth-clients', {
        name: 'other app',
        grantType: 'authorization_code',
        authMethod: 'client_secret_post',
        redirectUris: [CALLBACK],
      })
      const code = await getCode(h)
      const answer = await token(h, { grant_type: 'authorization_code', code, redirect_uri: CALLBACK }, { auth: 'post', client: { id: other.body.clientId, secret: other.body.clientSecret } })
      expect(answer.body).toMatchObject({ error: 'invalid_grant', error_description: 'The authorization code was issued to another client.' })
    })

    it('a code is bound to the redirect URI of the authorization request', async () => {
      const code = await getCode(h)
      const wrong = await exchange(h, code, { redirect_uri: 'http://127.0.0.1:9999/callback' })
      expect(wrong.body).toMatchObject({ error: 'invalid_grant' })
      const missing = await token(h, { grant_type: 'authorization_code', code }, { auth: 'post', client: WEB_APP })
      expect(missing.body).toMatchObject({ error: 'invalid_request' })
      expect((await exchange(h, code)).status).toBe(200)
    })

    it('PKCE S256: the right verifier exchanges the code, a wrong or missing one does not', async () => {
      const code = await getCode(h, { code_challenge: s256(VERIFIER), code_challenge_method: 'S256' })
      expect((await exchange(h, code)).body).toMatchObject({ error: 'invalid_grant', error_description: expect.stringMatching(/code_verifier" is missing/) })
      expect((await exchange(h, code, { code_verifier: `${VERIFIER}x` })).body).toMatchObject({ error: 'invalid_grant' })
      expect((await exchange(h, code, { code_verifier: VERIFIER })).status).toBe(200)
    })

    it('PKCE plain: the verifier equals the challenge', async () => {
      const code = await getCode(h, { code_challenge: VERIFIER, code_challenge_method: 'plain' })
      expect((await exchange(h, code, { code_verifier: s256(VERIFIER) })).status).toBe(400)
      expect((await exchange(h, code, { code_verifier: VERIFIER })).status).toBe(200)
    })

    it('a code_verifier without a challenge in the authorization request is refused', async () => {
      const code = await getCode(h)
      expect((await exchange(h, code, { code_verifier: VERIFIER })).body).toMatchObject({ error: 'invalid_grant' })
    })

    it('a client that requires PKCE gets invalid_request without a code_challenge', async () => {
      await h.control('POST', '/oauth-clients', {
        clientId: 'spa',
        name: 'SPA',
        grantType: 'authorization_code',
        authMethod: 'client_secret_post',
        redirectUris: [CALLBACK],
        pkce: 'required',
      })
      const response = await authorizeStep(h, { ...base, client_id: 'spa' })
      expect(query(response).get('error')).toBe('invalid_request')
      expect(query(response).get('error_description')).toMatch(/requires PKCE/)
    })
  },
  { clock: 'manual' },
)

contract(
  'oauth: refresh tokens and consents',
  { tls: true, team: true },
  (h) => {
    it('rotates the refresh token on every use; the old one then fails with invalid_grant, and revokes the family (RFC 9700)', async () => {
      const first = await exchange(h, await getCode(h))
      const refresh = (value: unknown): ReturnType<typeof token> =>
        token(h, { grant_type: 'refresh_token', refresh_token: String(value) }, { auth: 'post', client: WEB_APP })
      const second = await refresh(first.body.refresh_token)
      expect(second.status).toBe(200)
      expect(second.body.refresh_token).not.toBe(first.body.refresh_token)
      const reused = await refresh(first.body.refresh_token)
      expect(reused.body).toMatchObject({ error: 'invalid_grant', error_description: expect.stringMatching(/already used/) })
      expect((await refresh(second.body.refresh_token)).body).toMatchObject({ error: 'invalid_grant' })
    })

    it('a refresh may narrow the scopes but not widen them', async () => {
      const issued = await exchange(h, await getCode(h, { scope: 'studio audit.log:read' }))
      const wider = await token(h, { grant_type: 'refresh_token', refresh_token: String(issued.body.refresh_token), scope: 'studio machine-learning' }, { auth: 'post', client: WEB_APP })
      expect(wider.body).toMatchObject({ error: 'invalid_scope' })
    })

    it('a refresh token expires after 30 days on the emulator clock', async () => {
      const issued = await exchange(h, await getCode(h))
      await h.emu.clock.advance(30 * 24 * 3600 * 1000)
      const answer = await token(h, { grant_type: 'refresh_token', refresh_token: String(issued.body.refresh_token) }, { auth: 'post', client: WEB_APP })
      expect(answer.body).toMatchObject({ error: 'invalid_grant', error_description: expect.stringMatching(/expired/) })
    })

    it('revoking the consent makes the refresh tokens fail, even after a new consent', async () => {
      const issued = await exchange(h, await getCode(h))
      const listed = await h.control<Array<{ clientId: string; clientName: string; scopes: string[] }>>('GET', '/users/alice/consents')
      expect(listed.body).toEqual([{ clientId: 'web-app', clientName: 'Web app (authorization code)', scopes: expect.arrayContaining(['studio']), grantedAt: h.emu.clock.now().toISOString() }])
      expect((await h.control('DELETE', '/users/alice/consents/web-app')).status).toBe(204)
      expect((await h.control('GET', '/users/alice/consents')).body).toEqual([])
      await getCode(h)
      const answer = await token(h, { grant_type: 'refresh_token', refresh_token: String(issued.body.refresh_token) }, { auth: 'post', client: WEB_APP })
      expect(answer.body).toMatchObject({ error: 'invalid_grant', error_description: expect.stringMatching(/revoked the consent/) })
      expect((await h.control('DELETE', '/users/alice/consents/web-app')).status).toBe(204)
      expect((await h.control('DELETE', '/users/alice/consents/web-app')).status).toBe(404)
      expect((await h.control('GET', '/users/nobody/consents')).status).toBe(404)
    })

    it('revoking the consent between authorize and exchange voids the code', async () => {
      const code = await getCode(h)
      h.emu.oauth.consents.revoke('alice', 'web-app')
      expect((await exchange(h, code)).body).toMatchObject({ error: 'invalid_grant' })
    })
  },
  { clock: 'manual' },
)

contract(
  'oauth: the consent page',
  { tls: true, team: true },
  (h) => {
    const formOf = async (response: Response): Promise<{ action: string; fields: Record<string, string> }> => {
      const page = await response.text()
      const action = /<form method="post" action="([^"]+)"/.exec(page)?.[1] ?? ''
      const fields: Record<string, string> = {}
      for (const m of page.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) fields[m[1] ?? ''] = (m[2] ?? '').replace(/&#(\d+);/g, (_x, n: string) => String.fromCharCode(Number(n)))
      return { action: action.replace(/&#(\d+);/g, (_x, n: string) => String.fromCharCode(Number(n))), fields }
    }
    const submit = async (form: { action: string; fields: Record<string, string> }, decision: string): Promise<Response> =>
      await h.fetch(new URL(form.action).pathname, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ ...form.fields, decision }).toString(),
        redirect: 'manual',
      })

    it('shows the client name, the user and the scopes with Allow and Deny', async () => {
      const response = await authorizeStep(h, { ...base, scope: 'studio audit.log:read', login_hint: 'bob' })
      expect(response.status).toBe(200)
      expect(response.headers.get('content-type')).toMatch(/^text\/html/)
      const page = await response.text()
      expect(page).toContain('Allow Web app (authorization code) to access your account?')
      expect(page).toContain('Bob Example')
      expect(page).toContain('<code>studio</code>: Access the studio')
      expect(page).toContain('<code>audit.log:read</code>: Read audit logs')
      expect(page).toMatch(/<button type="submit" name="decision" value="allow">Allow<\/button>/)
      expect(page).toMatch(/<button type="submit" name="decision" value="deny">Deny<\/button>/)
    })

    it('Allow posts back and redirects with a code that exchanges for tokens', async () => {
      const form = await formOf(await authorizeStep(h, { ...base, login_hint: 'bob' }))
      expect(form.action).toBe(`${h.emu.urls.auth}/oauth2/authorize`)
      const allowed = await submit(form, 'allow')
      expect(allowed.status).toBe(302)
      expect(query(allowed).get('state')).toBe('st-42')
      const code = query(allowed).get('code') ?? ''
      expect((await exchange(h, code)).status).toBe(200)
      expect(h.emu.oauth.consents.list('bob').map((c) => c.clientId)).toEqual(['web-app'])
    })

    it('Deny redirects with error=access_denied and the state, and records no consent', async () => {
      const denied = await submit(await formOf(await authorizeStep(h, base)), 'deny')
      expect(denied.status).toBe(302)
      expect(query(denied).get('error')).toBe('access_denied')
      expect(query(denied).get('state')).toBe('st-42')
      expect(query(denied).get('code')).toBeNull()
      expect(h.emu.oauth.consents.list('alice')).toEqual([])
    })

    it('does not ask again for scopes the user already allowed', async () => {
      await submit(await formOf(await authorizeStep(h, { ...base, scope: 'studio' })), 'allow')
      expect((await authorizeStep(h, { ...base, scope: 'studio' })).status).toBe(302)
      expect((await authorizeStep(h, { ...base, scope: 'studio machine-learning' })).status).toBe(200)
    })

    it('the posted form is checked like the request itself (never a redirect to an unregistered URI)', async () => {
      const form = await formOf(await authorizeStep(h, base))
      const tampered = await submit({ ...form, fields: { ...form.fields, redirect_uri: 'http://evil.example/cb' } }, 'allow')
      expect(tampered.status).toBe(400)
      expect(tampered.headers.get('location')).toBeNull()
    })
  },
  { clock: 'manual', consent: 'page' },
)

contract(
  'oauth: a client that asks for consent on a page',
  { tls: true, team: true },
  (h) => {
    it('shows the page for that client only', async () => {
      await h.emu.oauth.clients.create({ clientId: 'careful', name: 'Careful app', grantType: 'authorization_code', authMethod: 'client_secret_post', redirectUris: [CALLBACK], consent: 'page' })
      expect((await authorizeStep(h, { ...base, client_id: 'careful' })).status).toBe(200)
      expect((await authorizeStep(h, base)).status).toBe(302)
    })
  },
  { clock: 'manual' },
)
