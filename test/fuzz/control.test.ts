/**
 * Fuzz: the control plane under /__svc-mock/, over both transports. Every route, with bodies
 * near the valid ones (fields replaced by hostile text, huge numbers such as a clock advance of
 * 1e16, non-Latin-1 header values in a flow's response step), any JSON, JSON nested thousands of
 * levels deep, text that is not JSON; wrong content types; a foreign `Origin`; over the socket a
 * foreign `Host`.
 *
 * Properties (issue 12, product.md "Control plane" and "Quality bars"): no 5xx at all (the control
 * plane has no documented one); no hang; a foreign Origin is refused (403), a state-changing
 * request with a body that is not `application/json` too (415), a foreign Host (421); a body nested over 256
 * levels is a 400 naming the limit; a clock advance past 8.64e15 ms since the epoch is a 400 and
 * one within it moves the clock by exactly that much; a refused request changes nothing; what an
 * accepted request created still answers without a 5xx (a webhook it made or changed, a storage,
 * an element, a key, a client, a token); the control plane's reads, health and reset still answer
 * afterwards, and after the reset the known-good requests give their usual answers.
 */
import fc from 'fast-check'
import { it } from 'vitest'
import { DEPTH_LIMIT, type JsonSpec, deepJson, encodeText, hugeNumber, jsonDepth, jsonSpec, jsonText, knownOr, nestingDepth, weirdText, wellFormed } from '../support/fuzz-arbitraries.js'
import {
  FLOW_FAILED,
  FLOW_TIMED_OUT,
  OracleFailure,
  type Outcome,
  type Wire,
  describeOutcome,
  describeWire,
  expectAnswered,
  expectHealthy,
  expectNothingStored,
  fresh,
  fuzz,
  parseJson,
  resetOverHttp,
  runs,
  send,
  snapshot,
  timeoutFor,
} from '../support/fuzz.js'
import { type Harness, SEED_ELEMENT, type TransportKind, contract } from '../support/harness.js'

const MAX_DATE_MS = 8.64e15
const SEED_VERSION = 'c1b9a3e2-5d4f-4a6b-8c7d-9e0f1a2b3c4d'
const HOOKS = ['orders', 'uploads', 'sync-reply', 'secured', 'paused', 'learning']
const CLIENTS = ['ci-client', 'ci-post-client', 'limited-client', 'web-app']
const SCENARIO_NAMES = ['webhook-queue-full', 'webhook-flow-inactive', 'webhook-flow-fails', 'webhook-timeout', 'webhook-gone', 'webhook-validation-fails', 'token-invalid-client', 'token-server-error', 'token-slow', 'token-short-lived', 'tokens-expired', 'consent-denied', 'static-keys-rejected', 'insufficient-permissions', 'rate-limited', 'versions-not-found', 'versions-server-error', 'network-error', 'latency', 'flaky']
const ROUTE_IDS = ['versions.list', 'webhooks.receive', 'auth.token', 'auth.authorize', 'versions.lst', '*']

interface RouteShape {
  id: string
  method: string
  path: string
  body?: 'scenario' | 'advance' | 'storage' | 'element' | 'version' | 'apiKey' | 'client' | 'issueToken' | 'webhook' | 'flow' | 'empty'
  query?: 'journal' | 'wait' | 'where'
}

