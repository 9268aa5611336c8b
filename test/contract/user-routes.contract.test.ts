/**
 * Routes of the user's own (issue 26, part 1): a route file or a document given in code declares
 * routes that answer on every way in, with placeholders filled per request and a body file sent as
 * it is; access goes through the same gate as the platform's own API (a valid credential by
 * default, with the platform's 401 and 403 bodies; scopes and a permission; "none" for a public
 * route), so static keys, OAuth tokens of every grant and expired tokens behave as on the built-in
 * routes; in-process a route may resolve the request itself, with a typed context.
 */
import { fileURLToPath } from 'node:url'
import { expect, it } from 'vitest'
import type { RoutesDocumentInput } from '../../src/index.js'
import { ALICE_KEY, APP_KEY, BOB_KEY, contract } from '../support/harness.js'
import { CI, LIMITED, exchange, getCode, token } from '../support/oauth.js'

const MALFORMED = 'Invalid "Authorization" header format. Should start either with "Bearer " or "AppKey " (case insensitive).'
const ACCESS_DENIED = { title: 'Access Denied.', status: 403, detail: 'Access is denied', errorCode: 'ADMIN_ACCESS_ERROR' }
const FILES = fileURLToPath(new URL('../support/fixtures/routes/files/reports.json', import.meta.url))

const ROUTES: RoutesDocumentInput = {
  routes: [
    {
      id: 'echo.read',
      method: 'GET',
      path: '/integration/api/echo/{name}',
      response: {
        status: 203,
        headers: { 'x-name': '{{path.name}}', 'x-query': 'q={{query.q}}' },
        body: { name: '{{path.name}}', q: '{{query.q}}', who: '{{identity.id}}', at: '{{now}}', id: '{{uuid}}', n: 1, list: ['{{path.name}}', true, null] },
      },
    },
    { id: 'public.ping', method: 'GET', path: '/public/ping', auth: 'none', response: { body: 'pong' } },
    { id: 'public.forget', method: 'DELETE', path: '/public/things/{thingId}', auth: 'none', response: { status: 204 } },
    { id: 'admin.settings', method: 'GET', path: '/team/api/settings', auth: { permission: { action: 'manage', resource: 'team' } }, response: { body: { ok: true } } },
    {
      id: 'pools.push',
      method: 'POST',
      path: '/integration/api/v1/data-push/{poolId}/jobs/',
      auth: { scopes: ['integration.data-pools:data_push'] },
      response: { status: 201, body: { dataPoolId: '{{path.poolId}}', status: 'NEW' } },
    },
    {
      id: 'pools.resolved',
      method: 'POST',
      path: '/integration/api/pools/{poolId}/resolved',
      resolve: async (request, context) => {
        if (context.params.poolId === 'boom') throw new Error('the pool exploded')
        const pools = context.resources.get('pools')
        return Response.json(
          {
            method: request.method,
            body: await request.text(),
            who: context.identity?.subject ?? null,
            kind: context.identity?.kind ?? null,
            poolId: context.params.poolId,
            receivedAt: context.receivedAt.toISOString(),
            now: context.clock.now().toISOString(),
            pools: pools.list().map((p) => p.name),
          },
          { status: 202, headers: { 'x-resolved': 'yes' } },
        )
      },
    },
  ],
  resources: [{ name: 'pools', path: '/integration/api/pools', records: [{ id: 'p-1', name: 'SAP ECC' }] }],
}

