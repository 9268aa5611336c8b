/**
 * Fuzz: the token endpoint, over both transports. Every grant (client credentials, authorization
 * code with a real or a made-up code, refresh with a real or made-up token, device code, unknown
 * ones), every encoding (urlencoded, multipart with text fields or a file, query string, query
 * plus body, JSON, text, no body, odd content types and charsets), client authentication basic,
 * post, both, none, or garbage (no colon, bad base64, Latin-1 bytes), extra and repeated
 * parameters, and now and then a per-request scenario.
 *
 * Properties (issue 12): no 5xx but scenario-made ones; no hang; health and the known-good
 * requests answered as usual afterwards; a refused request stores nothing; a secret in the query
 * string never counts (product.md, "token request encodings": a request with every parameter in the
 * query is granted only to a client that authenticated with the `Authorization` header, for client
 * credentials). And the wire format of refusals (product.md, "token errors"): RFC 6749 section 5.2
 * JSON, and `WWW-Authenticate: Basic` on `invalid_client` only when the client tried the
 * `Authorization` header.
 */
import fc from 'fast-check'
import { it } from 'vitest'
import { knownOr, latin1Text, sometimes, weirdText } from '../support/fuzz-arbitraries.js'
import { latin1Only } from '../support/fuzz-auth.js'
import {
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
  runs,
  send,
  snapshot,
  timeoutFor,
} from '../support/fuzz.js'
import type { Harness } from '../support/harness.js'
import { contract } from '../support/harness.js'

const GRANTS = ['client_credentials', 'authorization_code', 'refresh_token', 'urn:ietf:params:oauth:grant-type:device_code', 'password', 'implicit', 'CLIENT_CREDENTIALS', '']
const CLIENTS: Array<[string, string]> = [
  ['ci-client', 'ci-secret'],
  ['ci-post-client', 'ci-post-secret'],
  ['limited-client', 'limited-secret'],
  ['web-app', 'web-app-secret'],
  ['ci-client', 'wrong-secret'],
  ['content-cli', ''],
]
const SCOPES = ['studio', 'audit.log:read', 'machine-learning', 'package-manager', 'openid', 'intelligence.knowledge-models:read', 'unknown:scope']
const CALLBACK = 'http://127.0.0.1:8765/callback'

type Encoding = 'urlencoded' | 'multipart' | 'multipart-file' | 'query' | 'query+body' | 'json' | 'text' | 'none'

type ClientAuth =
  | { kind: 'basic'; id: string; secret: string; mangle: 'none' | 'no-colon' | 'bad-base64' | 'raw-latin1' | 'unencoded' }
  | { kind: 'post'; id: string; secret: string }
  | { kind: 'both'; id: string; secret: string }
  | { kind: 'none' }
  | { kind: 'scheme'; value: string }

interface TokenSpec {
  grant: string
  encoding: Encoding
  contentType: string | undefined
  auth: ClientAuth
  code: 'none' | 'real' | 'real-pkce' | 'made-up'
  refresh: 'none' | 'real' | 'made-up'
  params: Array<[string, string]>
  scenario: string | undefined
}

const credentials = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...CLIENTS) },
  { weight: 1, arbitrary: fc.tuple(weirdText(12), weirdText(12)) },
)

const clientAuth: fc.Arbitrary<ClientAuth> = fc.oneof(
  credentials.chain(([id, secret]) =>
    fc.record({
      kind: fc.constant('basic' as const),
      id: fc.constant(id),
      secret: fc.constant(secret),
      mangle: fc.constantFrom('none' as const, 'none' as const, 'none' as const, 'no-colon' as const, 'bad-base64' as const, 'raw-latin1' as const, 'unencoded' as const),
    }),
  ),
  credentials.map(([id, secret]) => ({ kind: 'post' as const, id, secret })),
  credentials.map(([id, secret]) => ({ kind: 'both' as const, id, secret })),
  fc.constant({ kind: 'none' as const }),
  latin1Text(30).map((value) => ({ kind: 'scheme' as const, value })),
)

