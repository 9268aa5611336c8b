/**
 * Fuzz: the versions operation, over both transports. Generated path segments (known ones, and
 * `€`, `日本`, percent signs, control characters…), `$filter` (trees printed any way, token soup,
 * parentheses thousands deep, long AND/OR chains), `$select`, `$resources`, `$expandRelated`,
 * `$page`/`$pageSize`, `api-version` as header or query, every `Authorization` form (forged JWTs
 * with an odd `iss` included), and now and then a per-request scenario.
 *
 * Properties (issue 12): no 5xx but scenario-made ones; no hang; health and the known-good
 * requests answered as usual afterwards; a `$filter` nested over 256 levels is a 400 naming the
 * limit; an answered 200 is the documented list.
 */
import fc from 'fast-check'
import { it } from 'vitest'
import { DEPTH_LIMIT, type FilterSpec, encodeText, filterSpec, filterText, knownOr, latin1Text, sometimes, weirdText } from '../support/fuzz-arbitraries.js'
import { type AuthSpec, FUZZ_SIGNING_FIXTURES, PINNED_KID, authSpec, authorization, latin1Only } from '../support/fuzz-auth.js'
import {
  OracleFailure,
  type Wire,
  describeOutcome,
  describeWire,
  expectAnswered,
  expectHealthy,
  fresh,
  fuzz,
  runs,
  send,
  timeoutFor,
} from '../support/fuzz.js'
import { SEED_ELEMENT, contract } from '../support/harness.js'

const RESOURCES = ['attributes', 'related', 'children', 'content', 'displayNames', 'rootPath']
const NAMES = ['name', 'version', 'state1', 'isReleased', 'author', 'owner', 'releaseHistory', 'createdBy', 'changedBy', 'relBy', 'validFrom']

type Encoding = 'encoded' | 'raw' | 'broken-percent'
interface Segment {
  text: string
  encoding: Encoding
}

interface VersionsSpec {
  segments: [Segment, Segment, Segment, Segment, Segment]
  query: Array<[string, QueryValue]>
  apiVersionHeader: string | undefined
  auth: AuthSpec
  scenario: string | undefined
}

type QueryValue = { kind: 'text'; text: string } | { kind: 'filter'; filter: FilterSpec }

const segment = (known: string): fc.Arbitrary<Segment> =>
  fc.record({
    text: fc.oneof({ weight: 6, arbitrary: fc.constant(known) }, { weight: 2, arbitrary: weirdText(16) }, { weight: 1, arbitrary: fc.constantFrom('€', '日本', 'é€', 'acme-collection€') }),
    encoding: fc.constantFrom<Encoding>('encoded', 'encoded', 'raw', 'broken-percent'),
  })

const commaList = (known: readonly string[]): fc.Arbitrary<string> => fc.array(knownOr(known, 5, 12), { minLength: 0, maxLength: 4 }).map((items) => items.join(','))

const pageValue = fc.oneof(
  fc.integer({ min: -3, max: 10 }).map(String),
  fc.constantFrom('1e16', '9007199254740993', '1.5', '0x10', '', ' ', 'abc', '1e400', '-0', '∞', '١'),
)

const queryParam: fc.Arbitrary<[string, QueryValue]> = fc.oneof(
  { weight: 5, arbitrary: filterSpec().map((filter): [string, QueryValue] => ['$filter', { kind: 'filter', filter }]) },
  { weight: 2, arbitrary: commaList(NAMES).map((text): [string, QueryValue] => ['$select', { kind: 'text', text }]) },
  { weight: 2, arbitrary: commaList(RESOURCES).map((text): [string, QueryValue] => ['$resources', { kind: 'text', text }]) },
  { weight: 2, arbitrary: commaList(['author', 'owner', 'releaseHistory', 'createdBy']).map((text): [string, QueryValue] => ['$expandRelated', { kind: 'text', text }]) },
  { weight: 2, arbitrary: fc.tuple(fc.constantFrom('$page', '$pageSize'), pageValue).map(([name, text]): [string, QueryValue] => [name, { kind: 'text', text }]) },
  { weight: 1, arbitrary: knownOr(['4.0', '4', '4.00', '3.0', ''], 3, 8).map((text): [string, QueryValue] => ['api-version', { kind: 'text', text }]) },
  { weight: 1, arbitrary: fc.tuple(weirdText(10), weirdText(20)).map(([name, text]): [string, QueryValue] => [name, { kind: 'text', text }]) },
)

const SCENARIOS = ['versions-server-error', 'versions-not-found', 'insufficient-permissions', 'rate-limited', 'latency:ms=50000', 'flaky:rate=1', 'network-error', 'tokens-expired', 'static-keys-rejected']

const versionsSpec: fc.Arbitrary<VersionsSpec> = fc.record({
  segments: fc.tuple(segment('acme-collection'), segment('acme-tenant'), segment('processes'), segment('default'), segment(SEED_ELEMENT)),
  query: fc.array(queryParam, { maxLength: 4 }),
  apiVersionHeader: sometimes(knownOr(['4.0', '4', '3.0', ''], 3, 8).map(latin1Only), 4),
  auth: authSpec(),
  scenario: sometimes(fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...SCENARIOS) }, { weight: 1, arbitrary: latin1Text(12) }), 8),
})

function encodeSegment({ text, encoding }: Segment): string {
  if (encoding === 'raw') return text
  if (encoding === 'broken-percent') return `${encodeText(text)}%E2%82`
  return encodeText(text)
}

function queryText(value: QueryValue): string {
  return value.kind === 'filter' ? filterText(value.filter) : value.text
}

