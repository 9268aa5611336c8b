/**
 * Fuzz: your routes and resources (issue 26), on every way in but TLS. Three surfaces:
 *
 * - `POST /__svc-mock/routes` with route documents near the valid ones (ids, methods, path
 *   templates and placeholders from the known and the hostile, statuses past the range, header
 *   values no header can carry, any JSON as a body, records without ids) and with any JSON, JSON
 *   nested thousands of levels deep, text that is not JSON;
 * - `/__svc-mock/resources/…` with hostile names and ids and any body;
 * - a route of the user's and a resource's routes, with hostile paths, queries, credentials and
 *   bodies.
 *
 * Properties: never a 5xx the route file did not declare, never a hang; a document is either added
 * whole (201, and then every route it added answers without an undeclared 5xx) or refused whole
 * (400, and nothing of it served or stored); a refused request to a resource stores nothing; health
 * and the known-good requests answer afterwards, and a reset takes every run-time addition away.
 */
import fc from 'fast-check'
import { it } from 'vitest'
import type { RoutesDocumentInput } from '../../src/index.js'
import { deepJson, encodeText, hugeNumber, jsonSpec, jsonText, knownOr, latin1Text, nestingDepth, weirdText, wellFormed } from '../support/fuzz-arbitraries.js'
import { OracleFailure, type Outcome, type Wire, describeOutcome, describeWire, expectAnswered, expectHealthy, fresh, fuzz, runs, send, timeoutFor } from '../support/fuzz.js'
import { type Harness, contract } from '../support/harness.js'

const POOLS = '/integration/api/pools'
const SEED: RoutesDocumentInput = {
  resources: [{ name: 'pools', path: POOLS, records: [{ id: 'p-1', name: 'SAP ECC' }, { id: 2, name: 'Salesforce' }] }],
  routes: [
    {
      id: 'echo.read',
      method: 'GET',
      path: '/integration/api/echo/{name}',
      response: { headers: { 'x-name': '{{path.name}}', 'x-query': '{{query.q}}' }, body: { name: '{{path.name}}', q: '{{query.q}}', who: '{{identity.id}}', at: '{{now}}', id: '{{uuid}}' } },
    },
  ],
}

const APP_KEY: [string, string] = ['authorization', 'AppKey svcmock-app-key']
const JSON_TYPE: [string, string] = ['content-type', 'application/json']

/** The user's part of the emulator: what a refused request must leave as it was. */
/** Sends `wire` to a fresh emulator, expects it answered, and fails if a refused request (4xx, 5xx) changed what is yours. */
async function sendStoringNothingRefused(h: Harness, wire: Wire): Promise<void> {
  await fresh(h)
  const before = userRoutesSnapshot(h)
  const outcome = await send(h, wire)
  expectAnswered(h, wire, outcome)
  if (outcome.status >= 400 && userRoutesSnapshot(h) !== before) throw new OracleFailure(`STORED FROM A REFUSED REQUEST: ${describeOutcome(outcome)}\n  request: ${describeWire(h, wire)}`, `STORED FROM A REFUSED ${wire.method}`)
}

/** Your routes and every resource's records, as one text to compare. */
function userRoutesSnapshot(h: Harness): string {
  return JSON.stringify({ routes: h.emu.userRoutes.list(), records: h.emu.resources.list().map((r) => [r.name, h.emu.resources.get(r.name).list()]) })
}

// --- Route documents -------------------------------------------------------------------------------