const extraParam: fc.Arbitrary<[string, string]> = fc.oneof(
  { weight: 4, arbitrary: fc.array(knownOr(SCOPES, 4, 20), { maxLength: 4 }).map((s): [string, string] => ['scope', s.join(' ')]) },
  { weight: 2, arbitrary: knownOr([CALLBACK, 'http://localhost:9/callback', 'http://127.0.0.1/callback', 'https://evil.example/cb'], 3, 30).map((v): [string, string] => ['redirect_uri', v]) },
  { weight: 1, arbitrary: knownOr(['dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk', 'short'], 2, 60).map((v): [string, string] => ['code_verifier', v]) },
  { weight: 1, arbitrary: weirdText(20).map((v): [string, string] => ['state', v]) },
  { weight: 1, arbitrary: knownOr(['ci-client', 'web-app'], 2, 12).map((v): [string, string] => ['client_id', v]) },
  { weight: 1, arbitrary: weirdText(30).map((v): [string, string] => ['device_code', v]) },
  { weight: 1, arbitrary: fc.tuple(weirdText(10), weirdText(20)) },
)

const SCENARIOS = ['token-invalid-client', 'token-server-error', 'token-slow', 'token-short-lived', 'tokens-expired', 'latency:ms=30000', 'flaky:rate=1', 'network-error', 'token-server-error:client=ci-client']

const tokenSpec: fc.Arbitrary<TokenSpec> = fc.record({
  grant: knownOr(GRANTS, 6, 20),
  encoding: fc.constantFrom<Encoding>('urlencoded', 'urlencoded', 'multipart', 'multipart-file', 'query', 'query+body', 'json', 'text', 'none'),
  contentType: sometimes(
    fc.constantFrom(
      'application/x-www-form-urlencoded; charset=iso-8859-1',
      'application/x-www-form-urlencoded; charset=utf-16',
      'APPLICATION/X-WWW-FORM-URLENCODED',
      'multipart/form-data',
      'multipart/form-data; boundary=',
      'text/plain',
      'application/json',
      'application/octet-stream',
      '*/*',
      'x',
      'multipart/form-data; boundary="é"',
    ),
    5,
  ),
  auth: clientAuth,
  code: fc.constantFrom('none' as const, 'real' as const, 'real-pkce' as const, 'made-up' as const),
  refresh: fc.constantFrom('none' as const, 'real' as const, 'made-up' as const),
  params: fc.array(extraParam, { maxLength: 4 }),
  scenario: sometimes(fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...SCENARIOS) }, { weight: 1, arbitrary: latin1Text(12) }), 8),
})

