/**
 * The device authorization grant (RFC 8628) with the public client the platform's CLI uses, on
 * every way in: the device authorization answer, approval at once by default, the consent page
 * mode (the verification page, the control plane), each RFC answer to a poll, refresh; public
 * clients; the who-am-I probe `GET /api/cloud/team`; RFC 8414 metadata.
 */
import { expect, it } from 'vitest'
import { ALICE_KEY, APP_KEY, VERSIONS, contract } from '../support/harness.js'
import { CI, token } from '../support/oauth.js'

const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code'
type Json = Record<string, unknown>

contract(
  'oauth: the device grant, consent auto (the default)',
  { tls: true, team: true },
  (h) => {
    const authorize = (params: Record<string, string> = {}) =>
      token(h, { client_id: 'content-cli', scope: 'studio package-manager', ...params }, { auth: 'none', path: '/oauth2/device_authorization' })
    const poll = (deviceCode: unknown, clientId = 'content-cli') => token(h, { grant_type: DEVICE_GRANT, device_code: String(deviceCode), client_id: clientId }, { auth: 'none' })

    it('answers the device authorization with RFC 8628 fields, no-store', async () => {
      const answer = await authorize()
      expect(answer.status).toBe(200)
      expect(answer.headers.get('cache-control')).toBe('no-store')
      expect(answer.body).toEqual({
        device_code: expect.any(String),
        user_code: expect.stringMatching(/^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/),
        verification_uri: `${h.emu.urls.auth}/oauth2/device_verification`,
        verification_uri_complete: `${h.emu.urls.auth}/oauth2/device_verification?user_code=${String(answer.body.user_code)}`,
        expires_in: 300,
        interval: 5,
      })
      expect(JSON.stringify(h.emu.journal.list({ route: 'auth.deviceAuthorization' })[0]?.response.body)).not.toContain(String(answer.body.device_code))
    })

    it('approves at once as alice: the first poll gets an access token (with alice\'s permissions) and a refresh token, once', async () => {
      const issued = await authorize()
      const tokens = await poll(issued.body.device_code)
      expect(tokens.status).toBe(200)
      expect(tokens.body).toMatchObject({ token_type: 'Bearer', scope: 'studio package-manager', expires_in: 899, refresh_token: expect.any(String) })
      const api = await h.fetch(VERSIONS(), { headers: { authorization: `Bearer ${String(tokens.body.access_token)}` } })
      expect(api.status).toBe(200)
      expect(h.emu.journal.list({ route: 'versions.list' })[0]?.identity).toBe('alice via OAuth client content-cli')
      const again = await poll(issued.body.device_code)
      expect([again.status, again.body.error]).toEqual([400, 'invalid_grant'])
      expect(h.emu.oauth.consents.list('alice').map((c) => c.clientId)).toContain('content-cli')
    })

    it('refreshes with the public client (client_id alone), rotating the refresh token', async () => {
      const tokens = await poll((await authorize()).body.device_code)
      const refreshed = await token(h, { grant_type: 'refresh_token', refresh_token: String(tokens.body.refresh_token), client_id: 'content-cli' }, { auth: 'none' })
      expect(refreshed.status).toBe(200)
      expect(refreshed.body.refresh_token).not.toBe(tokens.body.refresh_token)
    })

    it('an expired device code answers expired_token once its 300 s have passed on the emulator clock', async () => {
      h.emu.scenarios.use('device-pending', { params: { polls: 5 } })
      const issued = await authorize()
      h.emu.scenarios.off('device-pending')
      expect((await poll(issued.body.device_code)).body.error).toBe('authorization_pending')
      await h.emu.clock.advance(300_000)
      const expired = await poll(issued.body.device_code)
      expect([expired.status, expired.body.error]).toEqual([400, 'expired_token'])
    })

    it('refuses what RFC 6749 and 8628 refuse: a secret from a public client, a client not registered for the grant, an unknown scope, an unknown device code', async () => {
      const withSecret = await token(h, { client_id: 'content-cli', client_secret: 'x' }, { auth: 'none', path: '/oauth2/device_authorization' })
      expect([withSecret.status, withSecret.body.error]).toEqual([401, 'invalid_client'])
      expect(String(withSecret.body.error_description)).toMatch(/public client: it has no secret/)
      const confidential = await token(h, { scope: 'studio' }, { client: CI, path: '/oauth2/device_authorization' })
      expect([confidential.status, confidential.body.error]).toEqual([400, 'unauthorized_client'])
      expect((await authorize({ scope: 'admin' })).body.error).toBe('invalid_scope')
      expect((await poll('no-such-code')).body.error).toBe('invalid_grant')
    })

    it('serves the same metadata at the RFC 8414 address, advertising the device endpoint, the grant and public clients', async () => {
      const oidc = (await (await h.fetch('/.well-known/openid-configuration')).json()) as Json
      const rfc8414 = (await (await h.fetch('/.well-known/oauth-authorization-server')).json()) as Json
      expect(rfc8414).toEqual(oidc)
      expect(oidc).toMatchObject({
        device_authorization_endpoint: `${h.emu.urls.auth}/oauth2/device_authorization`,
        grant_types_supported: expect.arrayContaining([DEVICE_GRANT, 'refresh_token']),
        token_endpoint_auth_methods_supported: expect.arrayContaining(['none']),
        scopes_supported: expect.arrayContaining(['package-manager']),
      })
    })
  },
  { clock: 'manual' },
)