const ROUTES: RouteShape[] = [
  { id: 'health', method: 'GET', path: '/health' },
  { id: 'routes', method: 'GET', path: '/routes' },
  { id: 'reset', method: 'POST', path: '/reset', body: 'empty' },
  { id: 'scenarios.list', method: 'GET', path: '/scenarios' },
  { id: 'scenarios.on', method: 'POST', path: '/scenarios/:name', body: 'scenario' },
  { id: 'scenarios.off', method: 'DELETE', path: '/scenarios/:name' },
  { id: 'clock.get', method: 'GET', path: '/clock' },
  { id: 'clock.advance', method: 'POST', path: '/clock/advance', body: 'advance' },
  { id: 'clock.advance', method: 'POST', path: '/clock/advance', body: 'advance' },
  { id: 'journal.list', method: 'GET', path: '/journal', query: 'journal' },
  { id: 'journal.wait', method: 'GET', path: '/journal/wait', query: 'wait' },
  { id: 'storages.list', method: 'GET', path: '/storages' },
  { id: 'storages.add', method: 'POST', path: '/storages', body: 'storage' },
  { id: 'elements.list', method: 'GET', path: '/elements', query: 'where' },
  { id: 'elements.add', method: 'POST', path: '/elements', body: 'element' },
  { id: 'elements.add', method: 'POST', path: '/elements', body: 'element' },
  { id: 'elements.addVersion', method: 'POST', path: '/elements/:elementId/versions', body: 'version', query: 'where' },
  { id: 'elements.remove', method: 'DELETE', path: '/elements/:elementId', query: 'where' },
  { id: 'elements.removeVersion', method: 'DELETE', path: '/elements/:elementId/versions/:versionId', query: 'where' },
  { id: 'apiKeys.list', method: 'GET', path: '/api-keys' },
  { id: 'apiKeys.create', method: 'POST', path: '/api-keys', body: 'apiKey' },
  { id: 'apiKeys.delete', method: 'DELETE', path: '/api-keys/:key' },
  { id: 'oauthClients.list', method: 'GET', path: '/oauth-clients' },
  { id: 'oauthClients.create', method: 'POST', path: '/oauth-clients', body: 'client' },
  { id: 'oauthClients.get', method: 'GET', path: '/oauth-clients/:clientId' },
  { id: 'oauthClients.delete', method: 'DELETE', path: '/oauth-clients/:clientId' },
  { id: 'oauthClients.regenerateSecret', method: 'POST', path: '/oauth-clients/:clientId/secret', body: 'empty' },
  { id: 'users.list', method: 'GET', path: '/users' },
  { id: 'consents.list', method: 'GET', path: '/users/:userId/consents' },
  { id: 'consents.revoke', method: 'DELETE', path: '/users/:userId/consents/:clientId' },
  { id: 'oauth.issueToken', method: 'POST', path: '/oauth-tokens', body: 'issueToken' },
  { id: 'webhooks.list', method: 'GET', path: '/webhooks' },
  { id: 'webhooks.create', method: 'POST', path: '/webhooks', body: 'webhook' },
  { id: 'webhooks.create', method: 'POST', path: '/webhooks', body: 'webhook' },
  { id: 'webhooks.get', method: 'GET', path: '/webhooks/:id' },
  { id: 'webhooks.delete', method: 'DELETE', path: '/webhooks/:id' },
  { id: 'webhooks.updateFlow', method: 'PUT', path: '/webhooks/:id/flow', body: 'flow' },
  { id: 'webhooks.updateFlow', method: 'PUT', path: '/webhooks/:id/flow', body: 'flow' },
  { id: 'webhooks.executions', method: 'GET', path: '/webhooks/:id/executions' },
  { id: 'state', method: 'GET', path: '/state' },
  { id: 'events', method: 'GET', path: '/events' },
  { id: 'dashboard.page', method: 'GET', path: '/' },
  { id: 'dashboard.asset', method: 'GET', path: '/dashboard/:file' },
]

const PARAMS: Record<string, readonly string[]> = {
  name: SCENARIO_NAMES,
  elementId: [SEED_ELEMENT, SEED_ELEMENT.toUpperCase()],
  versionId: [SEED_VERSION],
  key: ['svcmock-user-key-bob', 'svcmock-app-key'],
  clientId: CLIENTS,
  userId: ['alice', 'bob'],
  id: HOOKS,
  file: ['app.js', 'dashboard.css', 'icon.svg', 'index.html', 'tsconfig.json', '..%2Fpackage.json'],
}

// --- Bodies: valid ones with hostile values, and mutated ones --------------------------------------

/**
 * The bodies of each route, built twice: `mutate: false` gives bodies the schemas accept, with
 * hostile values where a value is free (non-ASCII names and ids, non-Latin-1 or CR/LF header
 * values in a response step, huge but integral numbers), so the request reaches the code behind
 * validation; `mutate: true` also puts hostile text, huge numbers or any JSON in typed fields.
 */