/** A real authorization code for web-app (optionally with PKCE), from the authorize step. */
async function realCode(h: Harness, pkce: boolean): Promise<string> {
  const query = new URLSearchParams({ response_type: 'code', client_id: 'web-app', redirect_uri: CALLBACK, scope: 'studio', state: 's', ...(pkce ? { code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', code_challenge_method: 'S256' } : {}) })
  const response = await h.fetch(`/oauth2/authorize?${query.toString()}`, { redirect: 'manual' })
  const code = new URL(response.headers.get('location') ?? 'http://x/').searchParams.get('code')
  if (!code) throw new Error(`setup: the authorize step answered ${response.status} without a code`)
  return code
}

async function realRefreshToken(h: Harness): Promise<string> {
  const code = await realCode(h, false)
  const body = new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: CALLBACK, client_id: 'web-app', client_secret: 'web-app-secret' })
  const response = await h.fetch('/oauth2/token', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body })
  const json = (await response.json()) as { refresh_token?: string }
  if (!json.refresh_token) throw new Error(`setup: the code exchange answered ${response.status} without a refresh token`)
  return json.refresh_token
}

function basicValue(auth: Extract<ClientAuth, { kind: 'basic' }>): string {
  const form = (v: string): string => encodeURIComponent(v.replace(/[\uD800-\uDFFF]/g, '?')).replace(/%20/g, '+')
  switch (auth.mangle) {
    case 'none':
      return `Basic ${Buffer.from(`${form(auth.id)}:${form(auth.secret)}`).toString('base64')}`
    case 'no-colon':
      return `Basic ${Buffer.from(form(auth.id)).toString('base64')}`
    case 'bad-base64':
      return `Basic ${latin1Only(auth.id)}!!==`
    case 'raw-latin1':
      return `Basic ${Buffer.from(`${auth.id}:${auth.secret}`, 'utf8').toString('base64')}`
    case 'unencoded':
      return `Basic ${latin1Only(`${auth.id}:${auth.secret}`)}`
  }
}

async function wireOf(h: Harness, spec: TokenSpec): Promise<Wire> {
  const params: Array<[string, string]> = []
  if (spec.grant !== '') params.push(['grant_type', spec.grant])
  if (spec.code === 'real' || spec.code === 'real-pkce') params.push(['code', await realCode(h, spec.code === 'real-pkce')])
  if (spec.code === 'made-up') params.push(['code', 'made-up-code'])
  if (spec.refresh === 'real') params.push(['refresh_token', await realRefreshToken(h)])
  if (spec.refresh === 'made-up') params.push(['refresh_token', 'made-up-refresh-token'])
  const headers: Array<[string, string]> = []
  if (spec.auth.kind === 'basic' || spec.auth.kind === 'both') headers.push(['authorization', basicValue({ ...spec.auth, kind: 'basic', mangle: spec.auth.kind === 'both' ? 'none' : spec.auth.mangle })])
  if (spec.auth.kind === 'post' || spec.auth.kind === 'both') params.push(['client_id', spec.auth.id], ['client_secret', spec.auth.secret])
  if (spec.auth.kind === 'scheme') headers.push(['authorization', spec.auth.value === '' ? 'x' : spec.auth.value])
  params.push(...spec.params)
  if (spec.scenario !== undefined) headers.push(['x-svc-mock-scenario', latin1Only(spec.scenario)])

  const form = new URLSearchParams(params.map(([k, v]): [string, string] => [wellFormedText(k), wellFormedText(v)]))
  let path = '/oauth2/token'
  let body: Wire['body']
  let type: string | undefined
  switch (spec.encoding) {
    case 'urlencoded':
      body = form.toString()
      type = 'application/x-www-form-urlencoded'
      break
    case 'multipart':
    case 'multipart-file': {
      const data = new FormData()
      for (const [k, v] of form) data.append(k, v)
      if (spec.encoding === 'multipart-file') data.append('client_secret', new Blob([new Uint8Array([0xff, 0xfe, 0x00, 0x41])], { type: 'application/octet-stream' }), 'secret.bin')
      body = data
      break
    }
    case 'query':
      path += `?${form.toString()}`
      break
    case 'query+body': {
      const [first, ...rest] = [...form]
      path += `?${new URLSearchParams(first ? [first] : []).toString()}`
      body = new URLSearchParams(rest).toString()
      type = 'application/x-www-form-urlencoded'
      break
    }
    case 'json':
      body = JSON.stringify(Object.fromEntries(form))
      type = 'application/json'
      break
    case 'text':
      body = form.toString()
      type = 'text/plain'
      break
    case 'none':
      break
  }
  // An odd Content-Type replaces the encoding's (a FormData body keeps its own with the boundary).
  if (spec.contentType !== undefined && !(body instanceof FormData)) type = spec.contentType
  if (type !== undefined) headers.push(['content-type', type])
  return { method: 'POST', path, headers, ...(body === undefined ? {} : { body }) }
}

function wellFormedText(text: string): string {
  return text.replace(/[\uD800-\uDFFF]/g, '\uFFFD')
}

const scenarioMade = (spec: TokenSpec): boolean => spec.scenario !== undefined && SCENARIOS.includes(spec.scenario)

/** RFC 6749 section 5.2 and product.md's `invalid_client` rule. */
function expectTokenErrorWire(h: Harness, wire: Wire, outcome: Extract<Outcome, { kind: 'response' }>): void {
  if (outcome.status !== 400 && outcome.status !== 401) return
  const body = parseJson(outcome.text)
  const problems: string[] = []
  if (typeof body.error !== 'string') problems.push(`the body is not RFC 6749 JSON {error, error_description}`)
  const sentAuthorization = (wire.headers ?? []).find(([n]) => n === 'authorization')?.[1]
  const challenge = outcome.headers.get('www-authenticate')
  if (body.error === 'invalid_client') {
    if (outcome.status !== 401) problems.push(`invalid_client answered ${outcome.status}, not 401`)
    if (sentAuthorization === undefined && challenge !== null) problems.push(`WWW-Authenticate "${challenge}" on invalid_client for a client that did not use the Authorization header`)
    if (sentAuthorization !== undefined && /^basic /i.test(sentAuthorization) && !/^basic/i.test(challenge ?? '')) problems.push('no WWW-Authenticate: Basic on invalid_client for a client that sent Authorization: Basic')
  }
  if (problems.length > 0) throw new OracleFailure(`TOKEN ERROR WIRE FORMAT: ${problems.join('; ')}: ${describeOutcome(outcome)}\n  request: ${describeWire(h, wire)}`)
}

/**
 * Secrets (`client_secret`, `code`, `refresh_token`, `device_code`, `code_verifier`) never count
 * from the query string (RFC 6749 section 2.3.1): with every parameter in the query, the only
 * grant that needs none of them is client credentials authenticated by the Authorization header.
 */
function expectQuerySecretsIgnored(h: Harness, spec: TokenSpec, wire: Wire, outcome: Extract<Outcome, { kind: 'response' }>): void {
  if (spec.encoding !== 'query' || outcome.status !== 200) return
  const usedHeader = (wire.headers ?? []).some(([n, v]) => n === 'authorization' && /^basic /i.test(v))
  if (usedHeader && spec.grant === 'client_credentials') return
  throw new OracleFailure(`SECRET IN THE QUERY STRING COUNTED: 200 to a request with every parameter in the query (grant "${spec.grant}", ${usedHeader ? 'Basic' : 'no Authorization header'}): ${describeOutcome(outcome)}\n  request: ${describeWire(h, wire)}`, 'SECRET IN THE QUERY STRING COUNTED')
}

const request = (spec: Partial<TokenSpec>): TokenSpec => ({ grant: 'client_credentials', encoding: 'urlencoded', contentType: undefined, auth: { kind: 'none' }, code: 'none', refresh: 'none', params: [], scenario: undefined, ...spec })

/** Class 10: `invalid_client` for clients that never used the Authorization header (post clients). */
const WIRE_EXAMPLES: TokenSpec[] = [request({ params: [['client_id', 'ci-post-client'], ['client_secret', 'wrong']] }), request({})]

/** Issue 25: a post client's secret, a real code and a real refresh token, all in the query string. */
const QUERY_EXAMPLES: TokenSpec[] = [
  request({ encoding: 'query', auth: { kind: 'post', id: 'ci-post-client', secret: 'ci-post-secret' } }),
  request({ encoding: 'query', grant: 'authorization_code', code: 'real', auth: { kind: 'post', id: 'web-app', secret: 'web-app-secret' }, params: [['redirect_uri', CALLBACK]] }),
  request({ encoding: 'query', grant: 'refresh_token', refresh: 'real', auth: { kind: 'post', id: 'web-app', secret: 'web-app-secret' } }),
]

contract(
  'fuzz: token endpoint',
  (h) => {
    const n = runs(70, 0.75)
    it(`answers ${n} generated token requests without an undocumented 5xx or a hang, stores nothing it refuses, stays healthy`, { timeout: timeoutFor(n) }, async () => {
      await fuzz(`token [${h.kind}]`, n, tokenSpec, async (spec) => {
        await fresh(h)
        const wire = await wireOf(h, spec)
        const before = snapshot(h.emu)
        const outcome = await send(h, wire)
        expectAnswered(h, wire, outcome, { scenarioMade: scenarioMade(spec) })
        expectNothingStored(h, wire, outcome, before)
        if (!scenarioMade(spec)) expectQuerySecretsIgnored(h, spec, wire, outcome)
        await expectHealthy(h, describeWire(h, wire))
      }, QUERY_EXAMPLES)
    })

    const w = runs(40, 0.25)
    it(`refuses in the RFC 6749 wire format, with WWW-Authenticate: Basic only for clients that used the header (${w} requests)`, { timeout: timeoutFor(w) }, async () => {
      await fuzz(`token error wire format [${h.kind}]`, w, tokenSpec.map((spec) => ({ ...spec, scenario: undefined })), async (spec) => {
        await fresh(h)
        const wire = await wireOf(h, spec)
        const outcome = await send(h, wire)
        expectAnswered(h, wire, outcome)
        expectTokenErrorWire(h, wire, outcome)
      }, WIRE_EXAMPLES)
    })
  },
  { clock: 'manual' },
)
