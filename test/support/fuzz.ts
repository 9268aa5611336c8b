/**
 * The fuzz suite's runner and oracles (issue 12). Every property:
 *
 * - runs a bounded, seeded number of generated inputs: about a hundred per property and transport
 *   in the default run (`npm run test:all`, and CI: some 2,400 in all), 10,000 per surface with `npm run fuzz`
 *   (`FUZZ_RUNS` and `FUZZ_SEED` override the count and the seed);
 * - sends each input through the contract harness (in-process msw and the real node:http server),
 *   or, for what `fetch` cannot send (TRACE, CONNECT, raw header bytes), straight over a socket;
 * - never waits on the wall clock: a request parked on the emulator's manual clock (a flow's
 *   response step, a delay) is moved on with `emu.clock.advance()`; a wall-clock AbortSignal
 *   only detects a request that hangs anyway;
 * - then checks what the issue asks of every input: no 5xx outside the documented ones, no hang,
 *   `GET /__svc-mock/health` still 200, the known-good requests still answered as usual, and
 *   nothing stored from a refused request.
 *
 * A failure names the seed, the shrunk input and the concrete request, so it can be replayed with
 * `FUZZ_SEED=<seed> npx vitest run test/fuzz/<file>` or turned into a curl line.
 */
import { request as httpRequest } from 'node:http'
import fc from 'fast-check'
import type { Emulator } from '../../src/index.js'
import { APP_KEY, type Harness, VERSIONS } from './harness.js'

// --- Configuration -------------------------------------------------------------------------------

/** `npm run fuzz` (vitest `--mode fuzz`) sets FUZZ=1: 10,000 inputs per surface. */
export const FUZZ_MODE = process.env.FUZZ === '1'
/** The fixed default seed of the CI run; `FUZZ_SEED` replays or explores another. */
export const FUZZ_SEED = envInt('FUZZ_SEED') ?? 20_261_123
const RUNS_OVERRIDE = envInt('FUZZ_RUNS')

/** Wall-clock bound of one request (hang detector only: nothing waits for it to pass). */
export const HANG_MS = envInt('FUZZ_HANG_MS') ?? 5_000
/** Emulator time one step of clock driving moves: past the 40 s webhook response timeout. */
const ADVANCE_STEP_MS = 41_000
/** At most this many steps per request (3 min 25 s of emulator time). */
const MAX_ADVANCES = 5
/**
 * Wall-clock budget for shrinking one failure before the smallest input so far is reported
 * (`FUZZ_SHRINK_MS`): short in the default run, so a failing suite stays quick.
 */
const SHRINK_BUDGET_MS = envInt('FUZZ_SHRINK_MS') ?? (FUZZ_MODE ? 60_000 : 1_500)

function envInt(name: string): number | undefined {
  const raw = process.env[name]
  if (raw === undefined || raw.trim() === '') return undefined
  const n = Number(raw)
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`${name} must be a whole number >= 0, got "${raw}"`)
  return n
}

/**
 * Inputs per property and transport: `ci` in the default run, FUZZ_RUNS (default 10,000 for
 * `npm run fuzz`) otherwise. A surface's properties share that count by weight, so each surface
 * gets at least FUZZ_RUNS inputs per transport in fuzz mode.
 */
export function runs(ci: number, share = 1): number {
  if (RUNS_OVERRIDE !== undefined) return Math.max(1, Math.ceil(RUNS_OVERRIDE * share))
  return FUZZ_MODE ? Math.ceil(10_000 * share) : ci
}

/** The vitest timeout of a property that runs `n` inputs (generous: it only catches a stuck run). */
export function timeoutFor(n: number, msPerRun = 40): number {
  return 30_000 + n * msPerRun + SHRINK_BUDGET_MS
}

/**
 * fc.assert with the suite's seed, run count and bounded shrinking; on failure the error names
 * the seed and how to replay it. `property` is built per call so each transport has its own.
 */
