/**
 * Routes added at run time (`POST /__svc-mock/routes`, `emu.userRoutes.add()`): served at once on
 * every way in, until the next reset; one posted again replaces the route or resource of the same
 * id or name (a built-in route never); a document with a problem is a 400 naming the route, the
 * field and the rule (with the closest valid name), and nothing it declared is served.
 */
import { expect, it } from 'vitest'
import { type RoutesDocumentInput, RouteFileError } from '../../src/index.js'
import { APP_KEY, contract } from '../support/harness.js'

type Refusal = { error: string; field?: string }

const SPACES: RoutesDocumentInput = {
  routes: [{ id: 'spaces.list', method: 'GET', path: '/package-manager/api/spaces', response: { body: [{ id: 's-1', name: 'Default' }] } }],
  resources: [{ name: 'jobs', path: '/integration/api/jobs', records: [{ id: 'j-1' }] }],
}

contract('your routes added at run time', (h) => {
  const spaces = (): Promise<Response> => h.fetch('/package-manager/api/spaces', { headers: APP_KEY })

  it('are served at once after POST /__svc-mock/routes (201 with the routes added), and gone after a reset', async () => {
    expect((await spaces()).status).toBe(404)
    const added = await h.control<Array<{ id: string; method: string; path: string }>>('POST', '/routes', SPACES)
    expect(added.status).toBe(201)
    expect(added.body.map((r) => `${r.id} ${r.method} ${r.path}`)).toEqual([
      'spaces.list GET /package-manager/api/spaces',
      'jobs.list GET /integration/api/jobs',
      'jobs.read GET /integration/api/jobs/:id',
      'jobs.create POST /integration/api/jobs',
      'jobs.replace PUT /integration/api/jobs/:id',
      'jobs.delete DELETE /integration/api/jobs/:id',
    ])
    expect(await (await spaces()).json()).toEqual([{ id: 's-1', name: 'Default' }])
    expect((await h.fetch('/integration/api/jobs/j-1', { headers: APP_KEY })).status).toBe(200)
    expect((await h.control<Array<{ id: string }>>('GET', '/routes')).body.map((r) => r.id)).toContain('spaces.list')
    await h.control('POST', '/reset')
    expect((await spaces()).status).toBe(404)
    expect((await h.control('GET', '/resources')).body).toEqual([])
  })

  it('are added in-process too (emu.userRoutes.add), with a resolve function', async () => {
    await h.emu.userRoutes.add({ routes: [{ id: 'spaces.resolved', method: 'GET', path: '/package-manager/api/spaces', resolve: (_request, context) => Response.json({ who: context.identity?.subject }) }] })
    expect(await (await spaces()).json()).toEqual({ who: 'default-app-key' })
  })

  it('a route added later may not clash with one there already under another id (400 naming both)', async () => {
    expect((await h.control('POST', '/routes', SPACES)).status).toBe(201)
    const clash = await h.control<Refusal>('POST', '/routes', { routes: [{ id: 'spaces.again', method: 'GET', path: '/package-manager/api/spaces' }] })
    expect(clash.status).toBe(400)
    expect(clash.body.error).toContain('clashes with your route spaces.list (GET /package-manager/api/spaces)')
    expect(clash.body.field).toBe('routes[0].path')
  })

  it('a document posted again replaces your routes and resources of the same id or name (201), until the next reset', async () => {
    expect((await h.control('POST', '/routes', SPACES)).status).toBe(201)
    expect((await h.control('POST', '/routes', SPACES)).status).toBe(201)
    expect(h.emu.userRoutes.list().map((r) => r.id)).toEqual(['spaces.list', 'jobs.list', 'jobs.read', 'jobs.create', 'jobs.replace', 'jobs.delete'])
    const changed: RoutesDocumentInput = {
      routes: [{ id: 'spaces.list', method: 'GET', path: '/package-manager/api/spaces', response: { body: [{ id: 's-2', name: 'Changed' }] } }],
      resources: [{ name: 'jobs', path: '/integration/api/v2/jobs', records: [{ id: 'j-9' }] }],
    }
    expect((await h.control('POST', '/routes', changed)).status).toBe(201)
    expect(await (await spaces()).json()).toEqual([{ id: 's-2', name: 'Changed' }])
    expect((await h.fetch('/integration/api/jobs/j-1', { headers: APP_KEY })).status).toBe(404)
    expect(await (await h.fetch('/integration/api/v2/jobs', { headers: APP_KEY })).json()).toEqual([{ id: 'j-9' }])
    expect((await h.control('GET', '/resources')).body).toEqual([{ name: 'jobs', path: '/integration/api/v2/jobs', idField: 'id', count: 1 }])
    // The same id on another method or path is that route replaced, not a second route.
    expect((await h.control('POST', '/routes', { routes: [{ id: 'spaces.list', method: 'POST', path: '/package-manager/api/spaces', auth: 'none', response: { status: 201 } }] })).status).toBe(201)
    expect((await spaces()).status).toBe(405)
    expect(h.emu.userRoutes.list().filter((r) => r.id === 'spaces.list')).toHaveLength(1)
    await h.control('POST', '/reset')
    expect(h.emu.userRoutes.list()).toEqual([])
  })

  it('never replaces a built-in route, nor one route of a resource the document does not declare again (400: the id is taken)', async () => {
    const builtIn = await h.control<Refusal>('POST', '/routes', { routes: [{ id: 'auth.team', method: 'GET', path: '/mine/team' }] })
    expect(builtIn.status).toBe(400)
    expect(builtIn.body.error).toContain('the id "auth.team" is taken by the built-in route auth.team')
    expect((await h.control('POST', '/routes', SPACES)).status).toBe(201)
    const part = await h.control<Refusal>('POST', '/routes', { routes: [{ id: 'jobs.list', method: 'GET', path: '/other/jobs' }] })
    expect(part.status).toBe(400)
    expect(part.body.error).toContain('the id "jobs.list" is taken by your route jobs.list')
    expect((await h.fetch('/api/cloud/team', { headers: APP_KEY })).status).toBe(200)
  })

  it('refuses a document with a problem (400 naming the route, field and rule), and serves nothing it declared', async () => {
    const cases: Array<[RoutesDocumentInput | Record<string, unknown>, string, RegExp]> = [
      [{ routes: [{ id: 'a', method: 'GET', path: '/api/cloud/team' }] }, 'routes[0].path', /clashes with the built-in route auth\.team \(GET \/api\/cloud\/team\)/],
      [{ routes: [{ id: 'a', method: 'POST', path: '/hooks/mine' }] }, 'routes[0].path', /clashes with the built-in route webhooks\.receive \(any method \/hooks\/\{token\}\)/],
      [{ routes: [{ id: 'a', method: 'GET', path: '/__svc-mock/mine' }] }, 'routes[0].path', /control plane's own prefix/],
      [{ routes: [{ id: 'a', method: 'GET', path: '/with space' }] }, 'routes[0].path', /cannot match any request/],
      [{ routes: [{ id: 'a', method: 'GET', path: 'no-slash' }] }, 'routes[0].path', /must start with "\/"/],
      [{ routes: [{ id: 'a', method: 'GET', path: '/a/x{id}' }] }, 'routes[0].path', /a parameter is a whole segment/],
      [{ routes: [{ id: 'a', method: 'GET', path: '/a/{id}/{id}' }] }, 'routes[0].path', /appears twice/],
      [{ routes: [{ id: 'a', method: 'GET', path: '/a/{poolId}', response: { body: { x: '{{path.pool}}' } } }] }, 'routes[0].response.body.x', /did you mean \{\{path\.poolId\}\}/],
      [{ routes: [{ id: 'a', method: 'GET', path: '/a', response: { headers: { 'x-at': '{{nw}}' } } }] }, 'routes[0].response.headers.x-at', /unknown placeholder \{\{nw\}\} \(did you mean \{\{now\}\}\?\)/],
      [{ routes: [{ id: 'a', method: 'GET', path: '/a', auth: 'none', response: { body: '{{identity.id}}' } }] }, 'routes[0].response.body', /needs a caller/],
      [{ routes: [{ id: 'a', method: 'GET', path: '/a', response: { bodyFile: 'x.json' } }] }, 'routes[0].response.bodyFile', /no folder to read a bodyFile from/],
      [{ routes: [{ id: 'a', method: 'GTE', path: '/a' }] }, 'routes[0].method', /did you mean "GET"/],
      [{ routes: [{ id: 'a', method: 'GET', path: '/a', respnse: {} }] }, 'routes[0].respnse', /unknown field "respnse" \(did you mean "response"\?\)/],
      [{ routes: [{ id: 'a', method: 'GET', path: '/a', response: { status: '200' } }] }, 'routes[0].response.status', /expected number/],
      [{ routes: [{ id: 'a', method: 'GET', path: '/a', auth: { scopes: ['integration.data-pool'] } }] }, 'routes[0].auth.scopes[0]', /did you mean "integration\.data-pools"/],
      [{ routes: [{ id: 'a', method: 'GET', path: '/a', auth: 'nobody' }] }, 'routes[0].auth', /must be "none", or an object/],
      [{ routes: [{ id: 'unmatched', method: 'GET', path: '/a' }] }, 'routes[0].id', /the journal's name/],
      [{ routes: [{ id: 'a', method: 'GET', path: '/a', response: { status: 204, body: 'x' } }] }, 'routes[0].response.body', /a 204 answer has no body/],
      [{ routes: [{ id: 'a', method: 'GET', path: '/a', response: { headers: { 'content-length': '3' } } }] }, 'routes[0].response.headers', /the transport frames the body itself/],
      [{ routes: [{ id: 'a', method: 'GET', path: '/a' }, { id: 'a', method: 'POST', path: '/a' }] }, 'routes[1].id', /taken by your route a/],
      [{ resources: [{ name: 'r', path: '/r/{x}' }] }, 'resources[0].path', /has no parameters/],
      [{ resources: [{ name: 'r', path: '/r', records: [{ name: 'no id' }] }] }, 'resources[0].records[0].id', /needs its id field "id"/],
      [{ resources: [{ name: 'r', path: '/r', records: [{ id: 1 }, { id: '1' }] }] }, 'resources[0].records[1].id', /used twice/],
      [{ resources: [{ name: 'r', path: '/api/cloud/team' }] }, 'resources[0].path', /its list route r\.list \(GET \/api\/cloud\/team\): clashes with the built-in route auth\.team/],
      [{ route: [] }, 'route', /unknown field "route" \(did you mean "routes"\?\)/],
      [{ routes: [{ id: 'a', method: 'GET', pth: '/a' }] }, 'routes[0].pth', /unknown field "pth" \(did you mean "path"\?\)/],
      [{ resources: [{ nme: 'r', path: '/r' }] }, 'resources[0].nme', /unknown field "nme" \(did you mean "name"\?\)/],
    ]
    for (const [document, field, error] of cases) {
      const refused = await h.control<Refusal>('POST', '/routes', document)
      expect(refused.status, JSON.stringify(document)).toBe(400)
      expect(refused.body.error, JSON.stringify(document)).toMatch(error)
      expect(refused.body.field, JSON.stringify(document)).toBe(field)
    }
    // The first route is fine, the second is not: neither is served.
    const half = await h.control<Refusal>('POST', '/routes', { routes: [{ id: 'fine', method: 'GET', path: '/fine', auth: 'none' }, { id: 'bad', method: 'GET', path: '/bad/{x}', response: { body: '{{path.y}}' } }] })
    expect(half.status).toBe(400)
    expect(half.body.error).toMatch(/^Invalid routes file inline routes #\d+, routes\[1\] \(id "bad"\), field response\.body: /)
    expect((await h.fetch('/fine')).status).toBe(404)
    expect(h.emu.userRoutes.list()).toEqual([])
  })

  it('in-process, a refused document throws RouteFileError naming the route and field', async () => {
    const error = await h.emu.userRoutes.add({ routes: [{ id: 'x', method: 'GET', path: '/x/{a}', response: { body: '{{path.b}}' } }] }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(RouteFileError)
    expect(error).toMatchObject({ item: 'routes[0] (id "x")', field: 'response.body' })
  })
})

contract(
  'your routes from a route file, posted again at run time',
  (h) => {
    it('a route file\'s routes and resource posted again (as docs/routes.md does) are replaced until the next reset, when the file\'s return', async () => {
      expect((await h.control('POST', '/routes', SPACES)).status).toBe(201)
      const replaced: RoutesDocumentInput = {
        routes: [{ id: 'spaces.list', method: 'GET', path: '/package-manager/api/spaces', response: { body: [] } }],
        resources: [{ name: 'jobs', path: '/integration/api/jobs', records: [{ id: 'j-2' }] }],
      }
      expect((await h.control('POST', '/routes', replaced)).status).toBe(201)
      expect(await (await h.fetch('/package-manager/api/spaces', { headers: APP_KEY })).json()).toEqual([])
      expect(await (await h.fetch('/integration/api/jobs', { headers: APP_KEY })).json()).toEqual([{ id: 'j-2' }])
      await h.control('POST', '/reset')
      expect(await (await h.fetch('/package-manager/api/spaces', { headers: APP_KEY })).json()).toEqual([{ id: 's-1', name: 'Default' }])
      expect(await (await h.fetch('/integration/api/jobs', { headers: APP_KEY })).json()).toEqual([{ id: 'j-1' }])
      expect(h.emu.userRoutes.list().map((r) => r.id)).toEqual(['spaces.list', 'jobs.list', 'jobs.read', 'jobs.create', 'jobs.replace', 'jobs.delete'])
    })
  },
  { routes: SPACES },
)
