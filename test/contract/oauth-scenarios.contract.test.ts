/**
 * The API-access scenarios, each switched on the way QA does (control plane, or one request's
 * header) and checked for what the caller sees. Most change settings, so the real token endpoint,
 * authorize step and gate produce the answer. Both transports, manual clock.
 */
import { expect, it } from 'vitest'
import { APP_KEY, VERSIONS, contract } from '../support/harness.js'
import { CALLBACK, WEB_APP, authorizeStep, token } from '../support/oauth.js'

contract(
  'oauth: scenarios',
  { tls: true, team: true },
  (h) => {
    const on = async (name: string, body: unknown = {}): Promise<void> => {
      expect((await h.control('POST', `/scenarios/${name}`, body)).status).toBe(200)
    }
    const ciToken = async (): Promise<string> => String((await token(h, { grant_type: 'client_credentials' })).body.access_token)
    const api = (authorization: string): Promise<Response> => h.fetch(VERSIONS(), { headers: { authorization } })

    it('lists every API-access scenario with a description', async () => {
      const { body } = await h.control<Array<{ name: string; description: string }>>('GET', '/scenarios')
      const names = ['token-invalid-client', 'token-server-error', 'token-slow', 'token-short-lived', 'tokens-expired', 'consent-denied', 'static-keys-rejected', 'insufficient-permissions', 'rate-limited']
      for (const name of names) expect(body.find((s) => s.name === name)?.description.length).toBeGreaterThan(80)
    })

    it('token-invalid-client: 401 invalid_client with WWW-Authenticate, then normal once it is used up', async () => {
      await on('token-invalid-client', { times: 1 })
      const refused = await token(h, { grant_type: 'client_credentials' })
      expect(refused.status).toBe(401)
      expect(refused.body).toEqual({ error: 'invalid_client', error_description: 'Client authentication failed for client "ci-client".' })
      expect(refused.headers.get('www-authenticate')).toMatch(/^Basic /)
      expect((await token(h, { grant_type: 'client_credentials' })).status).toBe(200)
    })

    it('token-server-error: 500 server_error with Cache-Control: no-store', async () => {
      await on('token-server-error')
      const answer = await token(h, { grant_type: 'client_credentials' })
      expect(answer.status).toBe(500)
      expect(answer.body.error).toBe('server_error')
      expect(answer.headers.get('cache-control')).toBe('no-store')
      expect((await api(APP_KEY.authorization)).status).toBe(200)
    })

    it('token-slow: the answer comes after ms milliseconds of emulator time (per-request header)', async () => {
      let done = false
      const pending = token(h, { grant_type: 'client_credentials' }, { headers: { 'x-svc-mock-scenario': 'token-slow:ms=3000' } }).then((answer) => {
        done = true
        return answer
      })
      await h.emu.clock.waitForParked(1)
      await h.emu.clock.advance(2_999)
      expect(done).toBe(false)
      await h.emu.clock.advance(1)
      const answer = await pending
      expect(answer.status).toBe(200)
    })

    it('token-short-lived: expires_in and exp shrink, and the API refuses the token once it passes', async () => {
      await on('token-short-lived', { params: { seconds: 10 } })
      const issued = await token(h, { grant_type: 'client_credentials' })
      expect(issued.body.expires_in).toBe(10)
      const authorization = `Bearer ${String(issued.body.access_token)}`
      expect((await api(authorization)).status).toBe(200)
      await h.emu.clock.advance(10_000)
      const refused = await api(authorization)
      expect(refused.status).toBe(401)
      expect(refused.headers.get('x-svc-mock-reason')).toMatch(/expired/)
    })

    it('tokens-expired: every access token is refused as expired; times=1 lets the retry through', async () => {
      const authorization = `Bearer ${await ciToken()}`
      await on('tokens-expired', { times: 1 })
      const refused = await api(authorization)
      expect(refused.status).toBe(401)
      expect(refused.headers.get('www-authenticate')).toMatch(/error="invalid_token"/)
      expect(refused.headers.get('x-svc-mock-reason')).toMatch(/expired/)
      expect((await api(authorization)).status).toBe(200)
    })

    it('tokens-expired leaves static keys alone', async () => {
      await on('tokens-expired')
      expect((await api(APP_KEY.authorization)).status).toBe(200)
    })

    it('consent-denied: the authorize step redirects with error=access_denied and the state', async () => {
      await on('consent-denied')
      const response = await authorizeStep(h, { response_type: 'code', client_id: WEB_APP.id, redirect_uri: CALLBACK, state: 'abc' })
      expect(response.status).toBe(302)
      const location = new URL(response.headers.get('location') ?? '')
      expect(`${location.origin}${location.pathname}`).toBe(CALLBACK)
      expect(location.searchParams.get('error')).toBe('access_denied')
      expect(location.searchParams.get('state')).toBe('abc')
      expect(location.searchParams.get('code')).toBeNull()
    })

    it('static-keys-rejected: static keys get 401 "no longer supported"; OAuth tokens still work', async () => {
      await on('static-keys-rejected')
      const refused = await api(APP_KEY.authorization)
      expect(refused.status).toBe(401)
      expect(((await refused.json()) as { data: Array<{ error: string }> }).data[0]?.error).toBe('Static API keys are no longer supported. Migrate to OAuth 2.0.')
      expect((await api('Bearer svcmock-user-key-alice')).status).toBe(401)
      expect((await api(`Bearer ${await ciToken()}`)).status).toBe(200)
    })

    it('insufficient-permissions: valid credentials get 403 on the API', async () => {
      await on('insufficient-permissions')
      const refused = await api(`Bearer ${await ciToken()}`)
      expect(refused.status).toBe(403)
      expect(refused.headers.get('x-svc-mock-reason')).toMatch(/lacks the permission/)
      expect((await api(APP_KEY.authorization)).status).toBe(403)
    })

    it('rate-limited (default): every call to the versions operation gets 429 with the rate-limit headers, in the operation\'s error body', async () => {
      await on('rate-limited')
      const refused = await api(APP_KEY.authorization)
      expect(refused.status).toBe(429)
      expect(refused.headers.get('x-ratelimit-limit')).toBe('0')
      expect(refused.headers.get('x-ratelimit-remaining')).toBe('0')
      expect(refused.headers.get('x-ratelimit-reset')).toBe('60')
      expect(await refused.json()).toEqual({ data: [{ error: 'Rate limit exceeded: 0 calls per 60 s. Retry in 60 s.' }], message: 'An error occurred.', output: 'Volatile', type: 'Error' })
    })

    it('rate-limited with limit=2: a real counter on the emulator clock, reset after the window', async () => {
      await on('rate-limited', { params: { limit: 2, windowSeconds: 60 } })
      const first = await api(APP_KEY.authorization)
      expect([first.status, first.headers.get('x-ratelimit-limit'), first.headers.get('x-ratelimit-remaining')]).toEqual([200, '2', '1'])
      expect((await api(APP_KEY.authorization)).headers.get('x-ratelimit-remaining')).toBe('0')
      await h.emu.clock.advance(15_000)
      const third = await api(APP_KEY.authorization)
      expect(third.status).toBe(429)
      expect(third.headers.get('x-ratelimit-reset')).toBe('45')
      expect((await api(`Bearer ${await ciToken()}`)).status).toBe(200)
      await h.emu.clock.advance(45_000)
      expect((await api(APP_KEY.authorization)).status).toBe(200)
    })
  },
  { clock: 'manual' },
)