export async function fuzz<T>(
  name: string,
  numRuns: number,
  arbitrary: fc.Arbitrary<T>,
  predicate: (input: T) => Promise<void>,
  /** Inputs tried first, every run: one for each failure class the issue names, so even the small default run covers them. */
  examples: readonly T[] = [],
): Promise<void> {
  if (COLLECT) return collectFailures(name, numRuns, arbitrary, predicate, examples)
  let firstFailure: number | undefined
  const property = fc.asyncProperty(arbitrary, async (input) => {
    // Shrinking past its budget: stop descending (a skipped candidate counts as "not failing").
    if (firstFailure !== undefined && Date.now() - firstFailure > SHRINK_BUDGET_MS) fc.pre(false)
    try {
      await predicate(input)
    } catch (error) {
      firstFailure ??= Date.now()
      throw error
    }
  })
  try {
    await fc.assert(property, { seed: FUZZ_SEED, numRuns, includeErrorInReport: true, examples: examples.map((e): [T] => [e]) })
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    throw new Error(
      `fuzz property "${name}" failed (FUZZ_SEED=${FUZZ_SEED}, ${numRuns} runs; replay: FUZZ_SEED=${FUZZ_SEED} FUZZ_RUNS=${numRuns} npx vitest run test/fuzz)\n${message}`,
    )
  }
}

/**
 * `FUZZ_COLLECT=1`: run every input instead of stopping at the first failure, and report each
 * distinct failure (by its signature) once, with how often it happened and its smallest input.
 * For triage; the property still fails when anything failed.
 */
const COLLECT = process.env.FUZZ_COLLECT === '1'

async function collectFailures<T>(name: string, numRuns: number, arbitrary: fc.Arbitrary<T>, predicate: (input: T) => Promise<void>, examples: readonly T[]): Promise<void> {
  const seen = new Map<string, { count: number; input: string; message: string }>()
  const property = fc.asyncProperty(arbitrary, async (input) => {
    try {
      await predicate(input)
    } catch (error) {
      const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error)
      const signature = error instanceof OracleFailure ? error.signature : `THREW ${message.split('\n')[0]?.slice(0, 100)}`
      const printed = fc.stringify(input)
      const known = seen.get(signature)
      if (!known) seen.set(signature, { count: 1, input: printed, message })
      else {
        known.count++
        if (printed.length < known.input.length) Object.assign(known, { input: printed, message })
      }
    }
  })
  await fc.assert(property, { seed: FUZZ_SEED, numRuns, examples: examples.map((e): [T] => [e]) })
  if (seen.size === 0) return
  const lines = [...seen.entries()].map(([signature, { count, input, message }]) => `\n### ${signature}  (${count} of ${numRuns} inputs)\n  smallest input: ${preview(input, 1500)}\n  ${preview(message, 2500)}`)
  throw new Error(`fuzz property "${name}": ${seen.size} distinct failure(s) (FUZZ_SEED=${FUZZ_SEED}, ${numRuns} runs)${lines.join('')}`)
}

// --- Sending requests ----------------------------------------------------------------------------

/** One request as the fuzz suite sends it: plain data, so a failure can print it. */
export interface Wire {
  method: string
  /** Path and query, already encoded as it goes on the wire. */
  path: string
  headers?: Array<[string, string]>
  body?: string | Uint8Array | FormData
  /** Over a socket with node:http rather than fetch (server transport only). */
  raw?: boolean
}

export type Outcome =
  | { kind: 'response'; status: number; headers: Headers; text: string }
  | { kind: 'network-error'; error: string }
  | { kind: 'hang' }

/** Sends a request, moving the emulator clock on while it is parked on it; detects hangs. */
export async function send(h: Harness, wire: Wire): Promise<Outcome> {
  const controller = new AbortController()
  const timer = setTimeout(() => controller.abort(new Error('hang')), HANG_MS)
  try {
    const pending = wire.raw ? rawSend(h, wire, controller.signal) : fetchSend(h, wire, controller.signal)
    // The detector wins even when the transport ignores the abort (a handler that never returns).
    const hang = new Promise<Outcome>((resolve) => controller.signal.addEventListener('abort', () => resolve({ kind: 'hang' }), { once: true }))
    return await driveClock(h.emu, Promise.race([pending, hang]))
  } finally {
    clearTimeout(timer)
  }
}

