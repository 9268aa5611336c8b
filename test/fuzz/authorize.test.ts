/**
 * Fuzz: the authorize endpoint, over both transports. `GET /oauth2/authorize` with generated query
 * parameters (response_type, client_id, redirect_uri — registered, on another loopback port,
 * unregistered, `javascript:`, non-ASCII —, scope, state, PKCE, login_hint), and the consent
 * page's `POST` form (decision allow, deny or anything, the forwarded fields, in the body or the
 * query, in odd content types), for a client that consents at once and one that shows the page,
 * now and then with a per-request scenario.
 *
 * Properties (issue 12 and product.md): no 5xx but scenario-made ones; no hang; a redirect only
 * ever goes to a URI registered for the client (loopback on any port); a refusal (error page, or
 * a redirect with `error`) stores no consent; health and the known-good requests afterwards.
 */
import fc from 'fast-check'
import { it } from 'vitest'
import { knownOr, latin1Text, sometimes, weirdText, wellFormed } from '../support/fuzz-arbitraries.js'
import { latin1Only } from '../support/fuzz-auth.js'
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
  runs,
  send,
  snapshot,
  timeoutFor,
} from '../support/fuzz.js'
import { type Harness, contract } from '../support/harness.js'

const REGISTERED = ['http://127.0.0.1/callback', 'http://localhost/callback']
const PAGE_CLIENT = 'fuzz-page-app'
const CLIENTS = ['web-app', 'web-app', PAGE_CLIENT, 'ci-client', 'unknown-client']
const REDIRECTS = [
  'http://127.0.0.1:8765/callback',
  'http://127.0.0.1/callback',
  'http://localhost:1/callback',
  'http://localhost/callback?x=1',
  'http://127.0.0.1:8765/callback/../evil',
  'http://127.0.0.1.evil.example/callback',
  'https://127.0.0.1/callback',
  'javascript:alert(1)',
  'http://evil.example/callback',
  '//evil.example/callback',
  'http://[::1]:9/callback',
  'http://127.0.0.1:99999/callback',
]
const SCOPES = ['studio', 'audit.log:read', 'openid', 'package-manager', 'unknown']
const SCENARIOS = ['consent-denied', 'latency:ms=30000', 'flaky:rate=1', 'network-error', 'token-server-error']

interface AuthorizeSpec {
  method: 'GET' | 'POST'
  params: Array<[string, string]>
  bodyParams: Array<[string, string]>
  contentType: 'form' | 'text' | 'json' | 'none'
  scenario: string | undefined
}

const param: fc.Arbitrary<[string, string]> = fc.oneof(
  { weight: 3, arbitrary: knownOr(['code', 'token', 'CODE', 'code id_token'], 5, 10).map((v): [string, string] => ['response_type', v]) },
  { weight: 4, arbitrary: knownOr(CLIENTS, 6, 16).map((v): [string, string] => ['client_id', v]) },
  { weight: 4, arbitrary: knownOr(REDIRECTS, 6, 30).map((v): [string, string] => ['redirect_uri', v]) },
  { weight: 2, arbitrary: fc.array(knownOr(SCOPES, 4, 12), { maxLength: 3 }).map((s): [string, string] => ['scope', s.join(' ')]) },
  { weight: 2, arbitrary: weirdText(30).map((v): [string, string] => ['state', v]) },
  { weight: 1, arbitrary: knownOr(['E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', 'short', 'x'.repeat(129)], 3, 60).map((v): [string, string] => ['code_challenge', v]) },
  { weight: 1, arbitrary: knownOr(['S256', 'plain', 's256'], 3, 8).map((v): [string, string] => ['code_challenge_method', v]) },
  { weight: 2, arbitrary: knownOr(['alice', 'bob', 'nobody'], 4, 12).map((v): [string, string] => ['login_hint', v]) },
  { weight: 1, arbitrary: knownOr(['allow', 'deny', 'Allow', ''], 4, 8).map((v): [string, string] => ['decision', v]) },
  { weight: 1, arbitrary: fc.tuple(weirdText(8), weirdText(12)) },
)

/** A request that usually has the parameters a client sends, and sometimes lacks or repeats some. */
const paramList = fc
  .tuple(
    fc.constantFrom<[string, string]>(['response_type', 'code']),
    knownOr(CLIENTS, 6, 16).map((v): [string, string] => ['client_id', v]),
    knownOr(REDIRECTS, 6, 30).map((v): [string, string] => ['redirect_uri', v]),
    fc.array(param, { maxLength: 4 }),
    fc.array(fc.nat(), { maxLength: 2 }),
  )
  .map(([rt, client, redirect, extra, drops]) => {
    const all = [rt, client, redirect, ...extra]
    for (const d of drops) all.splice(d % all.length, 1)
    return all
  })