function bodies(mutate: boolean) {
  /** A field's value: the sensible one, or (mutating) sometimes hostile text, a huge number, any JSON. */
  const around = <T>(sensible: fc.Arbitrary<T>): fc.Arbitrary<unknown> =>
    mutate ? fc.oneof({ weight: 6, arbitrary: sensible }, { weight: 1, arbitrary: weirdText(16) }, { weight: 1, arbitrary: hugeNumber() }, { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) }) : sensible
  /** Free text: known values or hostile text (both valid where any non-empty string is). */
  const text = (known: readonly string[]): fc.Arbitrary<unknown> => around(knownOr(known, 4, 16))
  /** An enumerated value: one of `known`, or (mutating) anything. */
  const oneOf = (known: readonly string[]): fc.Arbitrary<unknown> => around(fc.constantFrom(...known))
  const permission = fc.record({ action: oneOf(['read', 'write']), resource: text(['storage/acme-collection/acme-tenant', 'storage/€/日本']) })
  /** A header value a response step may carry: mostly ASCII, often non-Latin-1, CR/LF or NUL. */
  const headerValue = fc.oneof({ weight: 2, arbitrary: fc.string({ maxLength: 12 }) }, { weight: 1, arbitrary: fc.constantFrom('é€', '日本', 'a\r\nx-injected: 1', '\u0000', 'ÿ') })
  const fieldSpec: fc.Arbitrary<unknown> = fc.letrec<{ field: unknown }>((tie) => ({
    field: fc.record(
      {
        name: text(['orderId', 'amount', 'customer', '__proto__', 'constructor']),
        type: oneOf(['text', 'number', 'boolean', 'date', 'array', 'collection', 'buffer']),
        required: around(fc.boolean()),
        spec: fc.oneof({ depthSize: 'small' }, fc.array(tie('field'), { maxLength: 2 }), fc.record({ type: oneOf(['text', 'collection']) })),
      },
      { requiredKeys: ['name', 'type'] },
    ),
  })).field
  const responseStep = fc.record(
    {
      status: around(mutate ? fc.oneof(fc.integer({ min: 200, max: 599 }), fc.constantFrom(199, 600, 1e16)) : fc.integer({ min: 200, max: 599 })),
      headers: fc.dictionary(mutate ? knownOr(['content-type', 'location', 'x-flow', 'set-cookie'], 3, 10) : fc.constantFrom('content-type', 'location', 'x-flow', 'set-cookie'), headerValue, { maxKeys: 2 }),
      body: fc.oneof(fc.jsonValue({ maxDepth: 3 }), weirdText(20)),
    },
    { requiredKeys: ['status'] },
  )
  const flowPatch = fc.record(
    {
      active: around(fc.boolean()),
      queueCapacity: around(fc.oneof(fc.integer({ min: 0, max: 5 }), fc.constantFrom(1e16, 2 ** 53))),
      response: fc.oneof(fc.constant(null), responseStep),
      outcome: oneOf(['succeed', 'fail', 'hang']),
      processingMs: around(fc.oneof(fc.integer({ min: 0, max: 60_000 }), fc.constantFrom(1e16, 8.64e15, 2 ** 53))),
    },
    { requiredKeys: [] },
  )
  const versionBody = fc.record(
    {
      state: text(['released', 'expired', 'inProcess']),
      attributes: fc.dictionary(knownOr(['name', 'version', 'authorNote'], 3, 10), fc.dictionary(mutate ? knownOr(['1031', '1033', '127'], 4, 5) : fc.constantFrom('1031', '1033', '127'), fc.oneof(weirdText(20), fc.jsonValue({ maxDepth: 3 })), { maxKeys: 2 }), { maxKeys: 3 }),
      displayNames: fc.dictionary(mutate ? knownOr(['1031', '1033'], 4, 5) : fc.constantFrom('1031', '1033'), around(weirdText(12)), { maxKeys: 2 }),
      related: fc.dictionary(knownOr(['author', 'owner'], 3, 8), fc.array(fc.record({ facetName: text(['users']), id: around(fc.uuid()), type: text(['user']) }), { maxLength: 2 }), { maxKeys: 1 }),
    },
    { requiredKeys: ['state'] },
  )
  return {
    empty: fc.constant({}),
    scenario: fc.oneof(
      fc.constant({}),
      fc.record({ webhook: text([...HOOKS, 'order']) }),
      fc.record({ client: text([...CLIENTS, 'ci-clinet']) }),
      fc.record({ route: text(ROUTE_IDS) }),
      fc.record(
        {
          times: around(fc.integer({ min: 1, max: 3 })),
          webhook: text([...HOOKS, 'order']),
          client: text([...CLIENTS, 'ci-clinet']),
          route: text(ROUTE_IDS),
          params: fc.dictionary(knownOr(['ms', 'rate', 'every', 'seed', 'mode', 'limit', 'windowSeconds'], 4, 10), fc.oneof(hugeNumber(), weirdText(8), fc.boolean()), { maxKeys: 2 }),
        },
        { requiredKeys: [] },
      ),
    ),
    advance: fc.record({ ms: fc.oneof({ weight: 3, arbitrary: fc.integer({ min: 0, max: 3_600_000 }) }, { weight: 3, arbitrary: fc.constantFrom(1e16, 8.64e15, 8e15, 1e15, 2 ** 53, Number.MAX_VALUE, 5e-324, 0.5, -1) }, { weight: mutate ? 1 : 0, arbitrary: fc.constantFrom('1000', null, true, [1]) }) }),
    storage: fc.record({ collectionId: text(['fuzz-collection', '€', '日本']), storageId: text(['fuzz-tenant', 'é€']), facets: fc.array(fc.record({ name: text(['processes', '日本']), views: fc.array(text(['default', '€']), { minLength: 1, maxLength: 2 }) }), { minLength: 1, maxLength: 2 }) }),
    element: fc.record(
      {
        storage: mutate ? text(['acme-collection/acme-tenant', '€/日本']) : fc.constantFrom('acme-collection/acme-tenant'),
        facet: mutate ? text(['processes']) : fc.constant('processes'),
        id: around(fc.uuid()),
        type: text(['process', 'user']),
        stereotype: text(['process']),
        versions: fc.array(versionBody, { minLength: 1, maxLength: 2 }),
      },
      { requiredKeys: ['storage', 'facet', 'type', 'versions'] },
    ),
    version: versionBody,
    apiKey: fc.record({ kind: oneOf(['user', 'app']), userId: text(['alice', 'bob']), permissions: fc.array(permission, { maxLength: 2 }), id: around(weirdText(10)), key: around(fc.string({ minLength: 8, maxLength: 20 })) }, { requiredKeys: ['kind'] }),
    client: fc.record(
      {
        name: text(['fuzz client']),
        grantType: oneOf(['client_credentials', 'authorization_code', 'Client Credentials']),
        authMethod: oneOf(['client_secret_basic', 'client_secret_post', 'Client secret post']),
        scopes: fc.array(oneOf(['studio', 'audit.log:read']), { maxLength: 2 }),
        permissions: fc.array(permission, { maxLength: 2 }),
        redirectUris: fc.array(text(['http://127.0.0.1/callback', 'javascript:alert(1)', 'http://€.example/cb', 'http://127.0.0.1/cb?x=é€']), { maxLength: 2 }),
        clientId: around(weirdText(12)),
        consent: oneOf(['auto', 'page']),
        pkce: oneOf(['optional', 'required']),
      },
      { requiredKeys: ['name', 'grantType', 'authMethod'] },
    ),
    issueToken: fc.record({ clientId: text(CLIENTS), scope: around(fc.constantFrom('studio', 'audit.log:read studio', '')), userId: text(['alice', 'bob']) }, { requiredKeys: ['clientId'] }),
    webhook: fc.record(
      {
        id: around(fc.stringMatching(/^[a-z0-9-]{1,12}$/)),
        name: text(['fuzz-hook']),
        dataStructure: fc.oneof(fc.constant(null), fc.array(fieldSpec, { maxLength: 3 })),
        learning: around(fc.boolean()),
        secured: around(fc.boolean()),
        options: fc.record({ jsonPassThrough: around(fc.boolean()), requestHeaders: around(fc.boolean()), requestMethod: around(fc.boolean()) }, { requiredKeys: [] }),
        flow: flowPatch,
      },
      { requiredKeys: ['name'] },
    ),
    flow: flowPatch,
  } as const
}

