/**
 * The control plane's OAuth operations and their in-process twins: clients (secret shown once,
 * never read back, regenerated so the old one fails at once, deleted), a user's consents, and the
 * journal, which never holds a secret. Both transports.
 */
import { expect, it } from 'vitest'
import { contract } from '../support/harness.js'
import { CALLBACK, exchange, getCode, token } from '../support/oauth.js'

type Client = { clientId: string; clientSecret?: string; name: string; grantType: string; authMethod: string; scopes: string[]; permissions: unknown[]; redirectUris: string[] }

contract(
  'oauth: clients on the control plane',
  { tls: true, team: true },
  (h) => {
    const create = (body: unknown): Promise<{ status: number; body: Client & { error?: string; field?: string } }> => h.control('POST', '/oauth-clients', body)

    it('creates a client and shows its secret once; reading it never shows the secret', async () => {
      const created = await create({
        name: 'Reporting',
        grantType: 'Client Credentials',
        authMethod: 'Client secret post',
        scopes: ['audit.log:read'],
        permissions: [{ action: 'read', resource: 'storage/acme-collection/acme-tenant' }],
      })
      expect(created.status).toBe(201)
      expect(created.body).toMatchObject({ name: 'Reporting', grantType: 'client_credentials', authMethod: 'client_secret_post', scopes: ['audit.log:read'], redirectUris: [] })
      expect(created.body.clientId).toMatch(/^[0-9a-f-]{36}$/)
      expect(created.body.clientSecret).toMatch(/^[A-Za-z0-9]{40}$/)
      const read = await h.control<Client>('GET', `/oauth-clients/${created.body.clientId}`)
      expect(read.status).toBe(200)
      expect(read.body.clientSecret).toBeUndefined()
      expect(JSON.stringify((await h.control('GET', '/oauth-clients')).body)).not.toContain(created.body.clientSecret)
      const issued = await token(h, { grant_type: 'client_credentials' }, { auth: 'post', client: { id: created.body.clientId, secret: created.body.clientSecret ?? '' } })
      expect(issued.body.scope).toBe('audit.log:read')
    })

    it('regenerating the secret makes the old one fail at once', async () => {
      const fresh = await h.control<{ clientId: string; clientSecret: string }>('POST', '/oauth-clients/ci-client/secret')
      expect(fresh.status).toBe(200)
      expect(fresh.body.clientSecret).not.toBe('ci-secret')
      expect((await token(h, { grant_type: 'client_credentials' })).body.error).toBe('invalid_client')
      expect((await token(h, { grant_type: 'client_credentials' }, { client: { id: 'ci-client', secret: fresh.body.clientSecret } })).status).toBe(200)
    })

    it('reset restores the fixtures\' clients and secrets', async () => {
      await h.control('POST', '/oauth-clients/ci-client/secret')
      await h.control('DELETE', '/oauth-clients/web-app')
      await create({ clientId: 'extra', name: 'x', grantType: 'client_credentials', authMethod: 'client_secret_basic' })
      await h.control('POST', '/reset')
      expect((await token(h, { grant_type: 'client_credentials' })).status).toBe(200)
      expect((await h.control('GET', '/oauth-clients/web-app')).status).toBe(200)
      expect((await h.control('GET', '/oauth-clients/extra')).status).toBe(404)
    })

    it('deleting a client removes it and the consents given to it', async () => {
      await getCode(h)
      expect((await h.control('DELETE', '/oauth-clients/web-app')).status).toBe(204)
      expect((await h.control('GET', '/oauth-clients/web-app')).status).toBe(404)
      expect((await h.control('GET', '/users/alice/consents')).body).toEqual([])
      expect((await h.control('DELETE', '/oauth-clients/web-app')).status).toBe(404)
      expect((await h.control('POST', '/oauth-clients/web-app/secret')).status).toBe(404)
    })

    it.each([
      [{ grantType: 'client_credentials', authMethod: 'client_secret_basic' }, 'name'],
      [{ name: 'x', grantType: 'implicit', authMethod: 'client_secret_basic' }, 'grantType'],
      [{ name: 'x', grantType: 'client_credentials', authMethod: 'private_key_jwt' }, 'authMethod'],
      [{ name: 'x', grantType: 'client_credentials', authMethod: 'client_secret_basic', scopes: ['admin'] }, 'scopes[0]'],
      [{ name: 'x', grantType: 'authorization_code', authMethod: 'client_secret_post', redirectUris: ['/relative'] }, 'redirectUris[0]'],
      [{ name: 'x', grantType: 'client_credentials', authMethod: 'client_secret_basic', secret: 'mine' }, ''],
    ])('answers 400 naming the field for %o', async (body, field) => {
      const answer = await create(body)
      expect(answer.status).toBe(400)
      expect(answer.body.error).toMatch(/^Invalid OAuth client: /)
      if (field) expect(answer.body.field).toBe(field)
    })

    it('answers 409 for a client id that exists', async () => {
      expect((await create({ clientId: 'ci-client', name: 'x', grantType: 'client_credentials', authMethod: 'client_secret_basic' })).status).toBe(409)
    })

    it('mints a token over the control plane too', async () => {
      const answer = await h.control<{ access_token: string; scope: string }>('POST', '/oauth-tokens', { clientId: 'ci-client', scope: 'studio' })
      expect(answer.status).toBe(200)
      expect(answer.body.scope).toBe('studio')
      expect((await h.control('POST', '/oauth-tokens', { clientId: 'ghost' })).status).toBe(404)
    })
  },
  { clock: 'manual' },
)

contract(
  'oauth: the journal holds no secret',
  { tls: true, team: true },
  (h) => {
    it('redacts client secrets, codes, verifiers, tokens and refresh tokens in requests, answers and redirects', async () => {
      const code = await getCode(h, { code_challenge: 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk', code_challenge_method: 'plain' })
      const issued = await exchange(h, code, { code_verifier: 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk' })
      const refreshed = await token(h, { grant_type: 'refresh_token', refresh_token: String(issued.body.refresh_token) }, { encoding: 'multipart', auth: 'post', client: { id: 'web-app', secret: 'web-app-secret' } })
      const viaQuery = await token(h, { grant_type: 'client_credentials' }, { encoding: 'query', auth: 'post', client: { id: 'ci-post-client', secret: 'ci-post-secret' } })
      // A secret in the URL does not count, and the journal's path does not show it either.
      await h.fetch('/oauth2/token?grant_type=client_credentials&client_id=ci-post-client&client_secret=ci-post-secret', { method: 'POST' })
      const journal = JSON.stringify(h.emu.journal.list())
      for (const secret of [code, 'web-app-secret', 'ci-post-secret', issued.body.access_token, issued.body.refresh_token, refreshed.body.refresh_token, viaQuery.body.access_token]) {
        expect(journal).not.toContain(String(secret))
      }
      const exchangeEntry = h.emu.journal.list({ route: 'auth.token' })[0]
      expect(exchangeEntry?.identity).toBe('OAuth client web-app')
      expect(exchangeEntry?.request.body).toMatchObject({ grant_type: 'authorization_code', code: '[redacted]', client_secret: '[redacted]', redirect_uri: CALLBACK })
      const authorizeEntry = h.emu.journal.list({ route: 'auth.authorize' })[0]
      expect(authorizeEntry?.response.headers.location).toBe(`${CALLBACK}?code=%5Bredacted%5D&state=s-1`)
      expect(authorizeEntry?.identity).toBe('alice via OAuth client web-app')
    })
  },
  { clock: 'manual' },
)
