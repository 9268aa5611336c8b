/**
 * One machinery for every route (issue 26, part 3): a route of the user's is a route like any
 * other. It is listed by `GET /__svc-mock/routes` (which the dashboard's route filter reads), shown
 * in the OpenAPI document with its body as the example, journaled with its id (and filtered by
 * it, in the journal and the HAR export), named as the near miss and the closest route of a 404
 * `Not emulated`; the generic scenarios (latency, network-error, flaky) and scenario rules aimed
 * at its id shape it, for the run or for one request.
 */
import { compileErrors, validate } from '@readme/openapi-parser'
import { expect, it } from 'vitest'
import type { RoutesDocumentInput } from '../../src/index.js'
import { parseHar } from '../support/har.js'
import { APP_KEY, contract } from '../support/harness.js'

const DOCUMENT: RoutesDocumentInput = {
  routes: [
    {
      id: 'spaces.mine',
      method: 'GET',
      path: '/package-manager/api/spaces/mine',
      summary: 'The spaces of the caller',
      response: { body: [{ id: 's-1', name: 'Default' }] },
    },
  ],
  resources: [{ name: 'pools', path: '/integration/api/pools', records: [{ id: 'p-1', name: 'SAP ECC' }] }],
}

const PROBE = { name: 'pools-down', description: 'The pools list answers 503 while this is on (a rule aimed at a route of the user\'s).', rules: [{ route: 'pools.list', respond: { status: 503, body: { error: 'down' } } }] }