async function fetchSend(h: Harness, wire: Wire, signal: AbortSignal): Promise<Outcome> {
  let response: Response
  try {
    response = await h.fetch(wire.path, {
      method: wire.method,
      headers: wire.headers ?? [],
      ...(wire.body === undefined ? {} : { body: wire.body }),
      redirect: 'manual',
      signal,
    })
  } catch (error) {
    if (signal.aborted) return { kind: 'hang' }
    return { kind: 'network-error', error: describeError(error) }
  }
  // A live-event stream never ends: its status and headers are the answer.
  if ((response.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
    // Not awaited: cancelling an in-process (msw) stream may wait for data that never comes.
    response.body?.cancel().catch(() => undefined)
    return { kind: 'response', status: response.status, headers: response.headers, text: '' }
  }
  try {
    return { kind: 'response', status: response.status, headers: response.headers, text: await response.text() }
  } catch (error) {
    if (signal.aborted) return { kind: 'hang' }
    return { kind: 'network-error', error: `the body failed: ${describeError(error)}` }
  }
}

/** node:http straight to the server: any method (TRACE, CONNECT), any Latin-1 header bytes. */
function rawSend(h: Harness, wire: Wire, signal: AbortSignal): Promise<Outcome> {
  if (h.kind !== 'server') throw new Error('raw requests need the server transport')
  const url = new URL(h.origin)
  return new Promise<Outcome>((resolve) => {
    let done = false
    const finish = (outcome: Outcome): void => {
      if (done) return
      done = true
      resolve(outcome)
    }
    const headers: Record<string, string | string[]> = {}
    for (const [name, value] of wire.headers ?? []) {
      const existing = headers[name]
      headers[name] = existing === undefined ? value : [...(Array.isArray(existing) ? existing : [existing]), value]
    }
    const body = wire.body === undefined ? undefined : typeof wire.body === 'string' ? Buffer.from(wire.body, 'utf8') : wire.body
    if (body instanceof FormData) throw new Error('raw requests take string or byte bodies')
    if (body !== undefined) headers['content-length'] = String(body.byteLength)
    let req: ReturnType<typeof httpRequest>
    try {
      req = httpRequest({ host: url.hostname, port: url.port, method: wire.method, path: wire.path, headers, agent: false, signal })
    } catch (error) {
      finish({ kind: 'network-error', error: `the client refused to send it: ${describeError(error)}` })
      return
    }
    const collect = (res: import('node:http').IncomingMessage, after?: () => void): void => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () => {
        finish({ kind: 'response', status: res.statusCode ?? 0, headers: toHeaders(res.rawHeaders), text: Buffer.concat(chunks).toString('utf8') })
        after?.()
      })
      res.on('error', (error) => finish({ kind: 'network-error', error: `the body failed: ${describeError(error)}` }))
    }
    req.on('response', (res) => {
      // A live-event stream never ends: its status and headers are the answer.
      if (String(res.headers['content-type'] ?? '').startsWith('text/event-stream')) {
        finish({ kind: 'response', status: res.statusCode ?? 0, headers: toHeaders(res.rawHeaders), text: '' })
        res.destroy()
        return
      }
      collect(res)
    })
    // Any answer to CONNECT arrives here (node:http hands over the socket).
    req.on('connect', (res, socket) => {
      finish({ kind: 'response', status: res.statusCode ?? 0, headers: toHeaders(res.rawHeaders), text: '' })
      socket.destroy()
    })
    req.on('error', (error) => finish(signal.aborted ? { kind: 'hang' } : { kind: 'network-error', error: describeError(error) }))
    req.end(body)
  })
}

function toHeaders(raw: readonly string[]): Headers {
  const headers = new Headers()
  for (let i = 0; i + 1 < raw.length; i += 2) {
    try {
      headers.append(raw[i] as string, raw[i + 1] as string)
    } catch {
      // a header fetch could not represent; not what the oracles look at
    }
  }
  return headers
}

/**
 * Waits for `pending`, advancing the manual clock past the webhook response timeout whenever
 * requests are parked on it (up to MAX_ADVANCES times). Nothing here waits on the wall clock:
 * it yields to the event loop; the hang detector is the request's AbortSignal.
 */
/** Emulator time the suite itself moved the clock by (so snapshots can tell it from a request's doing). */
let drivenMs = 0

async function driveClock<T>(emu: Emulator, pending: Promise<T>): Promise<T> {
  let settled = false
  const watched = pending.finally(() => {
    settled = true
  })
  let advances = 0
  while (!settled) {
    await new Promise((resolve) => setImmediate(resolve))
    if (!settled && advances < MAX_ADVANCES && emu.clock.parked() > 0) {
      advances++
      drivenMs += ADVANCE_STEP_MS
      await emu.clock.advance(ADVANCE_STEP_MS)
    }
  }
  return watched
}

function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error)
  const cause = error.cause instanceof Error ? ` (cause: ${error.cause.message})` : ''
  return `${error.name}: ${error.message}${cause}`
}

// --- Oracles -------------------------------------------------------------------------------------

/** The 5xx bodies the service description documents for webhooks. */
export const FLOW_FAILED = 'Action Flow failed to complete.'
export const FLOW_TIMED_OUT = 'Action Flow did not respond in time.'

export class OracleFailure extends Error {
  override name = 'OracleFailure'
  /** What kind of failure this is, for grouping (FUZZ_COLLECT): the first line, digits folded. */
  readonly signature: string
  constructor(message: string, signature?: string) {
    super(message)
    this.signature = signature ?? fold(message.split('\n')[0] ?? message)
  }
}