const VALID_BODIES = bodies(false)
const MUTATED_BODIES = bodies(true)

type BodySpec = { kind: 'none' } | { kind: 'valid'; value: unknown } | { kind: 'json'; json: JsonSpec } | { kind: 'deep-field'; depth: number }

type ContentType = 'json' | 'json-charset' | 'none' | 'text' | 'form' | 'multipart' | 'JSON-upper'

interface ControlSpec {
  route: RouteShape
  params: Record<string, string>
  query: Array<[string, string]>
  body: BodySpec
  contentType: ContentType
  origin: 'none' | 'own' | 'evil' | 'null'
  host: 'default' | 'localhost' | 'evil' | 'evil-port'
  raw: boolean
}

const queryOf = (kind: RouteShape['query']): fc.Arbitrary<Array<[string, string]>> => {
  switch (kind) {
    case 'journal':
      return fc.array(fc.tuple(fc.constantFrom('route', 'limit', 'since', 'status', 'method'), knownOr(['versions.list', 'versions.lst', '5', '-1', '1e16', '0', 'GET', '1.5'], 4, 10)), { maxLength: 3 })
    case 'wait':
      return fc.array(fc.tuple(fc.constantFrom('route', 'timeoutMs', 'limit'), fc.oneof(fc.integer({ min: 0, max: 100_000 }).map(String), knownOr(['versions.list', 'x', '-1', '1.5', ''], 4, 10))), { maxLength: 2 })
    case 'where':
      return fc.array(fc.tuple(fc.constantFrom('storage', 'facet'), knownOr(['acme-collection/acme-tenant', 'processes', '€/日本'], 4, 12)), { maxLength: 2 })
    default:
      return fc.array(fc.tuple(weirdText(6), weirdText(6)), { maxLength: 1 })
  }
}

function controlSpec(kind: TransportKind): fc.Arbitrary<ControlSpec> {
  return fc.constantFrom(...ROUTES).chain((route) => {
    const names = [...route.path.matchAll(/:(\w+)/g)].map((m) => m[1] as string)
    const params = fc.tuple(...names.map((name) => knownOr(PARAMS[name] ?? [], 5, 16))).map((values) => Object.fromEntries(names.map((name, i) => [name, values[i] as string])))
    const valid = (route.body ? VALID_BODIES[route.body] : fc.constant({})) as fc.Arbitrary<unknown>
    const mutated = (route.body ? MUTATED_BODIES[route.body] : fc.constant({})) as fc.Arbitrary<unknown>
    const body: fc.Arbitrary<BodySpec> = fc.oneof(
      { weight: route.body ? 4 : 1, arbitrary: valid.map((value) => ({ kind: 'valid' as const, value })) },
      { weight: route.body ? 3 : 0, arbitrary: mutated.map((value) => ({ kind: 'valid' as const, value })) },
      { weight: route.body ? 1 : 3, arbitrary: fc.constant({ kind: 'none' as const }) },
      { weight: 2, arbitrary: jsonSpec().map((json) => ({ kind: 'json' as const, json })) },
      { weight: route.body ? 2 : 0, arbitrary: nestingDepth().map((depth) => ({ kind: 'deep-field' as const, depth })) },
    )
    return fc.record({
      route: fc.constant(route),
      params: names.length === 0 ? fc.constant({}) : params,
      query: queryOf(route.query),
      body,
      contentType: fc.oneof({ weight: 12, arbitrary: fc.constant<ContentType>('json') }, { weight: 1, arbitrary: fc.constantFrom<ContentType>('json-charset', 'none', 'text', 'form', 'multipart', 'JSON-upper') }),
      origin: fc.oneof({ weight: 10, arbitrary: fc.constant('none' as const) }, { weight: 1, arbitrary: fc.constantFrom('own' as const, 'evil' as const, 'null' as const) }),
      host: kind === 'server' ? fc.oneof({ weight: 10, arbitrary: fc.constant('default' as const) }, { weight: 1, arbitrary: fc.constantFrom('localhost' as const, 'evil' as const, 'evil-port' as const) }) : fc.constant('default' as const),
      raw: fc.constant(false),
    }).map((spec) => ({ ...spec, raw: spec.host !== 'default' }))
  })
}

