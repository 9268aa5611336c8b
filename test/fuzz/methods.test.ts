/**
 * Fuzz: every method on every surface, over both transports. Standard methods a path does not
 * take, methods no route takes (PROPFIND, PURGE, a made-up one) and, over the socket, the ones
 * fetch refuses to send (TRACE, TRACK, CONNECT), on the token, authorize, discovery, JWKS,
 * versions, webhook and control-plane paths and on a path svc-mock does not know.
 *
 * Properties (issue 12, product.md "Quality bars" and "Emulator behaviour"): an answer, never a
 * 5xx or a closed connection; a known path with a method it does not take answers 405 with
 * `Allow`; a method no route takes answers 405 or 501 (404 on an unknown path); nothing is
 * stored; health and the known-good requests afterwards.
 */
import fc from 'fast-check'
import { it } from 'vitest'
import {
  OracleFailure,
  type Wire,
  describeOutcome,
  describeWire,
  expectAnswered,
  expectHealthy,
  expectNothingStored,
  fresh,
  fuzz,
  resetOverHttp,
  runs,
  send,
  snapshot,
  timeoutFor,
} from '../support/fuzz.js'
import { VERSIONS, type TransportKind, contract } from '../support/harness.js'

const PATHS: Array<{ path: string; methods: string[] }> = [
  { path: '/oauth2/token', methods: ['POST'] },
  { path: '/oauth2/authorize?response_type=code&client_id=web-app', methods: ['GET', 'HEAD', 'POST'] },
  { path: '/.well-known/openid-configuration', methods: ['GET', 'HEAD'] },
  { path: '/.well-known/jwks.json', methods: ['GET', 'HEAD'] },
  { path: VERSIONS(), methods: ['GET', 'HEAD'] },
  { path: '/hooks/orders', methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] },
  { path: '/hooks/unknown-hook', methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] },
  { path: '/__svc-mock/health', methods: ['GET', 'HEAD'] },
  { path: '/__svc-mock/reset', methods: ['POST'] },
  { path: '/__svc-mock/clock/advance', methods: ['POST'] },
  { path: '/__svc-mock/webhooks', methods: ['GET', 'HEAD', 'POST'] },
  { path: '/__svc-mock/webhooks/orders', methods: ['GET', 'HEAD', 'DELETE'] },
  { path: '/__svc-mock/scenarios/flaky', methods: ['POST', 'DELETE'] },
  { path: '/__svc-mock/state', methods: ['GET', 'HEAD'] },
  { path: '/no/such/path', methods: [] },
]
const STANDARD = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']
/** Methods no route takes that fetch still sends. */
const ODD = ['PROPFIND', 'PURGE', 'LINK', 'M-SEARCH', 'FOO']
/** Methods fetch refuses to send (forbidden methods): only a socket can. */
const RAW_ONLY = ['TRACE', 'TRACK', 'CONNECT']

interface MethodSpec {
  target: { path: string; methods: string[] }
  method: string
  withBody: boolean
}

function methodSpec(kind: TransportKind): fc.Arbitrary<MethodSpec> {
  const methods = kind === 'server' ? [...STANDARD, ...ODD, ...RAW_ONLY, ...RAW_ONLY] : [...STANDARD, ...ODD]
  return fc.record({ target: fc.constantFrom(...PATHS), method: fc.constantFrom(...methods), withBody: fc.boolean() })
}

function wireOf(kind: TransportKind, spec: MethodSpec): Wire {
  const bodyAllowed = !['GET', 'HEAD'].includes(spec.method) || kind === 'server'
  const body = spec.withBody && bodyAllowed ? '{}' : undefined
  const raw = RAW_ONLY.includes(spec.method) || (kind === 'server' && body !== undefined && ['GET', 'HEAD'].includes(spec.method))
  return { method: spec.method, path: spec.target.path, headers: body ? [['content-type', 'application/json']] : [], ...(body ? { body } : {}), raw }
}

/** Class 2: TRACE and CONNECT (a socket only), and a method no route takes. */
function examples(kind: TransportKind): MethodSpec[] {
  const hooks = PATHS.find((p) => p.path === '/hooks/orders') as MethodSpec['target']
  const token = PATHS[0] as MethodSpec['target']
  return [
    { target: hooks, method: 'PROPFIND', withBody: false },
    ...(kind === 'server' ? [{ target: hooks, method: 'TRACE', withBody: false }, { target: token, method: 'CONNECT', withBody: false }] : []),
  ]
}

contract(
  'fuzz: methods on every surface',
  (h) => {
    const n = runs(40, 0.3)
    it(`answers ${n} generated method/path pairs with 405/501 where no route takes the method, never a 5xx or a dropped connection`, { timeout: timeoutFor(n) }, async () => {
      await fuzz(`methods [${h.kind}]`, n, methodSpec(h.kind), async (spec) => {
        await fresh(h)
        const wire = wireOf(h.kind, spec)
        const before = snapshot(h.emu)
        const outcome = await send(h, wire)
        // product.md: a method no route takes answers 405 or 501.
        expectAnswered(h, wire, outcome, { webhook: spec.target.path.startsWith('/hooks/'), allowed: STANDARD.includes(spec.method) ? [] : [501] })
        const takes = spec.target.methods.includes(spec.method)
        const known = spec.target.methods.length > 0
        if (!takes) {
          const expected = !STANDARD.includes(spec.method) ? [405, 501, ...(known ? [] : [404])] : known ? [405] : [404]
          const allow = outcome.headers.get('allow')
          if (!expected.includes(outcome.status) || (outcome.status === 405 && !allow)) {
            throw new OracleFailure(
              `METHOD ${spec.method} on ${spec.target.path}: expected ${expected.join(' or ')}${expected.includes(405) ? ' (405 with Allow)' : ''}, got ${describeOutcome(outcome)}${outcome.status === 405 && !allow ? ' without Allow' : ''}\n  request: ${describeWire(h, wire)}`,
              `METHOD ${spec.method} (${known ? 'known path' : 'unknown path'}) -> ${outcome.status}`,
            )
          }
          expectNothingStored(h, wire, outcome, before)
        } else {
          // A request the path takes may change things on purpose (DELETE a webhook, switch flaky on).
          const reset = await resetOverHttp(h)
          if (reset.kind !== 'response' || reset.status !== 200) throw new OracleFailure(`POST /__svc-mock/reset -> ${describeOutcome(reset)}\n  after: ${describeWire(h, wire)}`)
        }
        await expectHealthy(h, describeWire(h, wire))
      }, examples(h.kind))
    })
  },
  { clock: 'manual' },
)