const PLACEHOLDERS = ['{{now}}', '{{uuid}}', '{{identity.id}}', '{{path.id}}', '{{path.name}}', '{{query.q}}', '{{path.nope}}', '{{ now }}', '{{}}', '{{query.}}', '{{{now}}}']
const text = fc.oneof(weirdText(12), fc.constantFrom(...PLACEHOLDERS), fc.tuple(weirdText(6), fc.constantFrom(...PLACEHOLDERS)).map(([a, b]) => `${a}${b}`))
const segment = knownOr(['pools', 'fuzz', 'v1', '{id}', '{name}', 'x{y}', '{id}', '..', '.', '', '%20', '__svc-mock', 'hooks', 'api', 'cloud', 'team'], 5, 8)
const template = fc.oneof(
  { weight: 6, arbitrary: fc.array(segment, { minLength: 1, maxLength: 4 }).map((parts) => `/${parts.join('/')}`) },
  { weight: 1, arbitrary: weirdText(16) },
)
const method = fc.oneof({ weight: 8, arbitrary: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS') }, { weight: 1, arbitrary: knownOr(['get', 'GTE', 'TRACE', '*'], 2, 6) })
const auth = fc.oneof(
  fc.constant(undefined),
  fc.constant('none'),
  fc.record({ scopes: fc.array(knownOr(['integration.data-pools', 'studio', 'nope'], 3, 10), { maxLength: 2 }), permission: fc.record({ action: knownOr(['read'], 3, 6), resource: knownOr(['team', '*'], 3, 8) }) }, { requiredKeys: [] }),
  weirdText(8),
)
const response = fc.record(
  {
    status: fc.oneof({ weight: 5, arbitrary: fc.integer({ min: 200, max: 599 }) }, { weight: 1, arbitrary: fc.constantFrom(100, 199, 204, 304, 600, 1e16) }, { weight: 1, arbitrary: hugeNumber() }),
    headers: fc.dictionary(knownOr(['x-fuzz', 'content-type', 'location', 'set-cookie', 'content-length', 'bad name'], 4, 8), fc.oneof(text, fc.constantFrom('é€', '日本', 'a\r\nx-injected: 1', '\u0000')), { maxKeys: 2 }),
    body: fc.oneof({ weight: 3, arbitrary: fc.jsonValue({ maxDepth: 3 }) }, { weight: 3, arbitrary: text }, { weight: 1, arbitrary: fc.dictionary(knownOr(['id', 'name'], 3, 6), text, { maxKeys: 3 }) }),
    bodyFile: knownOr(['body.json', '../etc/passwd'], 2, 10),
  },
  { requiredKeys: [] },
)
const route = fc.record(
  { id: knownOr(['fuzz.one', 'fuzz.two', 'pools.list', 'echo.read', 'unmatched', 'proxied', 'auth.token', 'a b', ''], 6, 12), method, path: template, address: knownOr(['base', 'auth', 'webhook'], 6, 8), auth, response, summary: weirdText(12) },
  { requiredKeys: ['id', 'method', 'path'] },
)
const resource = fc.record(
  {
    name: knownOr(['jobs', 'pools', 'spaces', 'a b', ''], 5, 10),
    path: template,
    idField: knownOr(['id', 'key'], 4, 6),
    auth,
    records: fc.array(fc.dictionary(knownOr(['id', 'key', 'name'], 4, 6), fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.uuid(), fc.integer())), { maxLength: 3 }),
  },
  { requiredKeys: ['name', 'path'] },
)
const document = fc.record({ routes: fc.array(route, { maxLength: 3 }), resources: fc.array(resource, { maxLength: 2 }), extra: fc.jsonValue({ maxDepth: 1 }) }, { requiredKeys: [] })

/** A document the schema takes, with hostile values where a value is free, so it reaches what lies behind validation. */
const saneDocument = fc
  .record({
    routes: fc.array(
      fc.record({
        method: fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'HEAD'),
        at: fc.array(fc.constantFrom('fuzz', 'v1', '{id}', '{name}', 'x', 'items'), { minLength: 1, maxLength: 3 }),
        auth: fc.constantFrom(undefined, 'none' as const, { scopes: ['studio'] }, { permission: { action: 'read', resource: 'storage/*' } }),
        status: fc.oneof({ weight: 4, arbitrary: fc.integer({ min: 200, max: 599 }) }, { weight: 1, arbitrary: fc.constantFrom(204, 304) }),
        headers: fc.dictionary(fc.constantFrom('x-fuzz', 'content-type', 'location', 'set-cookie'), fc.oneof(text, fc.constantFrom('é€', '日本', 'a\r\nx-injected: 1', '\u0000')), { maxKeys: 2 }),
        body: fc.option(fc.oneof(fc.jsonValue({ maxDepth: 3 }), text, fc.dictionary(fc.constantFrom('id', 'name', 'at'), text, { maxKeys: 3 })), { nil: undefined }),
      }),
      { maxLength: 3 },
    ),
    records: fc.array(fc.dictionary(fc.constantFrom('name', 'note'), fc.oneof(fc.jsonValue({ maxDepth: 2 }), weirdText(8))), { maxLength: 3 }),
    resource: fc.boolean(),
  })
  .map(({ routes, records, resource }) => ({
    routes: routes.map((r, i) => ({
      id: `fuzz.${i}`,
      method: r.method,
      // Each route its own first segment, so two of one document never clash.
      path: `/fuzz${i}/${[...new Set(r.at)].join('/')}`,
      ...(r.auth === undefined ? {} : { auth: r.auth }),
      response: { status: r.status, headers: r.headers, ...(r.body === undefined || r.status === 204 || r.status === 304 ? {} : { body: r.body }) },
    })),
    ...(resource ? { resources: [{ name: 'jobs', path: '/fuzz-jobs', records: records.map((record, i) => ({ ...record, id: `j-${i}` })) }] } : {}),
  }))