contract(
  'oauth: the device grant with the consent page on',
  { tls: true, team: true },
  (h) => {
    const issue = async (): Promise<Json> => (await token(h, { client_id: 'content-cli', scope: 'studio' }, { auth: 'none', path: '/oauth2/device_authorization' })).body
    const poll = (deviceCode: unknown) => token(h, { grant_type: DEVICE_GRANT, device_code: String(deviceCode), client_id: 'content-cli' }, { auth: 'none' })

    it('stays pending until a person allows it on the verification page; the page shows the code, the client and the scopes', async () => {
      const issued = await issue()
      expect((await poll(issued.device_code)).body.error).toBe('authorization_pending')
      expect(h.emu.state().deviceCodes).toEqual([expect.objectContaining({ userCode: issued.user_code, clientId: 'content-cli', status: 'pending' })])
      const page = await h.fetch(String(issued.verification_uri_complete))
      const html = await page.text()
      expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8')
      expect(html).toContain(`<strong id="user-code">${String(issued.user_code)}</strong>`)
      expect(html).toContain('Content CLI (device code, public)')
      expect(html).toContain('<code>studio</code>')
      const decided = await h.fetch('/oauth2/device_verification', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ user_code: String(issued.user_code).toLowerCase().replace('-', ' '), login_hint: 'alice', decision: 'allow' }).toString(),
      })
      expect(await decided.text()).toContain('Device connected')
      expect((await poll(issued.device_code)).status).toBe(200)
    })

    it('a denial on the page answers the next poll with access_denied', async () => {
      const issued = await issue()
      await h.fetch('/oauth2/device_verification', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ user_code: String(issued.user_code), decision: 'deny' }).toString(),
      })
      const denied = await poll(issued.device_code)
      expect([denied.status, denied.body.error]).toEqual([400, 'access_denied'])
    })

    it('the control plane lists pending codes (never the device code) and approves one as another user; deciding twice is 409, an unknown code 404', async () => {
      const issued = await issue()
      const listed = await h.control<Json[]>('GET', '/device-codes')
      expect(listed.body).toEqual([expect.objectContaining({ userCode: issued.user_code, status: 'pending', clientName: 'Content CLI (device code, public)' })])
      expect(JSON.stringify(listed.body)).not.toContain(String(issued.device_code))
      const approved = await h.control<Json>('POST', `/device-codes/${String(issued.user_code)}/approve`, { userId: 'bob' })
      expect(approved.body).toMatchObject({ status: 'approved', userId: 'bob' })
      expect((await h.control('POST', `/device-codes/${String(issued.user_code)}/deny`)).status).toBe(409)
      expect((await h.control('POST', '/device-codes/BCDF-GHJK/approve')).status).toBe(404)
      const tokens = await poll(issued.device_code)
      const api = await h.fetch(VERSIONS(), { headers: { authorization: `Bearer ${String(tokens.body.access_token)}` } })
      expect(api.status).toBe(403)
    })

    it('the verification page without a code asks for one; a wrong code is an error page', async () => {
      const form = await (await h.fetch('/oauth2/device_verification')).text()
      expect(form).toContain('<input id="user_code" name="user_code"')
      const wrong = await h.fetch('/oauth2/device_verification?user_code=ZZZZ-ZZZZ')
      expect(wrong.status).toBe(400)
      expect(await wrong.text()).toContain('not valid or has expired')
    })
  },
  { clock: 'manual', consent: 'page' },
)

contract('the who-am-I probe GET /api/cloud/team', (h) => {
  it('answers every valid credential with the team: application key as AppKey, user API key as Bearer, an OAuth token', async () => {
    const accessToken = String((await token(h, { grant_type: 'client_credentials' })).body.access_token)
    for (const headers of [APP_KEY, ALICE_KEY, { authorization: `Bearer ${accessToken}` }]) {
      const response = await h.fetch('/api/cloud/team', { headers })
      expect(response.status).toBe(200)
      expect(await response.json()).toEqual({ id: 'acme', name: 'Acme', domain: new URL(h.emu.urls.base).hostname })
    }
  })

  it('refuses an application key sent as Bearer, and no credential, with the gate\'s 401 and a challenge', async () => {
    for (const headers of [{ authorization: 'Bearer svcmock-app-key' }, {}] as Array<Record<string, string>>) {
      const response = await h.fetch('/api/cloud/team', { headers })
      expect(response.status).toBe(401)
      expect(await response.json()).toEqual({ error: 'Unauthorized' })
      expect(response.headers.get('www-authenticate')).toBe('Bearer')
    }
  })
})
