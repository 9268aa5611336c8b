/**
 * The probes of `svc-mock verify` (each domain's verify-probes.ts, collected by src/verify/catalogue.ts)
 * and the requests they become (src/verify/request.ts): every API of the service description is
 * covered, only the webhook call writes, each probe reaches an emulated route, svc-mock's equivalents
 * are read from its fixtures, and each credential kind makes the header the platform expects.
 */
import { describe, expect, it } from 'vitest'
import { createEmulator } from '../../src/index.js'
import { authEquivalents } from '../../src/auth/index.js'
import type { FixtureRecords } from '../../src/kernel/domain.js'
import { loadSections, recordsOf } from '../../src/kernel/fixtures.js'
import { FIXTURE_SECTIONS } from '../../src/domains.js'
import { localEquivalents, probeCatalogue } from '../../src/verify/catalogue.js'
import { startLocal } from '../../src/verify/local.js'
import { WRONG_SECRET, buildRequest, type SideInputs } from '../../src/verify/request.js'

const ORIGINS = { auth: 'https://login.acme.test', base: 'https://acme.test', webhook: 'https://hooks.acme.test' }
const PLACE = { collection: 'c 1', storage: 's', facet: 'f', view: 'v', element: 'e/1', webhook: '/hooks/abc' }
const side = (overrides: Partial<SideInputs> = {}): SideInputs => ({ origins: ORIGINS, place: PLACE, credentials: { client: { id: 'id', secret: 'sec' } }, token: 'tok', ...overrides })
const request = (id: string, inputs: SideInputs = side()): ReturnType<typeof buildRequest> => {
  const probe = probeCatalogue([]).find((p) => p.id === id)
  if (probe === undefined) throw new Error(`no probe ${id}`)
  return buildRequest(probe, inputs)
}

describe('the probes', () => {
  it('cover every API of the service description, the token first, with unique ids', () => {
    const probes = probeCatalogue([])
    expect(probes[0]).toMatchObject({ id: 'token.valid', yieldsToken: true, credential: 'secret' })
    expect(new Set(probes.map((p) => p.id)).size).toBe(probes.length)
    expect(probes.map((p) => `${p.method} ${p.path}${p.query ? `?${Object.keys(p.query).join('&')}` : ''} ${p.credential}`)).toEqual([
      'POST /oauth2/token secret',
      'POST /oauth2/token wrong-secret',
      'POST /oauth2/token secret',
      'POST /oauth2/token secret',
      'GET /.well-known/openid-configuration none',
      'GET /.well-known/jwks.json none',
      'GET /api/cloud api',
      'GET /api/cloud/permissions api',
      'GET /api/team api',
      'GET /api/cloud/team api',
      'GET /api/cloud none',
      'GET /{collection}/{storage}/_api/rest/facets/{facet}/views/{view}/elements/{element}/versions api',
      'GET /{collection}/{storage}/_api/rest/facets/{facet}/views/{view}/elements/{element}/versions?$select api',
      'GET /{collection}/{storage}/_api/rest/facets/{facet}/views/{view}/elements/00000000-0000-4000-8000-000000000000/versions api',
      'GET /{collection}/{storage}/_api/rest/facets/{facet}/views/{view}/elements/{element}/versions?$filter api',
      'GET /{collection}/{storage}/_api/rest/facets/{facet}/views/{view}/elements/{element}/versions none',
      'POST {webhook} none',
    ])
    expect(probes.filter((p) => p.writes === true).map((p) => p.id)).toEqual(['webhook.refused-payload'])
  })

  it('each reach a route svc-mock emulates (none is answered "Not emulated")', async () => {
    const local = await startLocal({ routes: [], split: { auth: false, webhook: false }, api: 'app-key' })
    try {
      for (const probe of probeCatalogue(local.userRoutes)) {
        const built = buildRequest(probe, local.inputs)
        if ('skip' in built) throw new Error(`${probe.id}: ${built.skip}`)
        const sent = await local.send(built.request)
        if ('problem' in sent) throw new Error(`${probe.id}: ${sent.problem.message}`)
        expect(new TextDecoder().decode(sent.answer.body), probe.id).not.toContain('Not emulated')
      }
    } finally {
      await local.close()
    }
  })

  it("make one GET per GET route of the user's route files, and skip a route with path parameters", () => {
    const routes = [
      { id: 'pools.list', method: 'GET', path: '/integration/api/pools', origin: 'base', summary: '' },
      { id: 'pools.read', method: 'GET', path: '/integration/api/pools/:id', origin: 'base', summary: '' },
      { id: 'pools.create', method: 'POST', path: '/integration/api/pools', origin: 'base', summary: '' },
    ]
    const mine = probeCatalogue(routes).filter((p) => p.api === 'your routes')
    expect(mine.map((p) => [p.id, p.method, p.path, p.skip === undefined])).toEqual([
      ['routes.pools.list', 'GET', '/integration/api/pools', true],
      ['routes.pools.read', 'GET', '/integration/api/pools/:id', false],
    ])
  })
})