contract(
  'your routes: one machinery for every route',
  (h) => {
    const pools = (headers: Record<string, string> = {}): Promise<Response> => h.fetch('/integration/api/pools', { headers: { ...APP_KEY, ...headers } })

    it('are listed by GET /__svc-mock/routes (what the dashboard\'s route filter reads), after the built-in ones', async () => {
      const { body } = await h.control<Array<{ id: string; method: string; path: string; origin: string; summary: string }>>('GET', '/routes')
      const ids = body.map((r) => r.id)
      expect(ids).toEqual(expect.arrayContaining(['spaces.mine', 'pools.list', 'pools.read', 'pools.create', 'pools.replace', 'pools.delete']))
      expect(ids.indexOf('spaces.mine')).toBeGreaterThan(ids.indexOf('versions.list'))
      expect(body.find((r) => r.id === 'spaces.mine')).toEqual({ id: 'spaces.mine', method: 'GET', path: '/package-manager/api/spaces/mine', origin: 'base', summary: 'The spaces of the caller' })
      expect(body.find((r) => r.id === 'pools.read')?.path).toBe('/integration/api/pools/:id')
      expect(h.emu.userRoutes.list().map((r) => r.id)).toEqual(['spaces.mine', 'pools.list', 'pools.read', 'pools.create', 'pools.replace', 'pools.delete'])
    })

    it('are in the OpenAPI document, valid OpenAPI 3.1, the route file\'s body as the example and the gate\'s answers', async () => {
      const doc = (await (await h.fetch('/__svc-mock/openapi.json')).json()) as { paths: Record<string, Record<string, { 'x-svc-mock-route': string; tags: string[]; responses: Record<string, { content?: Record<string, { schema: { examples?: unknown[] } }> }>; security?: unknown[] }>> }
      const result = await validate(structuredClone(doc) as never)
      expect(result.valid ? '' : compileErrors(result)).toBe('')
      const mine = doc.paths['/package-manager/api/spaces/mine']?.get
      expect(mine?.['x-svc-mock-route']).toBe('spaces.mine')
      expect(mine?.tags).toEqual(['Your routes'])
      expect(mine?.responses['200']?.content?.['application/json']?.schema.examples).toEqual([[{ id: 's-1', name: 'Default' }]])
      expect(Object.keys(mine?.responses ?? {})).toEqual(['200', '401', '403'])
      expect(mine?.security).toEqual([{ bearer: [] }, { appKey: [] }])
      expect(doc.paths['/integration/api/pools/{id}']?.put?.['x-svc-mock-route']).toBe('pools.replace')
    })

    it('are journaled with their id, filtered by it, and exported to HAR', async () => {
      await pools()
      await h.fetch('/package-manager/api/spaces/mine', { headers: APP_KEY })
      expect(h.emu.journal.list({ route: 'pools.*' }).map((e) => [e.route, e.status, e.identity])).toEqual([['pools.list', 200, 'application key default-app-key']])
      const listed = await h.control<Array<{ route: string }>>('GET', '/journal?route=spaces.mine')
      expect(listed.body.map((e) => e.route)).toEqual(['spaces.mine'])
      const har = parseHar(await (await h.fetch('/__svc-mock/journal.har?route=pools.list')).text())
      expect(har.log.entries.map((e) => [e._route, e.response.status, e.request.url])).toEqual([['pools.list', 200, `${h.origin}/integration/api/pools`]])
      const typo = await h.control<{ error: string }>('GET', '/journal?route=pools.lst')
      expect(typo.status).toBe(400)
      expect(typo.body.error).toContain('did you mean "pools.list"?')
    })

    it('are the closest route of a 404 Not emulated, and the near miss of the journal', async () => {
      const missed = await h.fetch('/integration/api/pool', { headers: APP_KEY })
      expect(missed.status).toBe(404)
      expect(await missed.json()).toMatchObject({ error: 'Not emulated', path: '/integration/api/pool', closest: 'GET /integration/api/pools (pools.list)' })
      const [entry] = h.emu.journal.list({ route: 'unmatched' })
      expect(entry?.nearMiss).toEqual({
        route: { id: 'pools.list', method: 'GET', path: '/integration/api/pools', origin: h.origin },
        differences: [{ part: 'path', segment: 3, expected: 'pools', actual: 'pool' }],
      })
      expect((await h.fetch('/integration/api/pools', { method: 'PATCH', headers: APP_KEY })).status).toBe(405)
    })

    it('are held back by latency until the emulator clock moves, for the run or aimed at their id', async () => {
      h.emu.scenarios.use('latency', { route: 'pools.list', params: { ms: 2000 } })
      let status: number | undefined
      const pending = pools().then((r) => (status = r.status))
      await h.emu.clock.waitForParked(1)
      expect((await h.fetch('/package-manager/api/spaces/mine', { headers: APP_KEY })).status).toBe(200)
      await h.emu.clock.advance(1999)
      expect(status).toBeUndefined()
      await h.emu.clock.advance(1)
      await pending
      expect(status).toBe(200)
    })

    it('fail as network-error and flaky say, for one request (x-svc-mock-scenario) or for the run', async () => {
      await expect(pools({ 'x-svc-mock-scenario': 'network-error' })).rejects.toThrow()
      expect((await pools()).status).toBe(200)
      expect((await h.control('POST', '/scenarios/flaky', { params: { every: 1 }, route: 'pools.*' })).status).toBe(200)
      const flaky = await pools()
      expect(flaky.status).toBe(503)
      expect(await flaky.text()).toBe('Service Unavailable')
      expect((await h.fetch('/package-manager/api/spaces/mine', { headers: APP_KEY })).status).toBe(200)
      expect(h.emu.journal.list({ route: 'pools.list' }).map((e) => e.scenarios)).toEqual([['network-error'], [], ['flaky']])
    })

    it('answer as a scenario rule aimed at their id says, and no other route does', async () => {
      expect((await h.control('POST', '/scenarios/pools-down')).status).toBe(200)
      const down = await pools()
      expect(down.status).toBe(503)
      expect(await down.json()).toEqual({ error: 'down' })
      expect((await h.fetch('/integration/api/pools/p-1', { headers: APP_KEY })).status).toBe(200)
    })

    it('are aimed at by name: an aim at a route that does not exist is refused, naming the closest', async () => {
      const refused = await h.control<{ error: string }>('POST', '/scenarios/latency', { route: 'pools.lst' })
      expect(refused.status).toBe(400)
      expect(refused.body.error).toContain('did you mean "pools.list"?')
    })
  },
  { clock: 'manual', routes: DOCUMENT, scenarioDefinitions: [PROBE] },
)