type DocumentSpec = { kind: 'document'; value: Record<string, unknown> } | { kind: 'json'; json: ReturnType<typeof jsonSpec> extends fc.Arbitrary<infer J> ? J : never } | { kind: 'deep'; depth: number }

const documentSpec: fc.Arbitrary<DocumentSpec> = fc.oneof(
  { weight: 5, arbitrary: saneDocument.map((value) => ({ kind: 'document' as const, value })) },
  { weight: 5, arbitrary: document.map((value) => ({ kind: 'document' as const, value })) },
  { weight: 1, arbitrary: jsonSpec().map((json) => ({ kind: 'json' as const, json })) },
  { weight: 1, arbitrary: nestingDepth().map((depth) => ({ kind: 'deep' as const, depth })) },
)

function documentBody(spec: DocumentSpec): string {
  if (spec.kind === 'document') return wellFormed(JSON.stringify(spec.value))
  if (spec.kind === 'json') return wellFormed(jsonText(spec.json))
  return `{"routes":[{"id":"deep","method":"GET","path":"/deep","response":{"body":${deepJson(spec.depth, 'object', 'a', '1')}}}]}`
}

/** The status each route of a document declared (a user route may declare a 5xx; it is then documented). */
function declaredStatus(spec: DocumentSpec, id: string): number | undefined {
  if (spec.kind !== 'document') return undefined
  const routes = (spec.value.routes ?? []) as Array<{ id?: unknown; response?: { status?: unknown } }>
  const status = routes.find((r) => r.id === id)?.response?.status
  return typeof status === 'number' ? status : undefined
}

/** A request that matches a route pattern, its parameters filled with `fill`. */
function requestFor(route: { method: string; path: string }, fill: string, query: string): Wire {
  const path = route.path.replace(/:[A-Za-z0-9_]+/g, () => encodeText(fill) || 'x')
  const body = route.method === 'POST' || route.method === 'PUT' || route.method === 'PATCH' ? '{"name":"fuzz"}' : undefined
  return { method: route.method, path: `${path}?q=${encodeText(query)}`, headers: [APP_KEY, ...(body === undefined ? [] : [JSON_TYPE])], ...(body === undefined ? {} : { body }) }
}

// --- Resource control requests and calls to a route of yours -----------------------------------------

const recordBody = fc.oneof(
  { weight: 4, arbitrary: fc.dictionary(knownOr(['id', 'name'], 4, 6), fc.oneof(fc.jsonValue({ maxDepth: 2 }), weirdText(8), fc.constantFrom('p-1', 2, '2'))).map((v) => JSON.stringify(v)) },
  { weight: 1, arbitrary: jsonSpec().map((json) => jsonText(json)) },
  { weight: 1, arbitrary: nestingDepth().map((depth) => deepJson(depth, 'mixed')) },
  { weight: 1, arbitrary: weirdText(16) },
)

const resourceWire: fc.Arbitrary<Wire> = fc
  .record({
    method: fc.constantFrom('GET', 'POST', 'DELETE', 'PUT'),
    name: knownOr(['pools', 'pool', 'spaces'], 4, 10),
    id: fc.option(knownOr(['p-1', '2', 'nope'], 3, 10), { nil: undefined }),
    body: recordBody,
  })
  .map(({ method, name, id, body }) => ({
    method,
    path: `/__svc-mock/resources/${encodeText(name) || 'x'}${id === undefined ? '' : `/${encodeText(id) || 'x'}`}`,
    headers: [JSON_TYPE],
    ...(method === 'GET' || method === 'DELETE' ? {} : { body: wellFormed(body) }),
  }))

const credential = fc.oneof(
  { weight: 4, arbitrary: fc.constant<Array<[string, string]>>([APP_KEY]) },
  { weight: 1, arbitrary: fc.constant<Array<[string, string]>>([]) },
  { weight: 1, arbitrary: latin1Text(20).map((value): Array<[string, string]> => [['authorization', value]]) },
  { weight: 1, arbitrary: latin1Text(20).map((value): Array<[string, string]> => [['authorization', `Bearer ${value}`]]) },
)