/** A body that nests one of its fields `depth` levels deep (where that route keeps free-form JSON). */
function deepFieldBody(route: RouteShape, depth: number): string {
  const deep = deepJson(depth, 'object', 'a', '1')
  switch (route.body) {
    case 'webhook':
      return `{"name":"deep","flow":{"response":{"status":200,"body":${deep}}}}`
    case 'flow':
      return `{"response":{"status":200,"body":${deep}}}`
    case 'element':
      return `{"storage":"acme-collection/acme-tenant","facet":"processes","type":"process","versions":[{"state":"released","attributes":{"name":{"127":${deep}}}}]}`
    case 'version':
      return `{"state":"released","attributes":{"name":{"127":${deep}}}}`
    case 'scenario':
      return `{"params":{"ms":${deep}}}`
    default:
      return `{"x":${deep}}`
  }
}

const STATE_CHANGING = ['POST', 'PUT', 'PATCH']
/** The methods whose body the guard judges (a DELETE with a body must be JSON too). */
const CHANGES = [...STATE_CHANGING, 'DELETE']

function wireOf(h: Harness, spec: ControlSpec): Wire {
  let path = `/__svc-mock${spec.route.path}`
  for (const [name, value] of Object.entries(spec.params)) path = path.replace(`:${name}`, value === '..%2Fpackage.json' ? value : encodeText(value))
  const query = new URLSearchParams(spec.query.map(([k, v]): [string, string] => [wellFormed(k), wellFormed(v)]))
  if (query.size > 0) path += `?${query.toString()}`
  const headers: Array<[string, string]> = []
  let body: string | undefined
  if (spec.body.kind === 'valid') body = JSON.stringify(spec.body.value)
  else if (spec.body.kind === 'json') body = wellFormed(jsonText(spec.body.json))
  else if (spec.body.kind === 'deep-field') body = deepFieldBody(spec.route, spec.body.depth)
  // fetch sends no body with GET or HEAD.
  if (spec.route.method === 'GET' && !spec.raw) body = undefined
  const type = { json: 'application/json', 'json-charset': 'application/json; charset=utf-8', 'JSON-upper': 'Application/JSON', text: 'text/plain', form: 'application/x-www-form-urlencoded', multipart: 'multipart/form-data; boundary=x', none: undefined }[spec.contentType]
  if (type !== undefined && (body !== undefined || spec.route.method !== 'GET')) headers.push(['content-type', type])
  if (spec.origin !== 'none') headers.push(['origin', spec.origin === 'own' ? h.origin : spec.origin === 'evil' ? 'https://evil.example' : 'null'])
  if (spec.raw) {
    const port = new URL(h.origin).port
    headers.push(['host', { default: `127.0.0.1:${port}`, localhost: `localhost:${port}`, evil: 'evil.example', 'evil-port': `evil.example:${port}` }[spec.host]])
  }
  // Without a Content-Type, send bytes (a string body would make fetch add text/plain).
  const bytes = body !== undefined && type === undefined ? new TextEncoder().encode(body) : undefined
  return { method: spec.route.method, path, headers, ...(bytes ? { body: bytes } : body !== undefined ? { body } : {}), raw: spec.raw }
}

/** What the request must get, before anything else, by product.md's guards (undefined: no guard applies). */
function guardAnswer(h: Harness, spec: ControlSpec): number[] | undefined {
  // An empty path parameter (`/elements//versions`) matches no route: the 404 of an unknown path
  // comes before any route's guard.
  if (Object.values(spec.params).some((value) => value === '')) return undefined
  const allowed: number[] = []
  if (spec.host === 'evil' || spec.host === 'evil-port') allowed.push(421)
  if (spec.origin === 'evil' || spec.origin === 'null') allowed.push(403)
  const isJson = spec.contentType === 'json' || spec.contentType === 'json-charset' || spec.contentType === 'JSON-upper'
  const body = wireOf(h, spec).body
  const hasBody = typeof body === 'string' ? body.length > 0 : body instanceof Uint8Array ? body.byteLength > 0 : body !== undefined
  if (CHANGES.includes(spec.route.method) && hasBody && !isJson) allowed.push(415)
  return allowed.length > 0 ? allowed : undefined
}

function bodyDepth(h: Harness, spec: ControlSpec): number | undefined {
  const wire = wireOf(h, spec)
  if (wire.body === undefined) return undefined
  const textBody = typeof wire.body === 'string' ? wire.body : new TextDecoder().decode(wire.body as Uint8Array)
  return jsonDepth(textBody)
}

