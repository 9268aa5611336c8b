/**
 * The platform Python SDK's probes on every way in, for every credential kind of the default
 * fixtures: `GET /api/cloud` (the caller as a UserTransport), `GET /api/cloud/permissions` (a list
 * of {serviceName, permissions}) and `GET /api/team` (a TeamTransport); a key under the other
 * scheme is the gate's 401, so the SDK falls back from AppKey to Bearer.
 */
import { expect, it } from 'vitest'
import { ALICE_KEY, APP_KEY, BOB_KEY, contract, type Harness } from '../support/harness.js'
import { CI, CI_POST, LIMITED, exchange, getCode, token } from '../support/oauth.js'

const PROBES = ['/api/cloud', '/api/cloud/permissions', '/api/team'] as const
const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code'
const ALICE_READS = [{ serviceName: 'storage/acme-collection/acme-tenant', permissions: ['read'] }]

type Json = Record<string, unknown>

/** Every credential kind of the default fixtures, as the Authorization header a client sends. */
async function credentials(h: Harness): Promise<Record<string, Record<string, string>>> {
  const bearer = (answer: { body: Json }): Record<string, string> => ({ authorization: `Bearer ${String(answer.body.access_token)}` })
  const device = await token(h, { client_id: 'content-cli' }, { auth: 'none', path: '/oauth2/device_authorization' })
  return {
    'user key (Bearer)': ALICE_KEY,
    'application key (AppKey)': APP_KEY,
    'client credentials, basic': bearer(await token(h, { grant_type: 'client_credentials' }, { client: CI })),
    'client credentials, post': bearer(await token(h, { grant_type: 'client_credentials' }, { auth: 'post', client: CI_POST })),
    'authorization code': bearer(await exchange(h, await getCode(h))),
    'device code': bearer(await token(h, { grant_type: DEVICE_GRANT, device_code: String(device.body.device_code), client_id: 'content-cli' }, { auth: 'none' })),
  }
}

async function probe(h: Harness, path: string, headers: Record<string, string>): Promise<{ status: number; body: unknown; type: string | null }> {
  const response = await h.fetch(path, { headers })
  const text = await response.text()
  return { status: response.status, body: text === '' ? undefined : JSON.parse(text), type: response.headers.get('content-type') }
}