describe("svc-mock's equivalents", () => {
  it('are read from the default fixtures: the CI client, the keys, the default element and the orders webhook', () => {
    expect(localEquivalents()).toEqual({
      client: { id: 'ci-client', secret: 'ci-secret' },
      keys: { user: 'svcmock-user-key-alice', app: 'svcmock-app-key' },
      place: { collection: 'acme-collection', storage: 'acme-tenant', facet: 'processes', view: 'default', element: '0f8fad5b-d9cb-469f-a165-70867728950e', webhook: '/hooks/orders' },
      teamNames: ['acme', 'Acme'],
    })
  })

  it('are chosen by what they can do: a client with every scope and a permission, keys with permissions', () => {
    const loaded = loadSections(
      [
        {
          file: 'inline',
          data: {
            users: [{ id: 'nobody', name: 'No one' }, { id: 'reader', name: 'Reader', permissions: [{ action: 'read', resource: 'storage/a/b' }] }],
            apiKeys: [{ id: 'k1', kind: 'user', key: 'nobody-key-1', userId: 'nobody' }, { id: 'k2', kind: 'user', key: 'reader-key-1', userId: 'reader' }, { id: 'k3', kind: 'app', key: 'bare-app-key' }],
            oauthClients: [
              { clientId: 'narrow', clientSecret: 'x', name: 'n', grantType: 'client_credentials', authMethod: 'client_secret_basic', scopes: ['studio'], permissions: [{ action: 'read', resource: 'storage/a/b' }] },
              { clientId: 'wide', clientSecret: 'y', name: 'w', grantType: 'client_credentials', authMethod: 'client_secret_basic', permissions: [{ action: 'read', resource: 'storage/a/b' }] },
            ],
          },
        },
      ],
      FIXTURE_SECTIONS,
    )
    const fixtures: FixtureRecords = { of: (section) => recordsOf(loaded, section) }
    expect(authEquivalents(fixtures)).toEqual({ client: { id: 'wide', secret: 'y' }, userKey: 'reader-key-1', appKey: undefined, teamNames: [] })
  })
})

describe('a probe made into a request', () => {
  it('sends the client id and secret in a Basic header to the token endpoint, and a made-up secret for the wrong-secret probe', () => {
    const valid = request('token.valid')
    expect(valid).toMatchObject({ request: { url: 'https://login.acme.test/oauth2/token', method: 'POST', body: 'grant_type=client_credentials' } })
    expect('request' in valid && valid.request.headers).toMatchObject({ authorization: `Basic ${btoa('id:sec')}`, 'content-type': 'application/x-www-form-urlencoded' })
    const wrong = request('token.wrong-secret')
    expect('request' in wrong && wrong.request.headers.authorization).toBe(`Basic ${btoa(`id:${WRONG_SECRET}`)}`)
  })

  it('sends a user key as Bearer, an application key as AppKey, else the access token', () => {
    const header = (inputs: SideInputs): string | undefined => {
      const built = request('who-am-i.cloud', inputs)
      return 'request' in built ? built.request.headers.authorization : built.skip
    }
    expect(header(side({ credentials: { key: { value: 'uk', kind: 'user' } } }))).toBe('Bearer uk')
    expect(header(side({ credentials: { key: { value: 'ak', kind: 'app' } } }))).toBe('AppKey ak')
    expect(header(side())).toBe('Bearer tok')
    expect(header(side({ token: undefined }))).toBe('no access token: the token probe got none')
    expect(header(side({ credentials: {}, token: undefined }))).toBe('needs --api-key or --client-id/--client-secret')
  })

  it("fills the element's parts (encoded) and the webhook's path, keeps $ in query names, and names what is missing", () => {
    expect(request('versions.select')).toMatchObject({ request: { url: 'https://acme.test/c%201/s/_api/rest/facets/f/views/v/elements/e%2F1/versions?$select=name' } })
    expect(request('versions.bad-filter')).toMatchObject({ request: { url: "https://acme.test/c%201/s/_api/rest/facets/f/views/v/elements/e%2F1/versions?$filter=name%20-like%20'x'" } })
    expect(request('webhook.refused-payload')).toMatchObject({ request: { url: 'https://hooks.acme.test/hooks/abc', method: 'POST', body: '{}' } })
    expect(request('versions.list', side({ place: {} }))).toEqual({ skip: 'needs --element collection/storage/facet/view/element' })
    expect(request('webhook.refused-payload', side({ place: {} }))).toEqual({ skip: 'needs --webhook URL' })
    expect(request('token.valid', side({ credentials: {} }))).toEqual({ skip: 'needs --client-id and --client-secret' })
  })

  it('is answered by a default svc-mock the way the platform documents (smoke: the versions probe lists three versions)', async () => {
    const emu = await createEmulator({ clock: 'manual' })
    const built = request('versions.list', side({ origins: { auth: emu.urls.auth, base: emu.urls.base, webhook: emu.urls.webhook }, place: localEquivalents().place, credentials: { key: { value: 'svcmock-app-key', kind: 'app' } } }))
    if (!('request' in built)) throw new Error(built.skip)
    const response = await emu.handle(new Request(built.request.url, { headers: built.request.headers }))
    expect(((await response.json()) as { count: number }).count).toBe(3)
  })
})