async function followUps(h: Harness, spec: ControlSpec, outcome: Extract<Outcome, { kind: 'response' }>, wire: Wire): Promise<void> {
  const created = parseJson(outcome.text)
  const probes: Array<{ what: string; wire: Wire; webhook?: string }> = []
  const app = (extra: Array<[string, string]> = []): Array<[string, string]> => [['authorization', 'AppKey svcmock-app-key'], ...extra]
  const id = spec.route.id
  if (id === 'webhooks.create' || id === 'webhooks.updateFlow') {
    const hook = typeof created.id === 'string' ? created.id : undefined
    if (hook) probes.push({ what: `a call to the webhook it ${id === 'webhooks.create' ? 'created' : 'changed'}`, webhook: hook, wire: { method: 'POST', path: `/hooks/${encodeText(hook)}`, headers: app([['content-type', 'application/json']]), body: '{"orderId":"A-1"}' } })
  }
  if (id === 'storages.add' && typeof created.collectionId === 'string' && typeof created.storageId === 'string') {
    const facet = (created.facets as Array<{ name: string; views: string[] }> | undefined)?.[0]
    probes.push({ what: 'a versions call on the storage it created', wire: { method: 'GET', path: `/${encodeText(created.collectionId)}/${encodeText(created.storageId)}/_api/rest/facets/${encodeText(facet?.name ?? 'x')}/views/${encodeText(facet?.views[0] ?? 'x')}/elements/${SEED_ELEMENT}/versions`, headers: app() } })
  }
  if ((id === 'elements.add' || id === 'elements.addVersion') && typeof created.id === 'string') {
    const [collection = '', storage = ''] = String(created.storage ?? 'acme-collection/acme-tenant').split('/')
    const base = `/${encodeText(collection)}/${encodeText(storage)}/_api/rest/facets/${encodeText(String(created.facet ?? 'processes'))}/views/default/elements/${encodeText(created.id)}/versions`
    probes.push({ what: 'a versions call on the element it wrote', wire: { method: 'GET', path: base, headers: app() } })
    probes.push({ what: 'a reshaping versions call on the element it wrote', wire: { method: 'GET', path: `${base}?$select=name&$filter=${encodeText("contains(attributes,'x') OR IsNull(name)")}`, headers: app() } })
  }
  // A key a header cannot carry (characters above U+00FF, control characters) cannot be sent at all.
  if (id === 'apiKeys.create' && typeof created.key === 'string' && /^[\x21-\x7e\xa0-\xff]+$/.test(created.key)) {
    const scheme = created.kind === 'app' ? 'AppKey' : 'Bearer'
    probes.push({ what: 'a versions call with the key it created', wire: { method: 'GET', path: `/acme-collection/acme-tenant/_api/rest/facets/processes/views/default/elements/${SEED_ELEMENT}/versions`, headers: [['authorization', `${scheme} ${created.key}`]] } })
  }
  if (id === 'oauthClients.create' && typeof created.clientId === 'string' && typeof created.clientSecret === 'string') {
    const form = (v: string): string => encodeText(v).replace(/%20/g, '+')
    const basic = created.authMethod === 'client_secret_basic'
    const params = new URLSearchParams({ grant_type: String(created.grantType ?? 'client_credentials'), ...(basic ? {} : { client_id: created.clientId, client_secret: created.clientSecret }) })
    probes.push({ what: 'a token request by the client it created', wire: { method: 'POST', path: '/oauth2/token', headers: [['content-type', 'application/x-www-form-urlencoded'], ...(basic ? [['authorization', `Basic ${Buffer.from(`${form(created.clientId)}:${form(created.clientSecret)}`).toString('base64')}`] as [string, string]] : [])], body: params.toString() } })
    const redirect = (created.redirectUris as string[] | undefined)?.[0]
    if (redirect) probes.push({ what: 'the authorize step of the client it created', wire: { method: 'GET', path: `/oauth2/authorize?${new URLSearchParams({ response_type: 'code', client_id: created.clientId, redirect_uri: redirect, state: 'é€' }).toString()}` } })
  }
  if (id === 'oauth.issueToken' && typeof created.access_token === 'string') {
    probes.push({ what: 'a versions call with the token it minted', wire: { method: 'GET', path: `/acme-collection/acme-tenant/_api/rest/facets/processes/views/default/elements/${SEED_ELEMENT}/versions`, headers: [['authorization', `Bearer ${created.access_token}`]] } })
  }
  for (const probe of probes) {
    const answer = await send(h, probe.wire)
    const configured = probe.webhook ? h.emu.webhooks.list().find((w) => w.id === probe.webhook)?.flow.response?.status : undefined
    const documented = answer.kind === 'response' && (answer.status < 500 || answer.status === configured || answer.text === FLOW_FAILED || answer.text === FLOW_TIMED_OUT)
    if (!documented) {
      throw new OracleFailure(
        `ACCEPTED, THEN BROKEN: ${spec.route.method} ${spec.route.path} answered ${outcome.status}, then ${probe.what} answered ${describeOutcome(answer)}\n  control request: ${describeWire(h, wire)}\n  then: ${describeWire(h, probe.wire)}`,
        `ACCEPTED, THEN BROKEN: ${spec.route.id} then ${probe.what} -> ${answer.kind === 'response' ? answer.status : answer.kind}`,
      )
    }
  }
}

/**
 * A scenario aimed at a webhook, client or route that does not exist, or a journal filter naming a
 * route that does not exist (product.md: refused with 400 naming it and the closest existing one).
 */