async function wireOf(h: Parameters<typeof authorization>[0], spec: VersionsSpec): Promise<Wire> {
  const [collection, storage, facet, view, element] = spec.segments.map(encodeSegment)
  const query = new URLSearchParams()
  for (const [name, value] of spec.query) query.append(name, queryText(value))
  const search = query.size > 0 ? `?${query.toString()}` : ''
  const headers: Array<[string, string]> = []
  const auth = await authorization(h, spec.auth)
  if (auth !== undefined) headers.push(['authorization', auth])
  if (spec.apiVersionHeader !== undefined) headers.push(['api-version', spec.apiVersionHeader])
  if (spec.scenario !== undefined) headers.push(['x-svc-mock-scenario', spec.scenario])
  return { method: 'GET', path: `/${collection}/${storage}/_api/rest/facets/${facet}/views/${view}/elements/${element}/versions${search}`, headers }
}

/** The scenario header names a scenario that makes errors or faults. */
function scenarioMade(spec: VersionsSpec): boolean {
  return spec.scenario !== undefined && SCENARIOS.some((s) => spec.scenario === s)
}

const KNOWN = { collection: 'acme-collection', storage: 'acme-tenant', facet: 'processes', view: 'default', element: SEED_ELEMENT }
const at = (overrides: Partial<typeof KNOWN> = {}, encoding: Encoding = 'encoded'): VersionsSpec['segments'] => {
  const k = { ...KNOWN, ...overrides }
  return [k.collection, k.storage, k.facet, k.view, k.element].map((text) => ({ text, encoding })) as VersionsSpec['segments']
}
const example = (spec: Partial<VersionsSpec>): VersionsSpec => ({ segments: at(), query: [], apiVersionHeader: undefined, auth: { kind: 'app-key' }, scenario: undefined, ...spec })

/** One input per failure class of issue 12 this surface reaches, tried before the generated ones. */
const EXAMPLES: VersionsSpec[] = [
  // Class 1: request text copied into x-svc-mock-reason / WWW-Authenticate.
  example({ segments: at({ collection: '€' }), auth: { kind: 'user-key', user: 'alice' } }),
  example({ segments: at({ storage: '日本' }) }),
  example({ auth: { kind: 'forged', claims: { iss: 'é€' }, drop: [] } }),
  example({ auth: { kind: 'crafted', header: { alg: 'é€', kid: PINNED_KID, typ: 'JWT' }, payload: {}, signature: 'AAAA' } }),
  example({ segments: at({ storage: 'a\nb' }) }),
  // In-process: msw's own path matching decodes a malformed percent-encoding.
  example({ segments: at({ view: 'default' }, 'broken-percent') }),
  // Class 3: $filter nesting, and a long flat chain.
  example({ query: [['$filter', { kind: 'filter', filter: { kind: 'parens', depth: 7000, inner: "name -eq 'Order to Cash'" } }]] }),
  example({ query: [['$filter', { kind: 'filter', filter: { kind: 'chain', clauses: 50_000, op: 'AND' } }]] }),
]

contract(
  'fuzz: versions',
  (h) => {
    const n = runs(80)
    it(`answers ${n} generated requests without an undocumented 5xx or a hang, and stays healthy`, { timeout: timeoutFor(n) }, async () => {
      await fuzz(`versions [${h.kind}]`, n, versionsSpec, async (spec) => {
        await fresh(h)
        const wire = await wireOf(h, spec)
        const outcome = await send(h, wire)
        expectAnswered(h, wire, outcome, { scenarioMade: scenarioMade(spec) })
        if (outcome.kind === 'response' && outcome.status === 200) {
          const body = JSON.parse(outcome.text) as { count?: unknown; elements?: unknown }
          if (typeof body.count !== 'number' || !Array.isArray(body.elements)) {
            throw new OracleFailure(`200 without the version list: ${describeOutcome(outcome)}\n  request: ${describeWire(h, wire)}`)
          }
        }
        await expectHealthy(h, describeWire(h, wire))
      }, EXAMPLES)
    })

    const d = runs(20, 0.2)
    it(`refuses a $filter nested over ${DEPTH_LIMIT} levels with a 400 naming the limit (${d} depths)`, { timeout: timeoutFor(d) }, async () => {
      const deep = fc.record({
        // Paths up to ~7,000 parentheses fit the node:http server's 16 KiB request line.
        depth: fc.oneof(fc.integer({ min: 1, max: 200 }), fc.integer({ min: 300, max: 7000 })),
        inner: fc.constantFrom("name -eq 'Order to Cash'", "state -ne 'expired' OR IsNull(version)"),
      })
      await fuzz(`versions $filter depth [${h.kind}]`, d, deep, async ({ depth, inner }) => {
        await fresh(h)
        const filter = `${'('.repeat(depth)}${inner}${')'.repeat(depth)}`
        const wire: Wire = { method: 'GET', path: `/acme-collection/acme-tenant/_api/rest/facets/processes/views/default/elements/${SEED_ELEMENT}/versions?$filter=${encodeURIComponent(filter)}`, headers: [['authorization', 'AppKey svcmock-app-key']] }
        const outcome = await send(h, wire)
        expectAnswered(h, wire, outcome)
        const ok = depth <= 200 ? outcome.status === 200 : outcome.status === 400 && outcome.text.includes(String(DEPTH_LIMIT))
        if (!ok) {
          throw new OracleFailure(
            `$filter nested ${depth} deep: expected ${depth <= 200 ? '200' : `400 naming the limit ${DEPTH_LIMIT}`}, got ${describeOutcome(outcome)}\n  request: ${describeWire(h, wire)}`,
          )
        }
        await expectHealthy(h, describeWire(h, wire))
      })
    })
  },
  { clock: 'manual', tokenAlgorithm: 'ES256', fixtures: FUZZ_SIGNING_FIXTURES },
)