function fold(text: string): string {
  return text.replace(/127\.0\.0\.1:\d+/g, 'HOST').replace(/\d+/g, 'N').slice(0, 140)
}

/** A short, printable description of a request for failure messages (a curl-ready line). */
export function describeWire(h: Harness, wire: Wire): string {
  const headers = (wire.headers ?? []).map(([n, v]) => ` -H ${quote(`${n}: ${v}`)}`).join('')
  let body = ''
  if (typeof wire.body === 'string') body = ` --data-raw ${quote(preview(wire.body, 300))}`
  else if (wire.body instanceof Uint8Array) body = ` --data-binary <${wire.body.byteLength} bytes: ${preview(Buffer.from(wire.body).toString('latin1'), 120)}>`
  else if (wire.body instanceof FormData) {
    const parts = [...wire.body.entries()].map(([k, v]) => (typeof v === 'string' ? ` -F ${quote(`${k}=${preview(v, 60)}`)}` : ` -F ${quote(`${k}=@${v.name};type=${v.type}`)}`))
    body = parts.join('')
  }
  return `curl -i -X ${wire.method}${headers}${body} ${quote(`${h.origin}${wire.path.length > 400 ? `${wire.path.slice(0, 400)}…(${wire.path.length} chars)` : wire.path}`)}  [${h.kind}${wire.raw ? ', raw node:http' : ''}]`
}

function quote(s: string): string {
  return `'${s.replace(/'/g, "'\\''")}'`
}

export function preview(s: string, max = 200): string {
  return s.length > max ? `${s.slice(0, max)}…(${s.length} chars)` : s
}

export function describeOutcome(outcome: Outcome): string {
  if (outcome.kind === 'hang') return `no answer within ${HANG_MS} ms of wall time (the emulator clock was advanced while the request was parked on it)`
  if (outcome.kind === 'network-error') return `network error: ${outcome.error}`
  return `${outcome.status} ${JSON.stringify(preview(outcome.text, 400))}`
}

export interface AnswerRules {
  /** The request carried a scenario that may make errors or faults (per-request header, or one switched on). */
  scenarioMade?: boolean
  /** The route answers the webhook's documented 500s. */
  webhook?: boolean
  /** A status the test itself configured (a webhook-response step's), so it is no failure. */
  configuredStatus?: number
  /** A HEAD request: a documented 500 has no body to tell it by. */
  head?: boolean
  /** Other statuses that are documented for this request (501 for a method no route takes). */
  allowed?: readonly number[]
}

/** The first property: an answer, within the bound, that is not a 5xx outside the documented ones. */
export function expectAnswered(h: Harness, wire: Wire, outcome: Outcome, rules: AnswerRules = {}): asserts outcome is Extract<Outcome, { kind: 'response' }> {
  const request = describeWire(h, wire)
  if (outcome.kind === 'hang') throw new OracleFailure(`HANG: ${describeOutcome(outcome)}\n  request: ${request}`)
  if (outcome.kind === 'network-error') {
    if (rules.scenarioMade) return
    throw new OracleFailure(`NO ANSWER: ${describeOutcome(outcome)}\n  request: ${request}`)
  }
  if (outcome.status < 500 || rules.scenarioMade || outcome.status === rules.configuredStatus || rules.allowed?.includes(outcome.status)) return
  if (rules.webhook && outcome.status === 500 && (outcome.text === FLOW_FAILED || outcome.text === FLOW_TIMED_OUT)) return
  if (rules.webhook && rules.head && outcome.status === 500 && outcome.text === '' && rules.configuredStatus !== undefined) return
  throw new OracleFailure(`UNDOCUMENTED ${outcome.status}: ${describeOutcome(outcome)}\n  request: ${request}`)
}

/** What a refused request must leave as it was: everything the control plane can list. */
export function snapshot(emu: Emulator): string {
  return JSON.stringify({
    webhooks: emu.webhooks.list(),
    executions: emu.webhooks.list().map((w) => [w.id, emu.webhooks.executions(w.id).length]),
    clients: emu.oauth.clients.list(),
    users: emu.users.list(),
    apiKeys: emu.apiKeys.list(),
    storages: emu.storages.list(),
    elements: emu.elements.list(),
    scenarios: emu.scenarios.list().filter((s) => s.active),
    // The clock as the requests left it: minus what the suite's own clock driving added.
    clock: safe(() => emu.clock.now().getTime() - drivenMs),
  })
}