const routeWire: fc.Arbitrary<Wire> = fc
  .record({
    method: fc.constantFrom('GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'),
    path: fc.oneof(
      fc.constant(POOLS),
      knownOr(['p-1', '2', 'nope', '%E2%82', '..%2F'], 3, 16).map((id) => `${POOLS}/${/^%|\.\./.test(id) ? id : encodeText(id)}`),
      weirdText(16).map((name) => `/integration/api/echo/${encodeText(name) || 'x'}`),
    ),
    query: weirdText(12),
    headers: credential,
    body: recordBody,
  })
  .map(({ method, path, query, headers, body }) => ({
    method,
    path: `${path}?q=${encodeText(query)}`,
    headers: [...headers, JSON_TYPE],
    ...(method === 'GET' || method === 'HEAD' ? {} : { body: wellFormed(body) }),
  }))

// --- Properties ------------------------------------------------------------------------------------

contract(
  'fuzz: your routes',
  (h) => {
    const documents = runs(40, 0.5)
    it(`adds or refuses ${documents} generated route documents whole, and what it adds answers`, { timeout: timeoutFor(documents, 80) }, async () => {
      await fuzz(`POST /__svc-mock/routes [${h.kind}]`, documents, documentSpec, async (spec) => {
        await fresh(h)
        const before = userRoutesSnapshot(h)
        const wire: Wire = { method: 'POST', path: '/__svc-mock/routes', headers: [JSON_TYPE], body: documentBody(spec) }
        const outcome = await send(h, wire)
        expectAnswered(h, wire, outcome)
        const request = describeWire(h, wire)
        if (outcome.status !== 201 && outcome.status !== 400) throw new OracleFailure(`ROUTES: expected 201 or 400, got ${describeOutcome(outcome)}\n  request: ${request}`, `ROUTES -> ${outcome.status}`)
        if (outcome.status === 400 && userRoutesSnapshot(h) !== before) throw new OracleFailure(`REFUSED, YET ADDED: ${describeOutcome(outcome)}\n  request: ${request}`, 'REFUSED, YET ADDED')
        if (outcome.status === 201) {
          const added = JSON.parse(outcome.text) as Array<{ id: string; method: string; path: string }>
          for (const [index, one] of added.entries()) {
            const declared = declaredStatus(spec, one.id)
            // fetch makes a 407 (proxy authentication) a network error outside a browser window (the
            // Fetch standard; undici does so): over the socket node:http reads what the server sent.
            const proxyAuth = declared === 407 && h.kind !== 'in-process' && h.kind !== 'handle'
            const call: Wire = { ...requestFor(one, index % 2 === 0 ? 'p-1' : 'é€ /x', 'é€&x'), ...(proxyAuth && h.kind === 'server' ? { raw: true } : {}) }
            const answer: Outcome = await send(h, call)
            if (proxyAuth && h.kind !== 'server' && answer.kind === 'network-error') continue
            expectAnswered(h, call, answer, { allowed: [declared ?? 0] })
          }
        }
        await fresh(h)
        if (userRoutesSnapshot(h) !== before) throw new OracleFailure(`RESET KEPT A RUN-TIME ADDITION\n  after: ${request}`, 'RESET KEPT AN ADDITION')
        await expectHealthy(h, request)
      })
    })

    const controls = runs(40, 0.5)
    it(`answers ${controls} generated resource control requests without a 5xx, storing nothing it refuses`, { timeout: timeoutFor(controls) }, async () => {
      await fuzz(`/__svc-mock/resources [${h.kind}]`, controls, resourceWire, async (wire) => {
        await sendStoringNothingRefused(h, wire)
        await fresh(h)
        if (userRoutesSnapshot(h) !== JSON.stringify({ routes: h.emu.userRoutes.list(), records: [['pools', [{ id: 'p-1', name: 'SAP ECC' }, { id: 2, name: 'Salesforce' }]]] })) {
          throw new OracleFailure(`RESET DID NOT RESTORE THE RECORDS\n  after: ${describeWire(h, wire)}`, 'RESET DID NOT RESTORE')
        }
      })
    })

    const calls = runs(60)
    it(`answers ${calls} generated calls to a route and a resource of yours without a 5xx, storing nothing it refuses`, { timeout: timeoutFor(calls) }, async () => {
      await fuzz(`your route [${h.kind}]`, calls, routeWire, async (wire) => {
        await sendStoringNothingRefused(h, wire)
        await fresh(h)
        await expectHealthy(h, describeWire(h, wire))
      })
    })
  },
  { clock: 'manual', routes: SEED },
)