const authorizeSpec: fc.Arbitrary<AuthorizeSpec> = fc.record({
  method: fc.constantFrom('GET' as const, 'GET' as const, 'POST' as const),
  params: paramList,
  bodyParams: fc.array(param, { maxLength: 3 }),
  contentType: fc.constantFrom('form' as const, 'form' as const, 'text' as const, 'json' as const, 'none' as const),
  scenario: sometimes(fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...SCENARIOS) }, { weight: 1, arbitrary: latin1Text(10) }), 8),
})

function wireOf(spec: AuthorizeSpec): Wire {
  const query = new URLSearchParams(spec.params.map(([k, v]): [string, string] => [wellFormed(k), wellFormed(v)]))
  const headers: Array<[string, string]> = []
  if (spec.scenario !== undefined) headers.push(['x-svc-mock-scenario', latin1Only(spec.scenario)])
  if (spec.method === 'GET') return { method: 'GET', path: `/oauth2/authorize?${query.toString()}`, headers }
  // The consent form posts the forwarded fields and the decision in its body.
  const form = new URLSearchParams([...query, ...spec.bodyParams.map(([k, v]): [string, string] => [wellFormed(k), wellFormed(v)])])
  const body = spec.contentType === 'json' ? JSON.stringify(Object.fromEntries(form)) : form.toString()
  const type = { form: 'application/x-www-form-urlencoded', text: 'text/plain', json: 'application/json', none: undefined }[spec.contentType]
  if (type) headers.push(['content-type', type])
  return { method: 'POST', path: '/oauth2/authorize', headers, body: type ? body : new TextEncoder().encode(body) }
}

/** Is `location` one of the client's registered redirect URIs (loopback: any port)? */
function registered(location: string, base: string): boolean {
  let url: URL
  try {
    url = new URL(location, base)
  } catch {
    return false
  }
  return REGISTERED.some((uri) => {
    const r = new URL(uri)
    return url.protocol === r.protocol && url.hostname === r.hostname && url.pathname === r.pathname && url.username === '' && url.password === ''
  })
}

async function setUp(h: Harness): Promise<void> {
  await h.emu.oauth.clients.create({ clientId: PAGE_CLIENT, name: 'Fuzz page app', grantType: 'authorization_code', authMethod: 'client_secret_post', redirectUris: REGISTERED, consent: 'page' })
}

contract(
  'fuzz: authorize endpoint',
  (h) => {
    const n = runs(50)
    it(`answers ${n} generated authorize requests without a 5xx or a hang, redirects only to registered URIs, stores nothing it refuses`, { timeout: timeoutFor(n) }, async () => {
      await fuzz(`authorize [${h.kind}]`, n, authorizeSpec, async (spec) => {
        await fresh(h)
        await setUp(h)
        const wire = wireOf(spec)
        const before = snapshot(h.emu)
        const outcome = await send(h, wire)
        const scenarioMade = spec.scenario !== undefined && SCENARIOS.includes(spec.scenario)
        expectAnswered(h, wire, outcome, { scenarioMade })
        if (outcome.kind === 'response' && outcome.status >= 300 && outcome.status < 400) {
          const location = outcome.headers.get('location') ?? ''
          if (!registered(location, h.origin)) {
            throw new OracleFailure(`OPEN REDIRECT: ${outcome.status} to "${location}", which is not a registered redirect URI\n  request: ${describeWire(h, wire)}`)
          }
          // A redirect that carries an error is a refusal: it stores no consent, no code.
          if (new URL(location, h.origin).searchParams.has('error') && snapshot(h.emu) !== before) {
            throw new OracleFailure(`STORED FROM A REFUSED REQUEST: redirected with an error (${location}) but the state changed\n  request: ${describeWire(h, wire)}`)
          }
        }
        if (!scenarioMade) expectNothingStored(h, wire, outcome, before)
        if (outcome.kind === 'response' && outcome.status >= 500 && !scenarioMade) throw new OracleFailure(`UNDOCUMENTED ${outcome.status}: ${describeOutcome(outcome)}`)
        await expectHealthy(h, describeWire(h, wire))
      })
    })
  },
  { clock: 'manual' },
)