function unknownTargetOf(h: Harness, spec: ControlSpec): string | undefined {
  const routeIds = [...h.emu.routes().map((r) => r.id), 'unmatched']
  const unknownRoute = (selector: string): boolean => selector !== '' && !selector.includes('*') && !routeIds.some((id) => id === selector || id.startsWith(`${selector}.`))
  if (spec.route.id === 'scenarios.on' && spec.body.kind === 'valid' && PARAMS.name?.includes(spec.params.name ?? '')) {
    const body = spec.body.value as { webhook?: unknown; client?: unknown; route?: unknown; times?: unknown; params?: unknown }
    // Only bodies that are otherwise valid: the target is then the one thing wrong.
    const validTimes = body.times === undefined || (Number.isInteger(body.times) && (body.times as number) >= 1)
    if (!validTimes || (body.params !== undefined && Object.keys(body.params as object).length > 0)) return undefined
    if (typeof body.webhook === 'string' && body.webhook !== '' && !h.emu.webhooks.list().some((w) => w.id === body.webhook)) return `webhook "${body.webhook}"`
    if (typeof body.client === 'string' && body.client !== '' && !h.emu.oauth.clients.get(body.client)) return `client "${body.client}"`
    if (typeof body.route === 'string' && unknownRoute(body.route)) return `route "${body.route}"`
  }
  if (spec.route.id === 'journal.list' || spec.route.id === 'journal.wait') {
    const routes = spec.query.filter(([k]) => k === 'route').map(([, v]) => v)
    const other = spec.query.filter(([k]) => k !== 'route')
    const sane = other.every(([k, v]) => (k === 'limit' || k === 'since' || k === 'status' || k === 'timeoutMs' ? /^\d+$/.test(v) && (k !== 'limit' || v !== '0') : true))
    const first = routes[0]
    if (sane && first !== undefined && routes.length === 1 && unknownRoute(first)) return `journal filter route "${first}"`
  }
  return undefined
}

const routeOf = (id: string, method?: string): RouteShape => ROUTES.find((r) => r.id === id && (method === undefined || r.method === method)) as RouteShape
const control = (id: string, spec: Partial<ControlSpec> = {}): ControlSpec => ({
  route: routeOf(id),
  params: {},
  query: [],
  body: { kind: 'valid', value: {} },
  contentType: 'json',
  origin: 'none',
  host: 'default',
  raw: false,
  ...spec,
})

/** One input per failure class of issue 12 this surface reaches, tried before the generated ones. */
function examples(kind: TransportKind): ControlSpec[] {
  return [
    // Class 4: a clock advance past the representable range (then clock, state, journal, webhooks 500).
    control('clock.advance', { body: { kind: 'valid', value: { ms: 1e16 } } }),
    control('clock.advance', { body: { kind: 'valid', value: { ms: 8.64e15 } } }),
    // Class 3: deep control bodies.
    control('webhooks.create', { body: { kind: 'deep-field', depth: 50_000 } }),
    control('webhooks.updateFlow', { params: { id: 'sync-reply' }, body: { kind: 'deep-field', depth: 50_000 } }),
    control('elements.add', { body: { kind: 'deep-field', depth: 50_000 } }),
    control('webhooks.create', { body: { kind: 'deep-field', depth: 300 } }),
    // Class 1 through the control plane: values accepted, then copied into a header.
    control('webhooks.updateFlow', { params: { id: 'sync-reply' }, body: { kind: 'valid', value: { response: { status: 200, headers: { 'x-flow': 'é€' }, body: 'x' } } } }),
    control('webhooks.updateFlow', { params: { id: 'sync-reply' }, body: { kind: 'valid', value: { response: { status: 200, headers: { 'x-flow': 'a\r\nx-injected: 1' }, body: 'x' } } } }),
    control('storages.add', { body: { kind: 'valid', value: { collectionId: '€', storageId: '日本', facets: [{ name: 'processes', views: ['default'] }] } } }),
    // Class 7: another web page driving the control plane.
    control('reset', { contentType: 'text' }),
    control('reset', { contentType: 'none', body: { kind: 'none' } }),
    control('reset', { origin: 'evil' }),
    control('state', { origin: 'evil', body: { kind: 'none' } }),
    ...(kind === 'server' ? [control('state', { host: 'evil', raw: true, body: { kind: 'none' } })] : []),
    // Class 8: a scenario or a journal filter aimed at something that does not exist.
    control('scenarios.on', { params: { name: 'webhook-queue-full' }, body: { kind: 'valid', value: { webhook: 'order' } } }),
    control('scenarios.on', { params: { name: 'token-server-error' }, body: { kind: 'valid', value: { client: 'ci-clinet' } } }),
    control('scenarios.on', { params: { name: 'latency' }, body: { kind: 'valid', value: { route: 'versions.lst' } } }),
    control('journal.list', { query: [['route', 'versions.lst']], body: { kind: 'none' } }),
  ]
}

/** Reads of the control plane that must answer whatever came before. */
const READS = ['/health', '/clock', '/state', '/journal', '/webhooks', '/scenarios', '/elements', '/oauth-clients', '/users']

