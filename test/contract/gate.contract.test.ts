/**
 * The API access gate: credentials only in the Authorization header, Bearer and AppKey static
 * keys, the platform's 401/403 wire formats (rendered in the versions operation's own body), and
 * a challenge on every 401 (RFC 9110).
 */
import { expect, it } from 'vitest'
import { ALICE_KEY, APP_KEY, BOB_KEY, contract, VERSIONS } from '../support/harness.js'
import { basic } from '../support/oauth.js'

const MALFORMED = 'Invalid "Authorization" header format. Should start either with "Bearer " or "AppKey " (case insensitive).'

type ErrorBody = { data: Array<{ error: string }>; message: string; output: string; type: string }

contract('access gate on the versions operation', (h) => {
  const call = async (headers: Record<string, string>, query = ''): Promise<{ response: Response; body: ErrorBody & { count?: number } }> => {
    const response = await h.fetch(`${VERSIONS()}${query}`, { headers })
    return { response, body: (await response.json()) as ErrorBody & { count?: number } }
  }

  it('answers 401 with WWW-Authenticate: Bearer and type Unauthorized when there is no credential', async () => {
    const { response, body } = await call({})
    expect(response.status).toBe(401)
    expect(response.headers.get('www-authenticate')).toBe('Bearer')
    expect(body.type).toBe('Unauthorized')
    expect(body.message).toBe('An error occurred.')
    expect(body.output).toBe('Volatile')
  })

  it('answers 401 with the documented text for a header that is neither Bearer nor AppKey', async () => {
    for (const value of ['Basic c3ZjOm1vY2s=', 'Token svcmock-app-key', 'svcmock-app-key']) {
      const { response, body } = await call({ authorization: value })
      expect(response.status).toBe(401)
      expect(body.data).toEqual([{ error: MALFORMED }])
      expect(body.type).toBe('Unauthorized')
    }
  })

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

  it('accepts the application key with AppKey and the user API key with Bearer, marking both Deprecation: true', async () => {
    for (const headers of [APP_KEY, ALICE_KEY]) {
      const { response, body } = await call(headers)
      expect(response.status).toBe(200)
      expect(body.count).toBe(3)
      expect(response.headers.get('deprecation')).toBe('true')
    }
  })

  it('answers a 429 of the rate-limited scenario with the operation\'s error body and the rate-limit headers, like its 401 and 403', async () => {
    const { response, body } = await call({ ...APP_KEY, 'x-svc-mock-scenario': 'rate-limited' })
    expect(response.status).toBe(429)
    expect(body).toEqual({ data: [{ error: 'Rate limit exceeded: 0 calls per 60 s. Retry in 60 s.' }], message: 'An error occurred.', output: 'Volatile', type: 'Error' })
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8')
    expect([response.headers.get('x-ratelimit-limit'), response.headers.get('x-ratelimit-remaining'), response.headers.get('x-ratelimit-reset')]).toEqual(['0', '0', '60'])
  })

  it('reads the scheme case-insensitively', async () => {
    expect((await call({ authorization: 'appkey svcmock-app-key' })).response.status).toBe(200)
    expect((await call({ authorization: 'BEARER svcmock-user-key-alice' })).response.status).toBe(200)
  })

  it('answers 401 for an unknown key, and for a key sent with the other scheme', async () => {
    for (const value of ['AppKey not-a-real-key', 'Bearer not-a-real-token', 'AppKey svcmock-user-key-alice', 'Bearer svcmock-app-key']) {
      const { response, body } = await call({ authorization: value })
      expect(response.status, value).toBe(401)
      expect(response.headers.get('www-authenticate')).toBe('Bearer')
      expect(body.type).toBe('Unauthorized')
    }
  })

  it('ignores credentials in the URL', async () => {
    const { response } = await call({}, '?access_token=svcmock-user-key-alice&AppKey=svcmock-app-key&api_key=svcmock-app-key')
    expect(response.status).toBe(401)
  })

  it('answers 403 with type Unauthorized when the identity lacks the read permission on the storage', async () => {
    const { response, body } = await call(BOB_KEY)
    expect(response.status).toBe(403)
    expect(body.type).toBe('Unauthorized')
    expect(response.headers.get('x-svc-mock-reason')).toContain('read on storage/acme-collection/acme-tenant')
  })

  it('records who called in the journal without the secret', async () => {
    await call(APP_KEY)
    const [entry] = h.emu.journal.list({ route: 'versions.list', limit: 1 })
    expect(entry?.identity).toBe('application key default-app-key')
    expect(entry?.request.headers.authorization).toBe('AppKey [redacted]')
    expect(JSON.stringify(entry)).not.toContain('svcmock-app-key')
  })

  it('lets a key created on the control plane in, and refuses it once deleted (keys cannot be rotated)', async () => {
    const created = await h.control<{ key: string; id: string; kind: string }>('POST', '/api-keys', {
      kind: 'app',
      permissions: [{ action: 'read', resource: 'storage/acme-collection/acme-tenant' }],
    })
    expect(created.status).toBe(201)
    expect(created.body.kind).toBe('app')
    const authorization = `AppKey ${created.body.key}`
    expect((await call({ authorization })).response.status).toBe(200)
    const listed = await h.control<Array<Record<string, unknown>>>('GET', '/api-keys')
    expect(JSON.stringify(listed.body)).not.toContain(created.body.key)
    expect((await h.control('DELETE', `/api-keys/${encodeURIComponent(created.body.key)}`)).status).toBe(204)
    expect((await call({ authorization })).response.status).toBe(401)
    expect((await h.control('DELETE', `/api-keys/${encodeURIComponent(created.body.key)}`)).status).toBe(404)
  })

  it('gives a user API key the permissions of its user', async () => {
    const created = await h.control<{ key: string }>('POST', '/api-keys', { kind: 'user', userId: 'bob' })
    expect((await call({ authorization: `Bearer ${created.body.key}` })).response.status).toBe(403)
    const bad = await h.control<{ error: string; field: string }>('POST', '/api-keys', { kind: 'user', userId: 'nobody' })
    expect(bad.status).toBe(400)
    expect(bad.body.field).toBe('userId')
  })
})

contract(
  'access gate with static keys rejected',
  (h) => {
    it('answers 401 saying static keys are no longer supported', async () => {
      for (const headers of [APP_KEY, ALICE_KEY]) {
        const response = await h.fetch(VERSIONS(), { headers })
        const body = (await response.json()) as ErrorBody
        expect(response.status).toBe(401)
        expect(body.data[0]?.error).toBe('Static API keys are no longer supported. Migrate to OAuth 2.0.')
        expect(body.type).toBe('Unauthorized')
      }
    })
  },
  { staticKeys: 'rejected' },
)