function safe<T>(fn: () => T): T | string {
  try {
    return fn()
  } catch (error) {
    return `threw ${describeError(error)}`
  }
}

/** The fourth property: a refused request (4xx) stores nothing. */
export function expectNothingStored(h: Harness, wire: Wire, outcome: Outcome, before: string): void {
  if (outcome.kind !== 'response' || outcome.status < 400 || outcome.status >= 500) return
  const after = snapshot(h.emu)
  if (after === before) return
  throw new OracleFailure(
    `STORED FROM A REFUSED REQUEST: the answer was ${describeOutcome(outcome)} but the state changed:\n  ${firstDifference(before, after)}\n  request: ${describeWire(h, wire)}`,
  )
}

function firstDifference(before: string, after: string): string {
  let i = 0
  while (i < before.length && before[i] === after[i]) i++
  const from = Math.max(0, i - 80)
  return `before: …${before.slice(from, i + 120)}…\n  after:  …${after.slice(from, i + 120)}…`
}

/** A request the suite itself makes (health, known-good), with the hang detector. */
async function probe(h: Harness, wire: Wire): Promise<Outcome> {
  return send(h, wire)
}

export const KNOWN_GOOD = {
  health: { method: 'GET', path: '/__svc-mock/health' } satisfies Wire,
  versions: { method: 'GET', path: VERSIONS(), headers: Object.entries(APP_KEY) } satisfies Wire,
  webhook: { method: 'POST', path: '/hooks/orders', headers: [['content-type', 'application/json']], body: '{"orderId":"A-1"}' } satisfies Wire,
  token: {
    method: 'POST',
    path: '/oauth2/token',
    headers: [
      ['authorization', `Basic ${Buffer.from('ci-client:ci-secret').toString('base64')}`],
      ['content-type', 'application/x-www-form-urlencoded'],
    ],
    body: 'grant_type=client_credentials',
  } satisfies Wire,
} as const

/**
 * The third property: health answers 200 and the known-good requests their usual answers.
 * `after` says what ran before (for the message).
 */
export async function expectHealthy(h: Harness, after: string): Promise<void> {
  const problems: string[] = []
  // Sent together: they are independent, and a socket round trip each would dominate the run.
  const [health, versions, webhook, token] = await Promise.all([
    probe(h, KNOWN_GOOD.health),
    probe(h, KNOWN_GOOD.versions),
    probe(h, KNOWN_GOOD.webhook),
    probe(h, KNOWN_GOOD.token),
  ])
  if (health.kind !== 'response' || health.status !== 200 || !health.text.includes('"status":"ok"')) problems.push(`GET /__svc-mock/health -> ${describeOutcome(health)}`)

  if (versions.kind !== 'response' || versions.status !== 200) problems.push(`versions GET with AppKey -> ${describeOutcome(versions)}`)
  else {
    const body = parseJson(versions.text) as { count?: number; elements?: Array<{ state?: string }> }
    const states = body.elements?.map((e) => e.state).join(',')
    if (body.count !== 3 || states !== 'expired,released,inProcess') problems.push(`versions GET with AppKey -> 200 but ${preview(versions.text, 200)}`)
  }

  if (webhook.kind !== 'response' || webhook.status !== 200 || webhook.text !== 'Accepted') problems.push(`POST /hooks/orders {"orderId":"A-1"} -> ${describeOutcome(webhook)}`)

  if (token.kind !== 'response' || token.status !== 200) problems.push(`client-credentials token for ci-client -> ${describeOutcome(token)}`)
  else {
    const body = parseJson(token.text) as { access_token?: unknown; token_type?: unknown }
    if (typeof body.access_token !== 'string' || body.token_type !== 'Bearer') problems.push(`client-credentials token -> 200 but ${preview(token.text, 200)}`)
  }
  if (problems.length > 0) throw new OracleFailure(`BROKEN AFTERWARDS [${h.kind}]: ${problems.join('; ')}\n  after: ${after}`)
}

/** JSON.parse, or {} for text that is not JSON (the oracles then report the text). */
export function parseJson(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text)
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {}
  } catch {
    return {}
  }
}

/** POST /__svc-mock/reset as a JSON request (what any client of the control plane may send). */
export async function resetOverHttp(h: Harness): Promise<Outcome> {
  return send(h, { method: 'POST', path: '/__svc-mock/reset', headers: [['content-type', 'application/json']], body: '{}' })
}

/** The emulator as the fixtures make it, before each input (in-process reset: under a millisecond). */
export async function fresh(h: Harness): Promise<void> {
  await h.emu.reset()
}