contract(
  'fuzz: control plane',
  (h) => {
    const n = runs(60)
    it(`answers ${n} generated control requests without a 5xx, guards itself, changes nothing it refuses, stays usable`, { timeout: timeoutFor(n, 60) }, async () => {
      await fuzz(`control [${h.kind}]`, n, controlSpec(h.kind), async (spec) => {
        await fresh(h)
        const wire = wireOf(h, spec)
        const before = snapshot(h.emu)
        const clockBefore = h.emu.clock.now().getTime()
        const outcome = await send(h, wire)
        // A hang or a dropped connection ends the run; a 5xx is reported after seeing what it broke.
        let own: unknown
        try {
          expectAnswered(h, wire, outcome)
        } catch (error) {
          if (outcome.kind !== 'response') throw error
          own = error
        }
        if (outcome.kind !== 'response') return
        const request = describeWire(h, wire)

        // Crashes and broken state first; then the rules about what a request must be answered
        // (guards, depth, clock range), so a run that breaks something reports that.
        const rules: OracleFailure[] = []
        const guard = guardAnswer(h, spec)
        if (guard && !guard.includes(outcome.status)) {
          rules.push(new OracleFailure(`GUARD: expected ${guard.join(' or ')} (${spec.host !== 'default' ? `Host ${spec.host}, ` : ''}Origin ${spec.origin}, content type ${spec.contentType}), got ${describeOutcome(outcome)}\n  request: ${request}`, `GUARD ${guard.join('/')} not enforced (${STATE_CHANGING.includes(spec.route.method) ? 'state-changing' : spec.route.method}) -> ${outcome.status}`))
        }
        const depth = bodyDepth(h, spec)
        // Routes that read no body (reset, secret regeneration) need not judge one.
        if (!guard && depth !== undefined && depth > DEPTH_LIMIT + 40 && STATE_CHANGING.includes(spec.route.method) && spec.route.body !== 'empty' && ![404, 405].includes(outcome.status) && !(outcome.status === 400 && outcome.text.includes(String(DEPTH_LIMIT)))) {
          rules.push(new OracleFailure(`DEPTH: a body nested ${depth} deep: expected 400 naming the limit ${DEPTH_LIMIT}, got ${describeOutcome(outcome)}\n  request: ${request}`, `DEPTH: no ${DEPTH_LIMIT}-level limit -> ${outcome.status}`))
        }
        if (!guard && spec.route.id === 'clock.advance' && spec.body.kind === 'valid') {
          const ms = (spec.body.value as { ms: unknown }).ms
          if (typeof ms === 'number' && Number.isInteger(ms) && ms >= 0) {
            const past = clockBefore + ms > MAX_DATE_MS
            const now = h.emu.clock.now().getTime()
            if (past && outcome.status !== 400) rules.push(new OracleFailure(`CLOCK: advancing by ${ms} ms goes past 8.64e15 ms since the epoch: expected 400, got ${describeOutcome(outcome)}\n  request: ${request}`, `CLOCK past the range -> ${outcome.status}`))
            if (!past && (outcome.status !== 200 || now !== clockBefore + ms)) {
              rules.push(new OracleFailure(`CLOCK: advancing by ${ms} ms: expected 200 and the clock at ${clockBefore + ms}, got ${describeOutcome(outcome)}, clock at ${now}\n  request: ${request}`, `CLOCK within the range -> ${outcome.status}`))
            }
            // A clock moved within the range must leave everything working, before any reset.
            if (!past) await expectHealthy(h, `${request} (no reset in between)`)
          }
        }
        const unknownTarget = unknownTargetOf(h, spec)
        if (!guard && unknownTarget && outcome.status !== 400) {
          rules.push(new OracleFailure(`UNKNOWN TARGET: ${unknownTarget} must be refused with 400 naming it and the closest one, got ${describeOutcome(outcome)}\n  request: ${request}`, `UNKNOWN TARGET accepted: ${spec.route.id} ${unknownTarget.split(' ')[0]} -> ${outcome.status}`))
        }
        expectNothingStored(h, wire, outcome, before)
        if (outcome.status >= 200 && outcome.status < 300 && spec.route.id !== 'scenarios.on') await followUps(h, spec, outcome, wire)

        const broken: string[] = []
        const answers = await Promise.all(READS.map((read) => send(h, { method: 'GET', path: `/__svc-mock${read}` })))
        answers.forEach((answer, i) => {
          if (answer.kind !== 'response' || answer.status !== 200) broken.push(`GET /__svc-mock${READS[i]} -> ${describeOutcome(answer)}`)
        })
        const reset = await resetOverHttp(h)
        if (reset.kind !== 'response' || reset.status !== 200) broken.push(`POST /__svc-mock/reset -> ${describeOutcome(reset)}`)
        if (broken.length > 0) {
          throw new OracleFailure(
            `CONTROL PLANE BROKEN AFTERWARDS: ${broken.join('; ')}\n  after: ${request}, which answered ${describeOutcome(outcome)}`,
            `CONTROL PLANE BROKEN AFTERWARDS: ${broken.map((b) => b.slice(0, 60)).join('; ')}`,
          )
        }
        await expectHealthy(h, `${request} then POST /__svc-mock/reset`)
        if (own) throw own
        if (rules[0]) throw rules[0]
      }, examples(h.kind))
    })
  },
  { clock: 'manual' },
)
