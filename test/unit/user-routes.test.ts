/**
 * The user-routes domain's small pieces: path templates (what can match, what is refused), the
 * clash rule, placeholders, how a recording names a path's parameters, and when a recording begins.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { Clock } from '../../src/kernel/clock.js'
import { createLogger } from '../../src/kernel/logger.js'
import { Redactor } from '../../src/kernel/redact.js'
import { CONTROL_PREFIX } from '../../src/control/index.js'
import { RESERVED_PREFIX } from '../../src/user-routes/index.js'
import { compileJson, compileString, render } from '../../src/user-routes/placeholders.js'
import { looksLikeId, templateOfPath } from '../../src/user-routes/record-names.js'
import { type ProxiedCallHead, Recorder } from '../../src/user-routes/recorder.js'
import { ClashIndex, parseTemplate, placed } from '../../src/user-routes/template.js'
import { FIELDS, routeSchemas } from '../../src/user-routes/schema.js'

describe('path templates', () => {
  it('become route patterns with their parameters', () => {
    expect(parseTemplate('/integration/api/pools/{poolId}/tables/{table_1}')).toEqual({ pattern: '/integration/api/pools/:poolId/tables/:table_1', params: ['poolId', 'table_1'] })
    expect(parseTemplate('/v1/data-push/{poolId}/jobs/')).toEqual({ pattern: '/v1/data-push/:poolId/jobs/', params: ['poolId'] })
    expect(parseTemplate('/a%20b')).toEqual({ pattern: '/a%20b', params: [] })
  })

  it.each([
    ['pools', /must start with "\/"/],
    ['/pools?x=1', /matches the path only/],
    ['/pools/x{id}', /a parameter is a whole segment/],
    ['/pools/{}', /a parameter is a whole segment/],
    ['/pools/{id}/{id}', /appears twice/],
    ['/pools/:id', /write a parameter as \{name\}/],
    ['/a b', /cannot match any request: a URL's path would read "\/a%20b"/],
    ['/a/../b', /cannot match/],
    ['/é', /cannot match/],
  ])('refuses %s', (path, problem) => {
    const parsed = parseTemplate(path)
    expect('problem' in parsed && parsed.problem).toMatch(problem)
  })
})

describe('the clash rule: an earlier route shadows a later one it answers every request of', () => {
  it.each([
    [{ method: 'GET', path: '/api/cloud/team' }, { method: 'GET', path: '/api/cloud/team' }, true],
    [{ method: '*', path: '/hooks/:token' }, { method: 'POST', path: '/hooks/mine' }, true],
    [{ method: 'GET', path: '/a/:x' }, { method: 'HEAD', path: '/a/b' }, false],
    [{ method: 'HEAD', path: '/a/:x' }, { method: 'HEAD', path: '/a/b' }, true],
    [{ method: 'GET', path: '/a/:x' }, { method: 'GET', path: '/a/:y' }, true],
    [{ method: 'GET', path: '/api/cloud/team' }, { method: 'GET', path: '/api/cloud/:x' }, false],
    [{ method: 'GET', path: '/api/cloud/team' }, { method: 'POST', path: '/api/cloud/team' }, false],
    [{ method: 'GET', path: '/a/:x' }, { method: 'GET', path: '/a/' }, false],
    [{ method: 'GET', path: '/a/:x' }, { method: 'GET', path: '/a/b/c' }, false],
  ] as const)('%o before %o: %s', (earlier, later, shadowed) => {
    const index = new ClashIndex<string>()
    index.add(placed({ method: 'OPTIONS', path: earlier.path }), 'another method')
    index.add(placed(earlier), 'earlier')
    expect(index.shadowing(placed(later))).toBe(shadowed ? 'earlier' : undefined)
  })
})

describe('placeholders', () => {
  const values = { params: { poolId: 'p 1' }, query: new URLSearchParams('q=x'), identity: 'alice', now: () => '2026-01-01T00:00:00.000Z', uuid: () => 'u-1' }
  const scope = { params: ['poolId'], identity: true }

  it('fill text and placeholders in order, spaces inside the braces allowed', () => {
    expect(render(compileString('{{path.poolId}}/{{ query.q }}/{{query.none}}/{{identity.id}}/{{now}}/{{uuid}}', scope), values)).toBe('p 1/x//alice/2026-01-01T00:00:00.000Z/u-1')
  })

  it('leave a JSON value without placeholders as it is, and fill the strings of one that has some', () => {
    const plain = compileJson({ a: [1, 'b', null] }, scope)
    expect(plain.plain).toBe(true)
    const filled = compileJson({ id: '{{path.poolId}}', list: ['{{uuid}}', 2], fixed: { x: 'y' } }, scope)
    expect(filled.plain).toBe(false)
    expect(filled.render(values)).toEqual({ id: 'p 1', list: ['u-1', 2], fixed: { x: 'y' } })
  })

  it('refuse an unknown one, naming the closest and the list', () => {
    expect(() => compileString('{{path.pool}}', scope)).toThrow('{{path.pool}} names no parameter of the path (did you mean {{path.poolId}}?); its parameters: poolId')
    expect(() => compileString('{{identity.name}}', scope)).toThrow(/unknown placeholder \{\{identity\.name\}\} \(did you mean \{\{identity\.id\}\}\?\)/)
    expect(() => compileString('{{identity.id}}', { params: [], identity: false })).toThrow(/needs a caller/)
    expect(() => compileJson({ deep: ['{{nope}}'] }, scope)).toThrow(expect.objectContaining({ at: 'deep[0]' }))
  })
})

describe('a recording\'s path templates', () => {
  it.each([
    ['3fa85f64-5717-4562-b3fc-2c963f66afa6', true],
    ['12345', true],
    ['a1b2c3d4e5', true],
    ['pools', false],
    ['v1', false],
    ['data-pools', false],
    ['api2', false],
  ])('%s looks like an id: %s', (segment, id) => {
    expect(looksLikeId(segment)).toBe(id)
  })

  it('name a parameter after the segment before it, numbered when it repeats', () => {
    expect(templateOfPath('/integration/api/pools/3fa85f64-5717-4562-b3fc-2c963f66afa6/tables/42')).toEqual({ template: '/integration/api/pools/{poolId}/tables/{tableId}', params: ['poolId', 'tableId'] })
    expect(templateOfPath('/categories/12/12345')).toEqual({ template: '/categories/{categoryId}/{id}', params: ['categoryId', 'id'] })
    expect(templateOfPath('/data-pools/7/x/8')).toEqual({ template: '/data-pools/{dataPoolId}/x/{xId}', params: ['dataPoolId', 'xId'] })
  })
})

describe('the recorder', () => {
  const head = (headers: Array<[string, string]>): ProxiedCallHead => ({ method: 'GET', url: new URL('http://team.invalid/a'), requestHeaders: new Headers(), status: 200, headers })
  const dirs: string[] = []
  const recorder = (): Recorder => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-mock-recorder-unit-'))
    dirs.push(dir)
    return new Recorder(dir, { redact: new Redactor(), clock: new Clock({ mode: 'manual' }), logger: createLogger('silent') })
  }
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
  })

  it('begins a recording once the bytes a Content-Length announced have come, before the stream says it ended (a client counting them has the whole answer)', async () => {
    const rec = recorder()
    rec.begin(head([['content-length', '5'], ['content-type', 'text/plain']])).write(new TextEncoder().encode('hello'))
    expect(await rec.recorded()).toMatchObject([{ method: 'GET', path: '/a', status: 200, outcome: 'written' }])
  })

  it('records nothing of an answer that stops before its end, and a body over the limit as its head only', async () => {
    const rec = recorder()
    const cut = rec.begin(head([['content-length', '10']]))
    cut.write(new TextEncoder().encode('hello'))
    cut.abort('stopped')
    const large = rec.begin(head([]))
    for (let i = 0; i < 6; i++) large.write(new Uint8Array(1024 * 1024))
    large.end()
    expect((await rec.recorded()).map((r) => r.outcome)).toEqual(['not-recorded', 'written'])
  })
})

it("keeps the control plane's prefix, which no route of yours may use, the control plane's own", () => {
  expect(RESERVED_PREFIX).toBe(CONTROL_PREFIX)
})

describe('the route document\'s fields', () => {
  it('are the members its schemas take, for "did you mean" on an unknown one', () => {
    const { RoutesDocumentSchema, UserRouteSchema, ResourceSchema } = routeSchemas()
    expect([...FIELDS.document].sort()).toEqual(Object.keys(RoutesDocumentSchema.shape).sort())
    expect([...FIELDS.route].sort()).toEqual(Object.keys(UserRouteSchema.shape).sort())
    expect([...FIELDS.resource].sort()).toEqual(Object.keys(ResourceSchema.shape).sort())
  })
})