contract(
  'your routes: route files and routes given in code',
  (h) => {
    const get = (path: string, headers: Record<string, string> = APP_KEY): Promise<Response> => h.fetch(path, { headers })

    it('answers the declared status, headers and body, with path, query, identity, clock and uuid placeholders filled', async () => {
      const response = await get('/integration/api/echo/Zo%C3%AB?q=a%20b', ALICE_KEY)
      expect(response.status).toBe(203)
      expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8')
      expect(response.headers.get('x-name')).toBe('Zo%C3%AB')
      expect(response.headers.get('x-query')).toBe('q=a b')
      const body = (await response.json()) as Record<string, unknown>
      expect(body).toMatchObject({ name: 'Zoë', q: 'a b', who: 'alice', n: 1, list: ['Zoë', true, null] })
      expect(body.at).toBe(h.emu.clock.now().toISOString())
      expect(body.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
      const again = (await (await get('/integration/api/echo/x', ALICE_KEY)).json()) as Record<string, unknown>
      expect(again.id).not.toBe(body.id)
      expect(again.q).toBe('')
    })

    it('gives the same uuids after a reset (they come from the run\'s seed)', async () => {
      const first = ((await (await get('/integration/api/echo/x')).json()) as { id: string }).id
      await h.emu.reset()
      expect(((await (await get('/integration/api/echo/x')).json()) as { id: string }).id).toBe(first)
    })

    it('sends a body file beside the route file as it is, typed by its extension unless a header says', async () => {
      const csv = await get('/integration/api/reports/pools.csv')
      expect(csv.status).toBe(200)
      expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8')
      expect(await csv.text()).toBe('id,name\n1,SAP ECC\n2,Salesforce\n')
      const typed = await get('/integration/api/reports/pools?format=wide')
      expect(typed.headers.get('content-type')).toBe('application/vnd.ms-excel')
      expect(typed.headers.get('x-report')).toBe('wide')
      expect(await typed.text()).toBe('id,name\n1,SAP ECC\n2,Salesforce\n')
    })

    it('sends a string body as text, and an answer without a body empty', async () => {
      const ping = await get('/public/ping', {})
      expect(ping.headers.get('content-type')).toBe('text/plain; charset=utf-8')
      expect(await ping.text()).toBe('pong')
      const gone = await h.fetch('/public/things/t-1', { method: 'DELETE' })
      expect(gone.status).toBe(204)
      expect(await gone.text()).toBe('')
    })

    it('needs a valid credential by default: the platform\'s 401 with WWW-Authenticate: Bearer, and its text for a malformed header', async () => {
      const refused: Array<Record<string, string>> = [{}, { authorization: 'AppKey not-a-key' }, { authorization: 'Bearer not-a-token' }, { authorization: 'AppKey svcmock-user-key-alice' }]
      for (const headers of refused) {
        const response = await get('/integration/api/echo/x', headers)
        expect(response.status).toBe(401)
        expect(response.headers.get('www-authenticate')).toBe('Bearer')
        expect(await response.json()).toEqual({ error: 'Unauthorized' })
      }
      const malformed = await get('/integration/api/echo/x', { authorization: 'Basic c3ZjOm1vY2s=' })
      expect(malformed.status).toBe(401)
      expect(await malformed.text()).toBe(MALFORMED)
    })

    it('takes static keys (with Deprecation: true) and OAuth tokens of the client-credentials and code grants, each as its own identity', async () => {
      const who = async (headers: Record<string, string>): Promise<[number, unknown, string | null]> => {
        const response = await get('/integration/api/echo/x', headers)
        return [response.status, ((await response.json()) as { who: unknown }).who, response.headers.get('deprecation')]
      }
      expect(await who(APP_KEY)).toEqual([203, 'default-app-key', 'true'])
      expect(await who(ALICE_KEY)).toEqual([203, 'alice', 'true'])
      const client = String((await token(h, { grant_type: 'client_credentials' })).body.access_token)
      expect(await who({ authorization: `Bearer ${client}` })).toEqual([203, CI.id, null])
      const user = String((await exchange(h, await getCode(h))).body.access_token)
      expect(await who({ authorization: `Bearer ${user}` })).toEqual([203, 'alice', null])
    })

    it('refuses an expired token with 401 invalid_token, on the emulator clock', async () => {
      const accessToken = String((await token(h, { grant_type: 'client_credentials' })).body.access_token)
      expect((await get('/integration/api/echo/x', { authorization: `Bearer ${accessToken}` })).status).toBe(203)
      await h.emu.clock.advance(900_000)
      const response = await get('/integration/api/echo/x', { authorization: `Bearer ${accessToken}` })
      expect(response.status).toBe(401)
      expect(response.headers.get('www-authenticate')).toMatch(/^Bearer error="invalid_token"/)
    })

    it('needs its scopes of an OAuth token (the platform\'s 403 ADMIN_ACCESS_ERROR otherwise); static keys are not bound by scopes', async () => {
      const push = (headers: Record<string, string>): Promise<Response> => h.fetch('/integration/api/v1/data-push/p-1/jobs/', { method: 'POST', headers })
      const limited = String((await token(h, { grant_type: 'client_credentials' }, { client: LIMITED })).body.access_token)
      const refused = await push({ authorization: `Bearer ${limited}` })
      expect(refused.status).toBe(403)
      expect(await refused.json()).toEqual(ACCESS_DENIED)
      expect(refused.headers.get('x-svc-mock-reason')).toContain('integration.data-pools:data_push')
      const full = String((await token(h, { grant_type: 'client_credentials' })).body.access_token)
      const accepted = await push({ authorization: `Bearer ${full}` })
      expect(accepted.status).toBe(201)
      expect(await accepted.json()).toEqual({ dataPoolId: 'p-1', status: 'NEW' })
      expect((await push(APP_KEY)).status).toBe(201)
    })

    it('needs its permission (403 otherwise), which a key created with it has', async () => {
      const refused = await get('/team/api/settings', ALICE_KEY)
      expect(refused.status).toBe(403)
      expect(await refused.json()).toEqual(ACCESS_DENIED)
      expect((await get('/team/api/settings', BOB_KEY)).status).toBe(403)
      const created = await h.control<{ key: string }>('POST', '/api-keys', { kind: 'app', permissions: [{ action: 'manage', resource: 'team' }] })
      expect((await get('/team/api/settings', { authorization: `AppKey ${created.body.key}` })).status).toBe(200)
    })

    it('serves a route with auth "none" to anyone, and records who called where a credential was given', async () => {
      expect((await get('/public/ping', {})).status).toBe(200)
      await get('/integration/api/echo/x', APP_KEY)
      const [entry] = h.emu.journal.list({ route: 'echo.read', limit: 1 })
      expect(entry?.identity).toBe('application key default-app-key')
      expect(entry?.request.headers.authorization).toBe('AppKey [redacted]')
    })

    it('lets an in-process route resolve the request itself, with the identity, path parameters, clock and resources', async () => {
      const response = await h.fetch('/integration/api/pools/p-1/resolved', { method: 'POST', headers: ALICE_KEY, body: 'hello' })
      expect(response.status).toBe(202)
      expect(response.headers.get('x-resolved')).toBe('yes')
      expect(response.headers.get('deprecation')).toBe('true')
      const now = h.emu.clock.now().toISOString()
      expect(await response.json()).toEqual({ method: 'POST', body: 'hello', who: 'alice', kind: 'user-api-key', poolId: 'p-1', receivedAt: now, now, pools: ['SAP ECC'] })
      expect((await h.fetch('/integration/api/pools/p-1/resolved', { method: 'POST' })).status).toBe(401)
    })

    it('answers 500 naming the route when its resolve() throws, and keeps serving', async () => {
      const response = await h.fetch('/integration/api/pools/boom/resolved', { method: 'POST', headers: APP_KEY })
      expect(response.status).toBe(500)
      expect(await response.json()).toEqual({ error: 'resolve() threw', route: 'pools.resolved', message: 'the pool exploded' })
      expect((await h.fetch('/integration/api/pools/p-2/resolved', { method: 'POST', headers: APP_KEY })).status).toBe(202)
    })
  },
  { clock: 'manual', routes: [ROUTES, FILES] },
)

contract(
  'your routes with static keys rejected',
  (h) => {
    it('answer static keys 401 "no longer supported", as the built-in routes do; OAuth tokens still pass', async () => {
      for (const headers of [APP_KEY, ALICE_KEY]) {
        const response = await h.fetch('/integration/api/echo/x', { headers })
        expect(response.status).toBe(401)
        expect(await response.json()).toEqual({ error: 'Unauthorized', message: 'Static API keys are no longer supported. Migrate to OAuth 2.0.' })
      }
      const accessToken = String((await token(h, { grant_type: 'client_credentials' })).body.access_token)
      expect((await h.fetch('/integration/api/echo/x', { headers: { authorization: `Bearer ${accessToken}` } })).status).toBe(203)
    })
  },
  { staticKeys: 'rejected', routes: ROUTES },
)