contract("the Python SDK's probes: /api/cloud, /api/cloud/permissions, /api/team", (h) => {
  const domain = (): string => new URL(h.emu.urls.base).hostname

  it('GET /api/cloud answers each credential kind with its identity in the UserTransport shape', async () => {
    const alice = { id: 'alice', email: 'alice@acme.test', name: 'Alice Example', nameOrEmail: 'Alice Example', nameAndEmail: 'Alice Example (alice@acme.test)' }
    const other = (id: string, name: string): Json => ({ id, email: `${id}@acme.svc-mock.test`, name, nameOrEmail: name, nameAndEmail: `${name} (${id}@acme.svc-mock.test)` })
    const expected: Record<string, Json> = {
      'user key (Bearer)': alice,
      'application key (AppKey)': other('default-app-key', 'default-app-key'),
      'client credentials, basic': other('ci-client', 'CI client (client credentials, basic)'),
      'client credentials, post': other('ci-post-client', 'CI client (client credentials, post)'),
      'authorization code': alice,
      'device code': alice,
    }
    for (const [kind, headers] of Object.entries(await credentials(h))) {
      const { status, body, type } = await probe(h, '/api/cloud', headers)
      expect(status, kind).toBe(200)
      expect(type, kind).toMatch(/^application\/json/)
      expect(body, kind).toEqual({
        ...expected[kind],
        teamId: 'acme',
        teamName: 'Acme',
        teamDomain: domain(),
        active: true,
        language: 'en',
        timeZone: 'UTC',
        role: 0,
        effectiveRole: 0,
        // The manual clock stands still: the log-in is this request, on the emulator clock.
        lastLogInDate: h.emu.clock.now().toISOString(),
        groupIds: [],
        admin: false,
        analyst: false,
        member: true,
        cloudAdmin: false,
      })
    }
  })

  it('GET /api/cloud/permissions answers a list of {serviceName, permissions} from the identity\'s permissions in the fixtures', async () => {
    const all = await credentials(h)
    for (const [kind, headers] of Object.entries(all)) {
      const { status, body } = await probe(h, '/api/cloud/permissions', headers)
      expect(status, kind).toBe(200)
      expect(body, kind).toEqual(ALICE_READS)
    }
    const limited = await token(h, { grant_type: 'client_credentials' }, { client: LIMITED })
    expect((await probe(h, '/api/cloud/permissions', { authorization: `Bearer ${String(limited.body.access_token)}` })).body).toEqual([])
    expect((await probe(h, '/api/cloud/permissions', BOB_KEY)).body).toEqual([])
  })

  it('GET /api/team answers every credential kind with the team in the TeamTransport shape, tracking off', async () => {
    for (const [kind, headers] of Object.entries(await credentials(h))) {
      const { status, body } = await probe(h, '/api/team', headers)
      expect(status, kind).toBe(200)
      expect(body, kind).toEqual({
        id: 'acme',
        name: 'Acme',
        domain: domain(),
        privacyType: 'PRIVATE',
        allowedDomain: null,
        active: true,
        activeUntil: null,
        visible: true,
        memberLimit: null,
        trackingEnabled: false,
      })
    }
  })

  it('a key under the other scheme (a user key as AppKey, an application key as Bearer) is the gate\'s 401 on every probe; under its own it is 200', async () => {
    for (const path of PROBES) {
      for (const authorization of ['AppKey svcmock-user-key-alice', 'Bearer svcmock-app-key', 'AppKey not-a-key']) {
        const response = await h.fetch(path, { headers: { authorization } })
        expect(response.status, `${path} ${authorization}`).toBe(401)
        expect(response.headers.get('www-authenticate')).toBe('Bearer')
        expect(await response.json()).toEqual({ error: 'Unauthorized' })
      }
      expect((await h.fetch(path, { headers: { authorization: 'Bearer svcmock-user-key-alice' } })).status).toBe(200)
      expect((await h.fetch(path, { headers: { authorization: 'AppKey svcmock-app-key' } })).status).toBe(200)
    }
  })

  it('an OAuth token sent as AppKey is the 401 too, so the SDK retries it as Bearer', async () => {
    const answer = await token(h, { grant_type: 'client_credentials' }, { client: CI })
    const accessToken = String(answer.body.access_token)
    expect((await h.fetch('/api/cloud', { headers: { authorization: `AppKey ${accessToken}` } })).status).toBe(401)
    expect((await h.fetch('/api/cloud', { headers: { authorization: `Bearer ${accessToken}` } })).status).toBe(200)
  })

  it('static keys carry Deprecation: true; the gate scenarios reach the probes (no permissions, static keys rejected)', async () => {
    expect((await h.fetch('/api/cloud', { headers: APP_KEY })).headers.get('deprecation')).toBe('true')
    const none = await h.fetch('/api/cloud/permissions', { headers: { ...ALICE_KEY, 'x-svc-mock-scenario': 'insufficient-permissions' } })
    expect([none.status, await none.json()]).toEqual([200, []])
    for (const path of PROBES) expect((await h.fetch(path, { headers: { ...APP_KEY, 'x-svc-mock-scenario': 'static-keys-rejected' } })).status).toBe(401)
  })

  it('records the caller in the journal, never the key', async () => {
    await h.fetch('/api/cloud', { headers: APP_KEY })
    const [entry] = h.emu.journal.list({ route: 'auth.cloud', limit: 1 })
    expect(entry?.identity).toBe('application key default-app-key')
    expect(JSON.stringify(entry)).not.toContain('svcmock-app-key')
  })
}, { clock: 'manual' })

contract(
  "the Python SDK's probes read the fixtures: a user's role and e-mail, permissions named per service",
  (h) => {
    it('a user with role admin and a service permission: role 2, admin and analyst, the permission under its service; an address derived when the fixture has none', async () => {
      const created = await h.control<{ key: string }>('POST', '/api-keys', { kind: 'user', userId: 'carol' })
      const headers = { authorization: `Bearer ${created.body.key}` }
      const user = (await probe(h, '/api/cloud', headers)).body as Json
      expect(user).toMatchObject({ id: 'carol', name: 'Carol Admin', email: 'carol@team-x.svc-mock.test', role: 2, effectiveRole: 2, admin: true, analyst: true, member: true, teamId: 'team-x', teamName: 'Team X', teamDomain: 'team-x.example.test' })
      expect((await probe(h, '/api/cloud/permissions', headers)).body).toEqual([
        { serviceName: 'package-manager', permissions: ['CREATE_SPACE', 'EDIT_ALL_SPACES'] },
        { serviceName: 'storage/acme-collection/acme-tenant', permissions: ['read'] },
      ])
      expect((await probe(h, '/api/team', headers)).body).toMatchObject({ id: 'team-x', name: 'Team X', domain: 'team-x.example.test' })
    })
  },
  {
    fixtures: {
      team: { id: 'team-x', name: 'Team X', domain: 'team-x.example.test' },
      users: [
        {
          id: 'carol',
          name: 'Carol Admin',
          role: 'admin',
          permissions: [
            { action: 'CREATE_SPACE', resource: 'package-manager' },
            { action: 'read', resource: 'storage/acme-collection/acme-tenant' },
            { action: 'EDIT_ALL_SPACES', resource: 'package-manager' },
          ],
        },
      ],
    },
  },
)
