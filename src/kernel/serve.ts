/**
 * The one way in: `serve(request, transport)` matches the route (method, path, and the address it
 * lives on), applies the scenarios that are on, runs the resolver on the emulator clock, renders
 * errors in the route's wire format, and journals what was answered. The msw handlers, the
 * node:http server and `emu.handle()` only translate to and from it.
 */
import type { Clock, Task } from './clock.js'
import { DEFAULT_BODY_LIMIT, SCENARIO_HEADER } from './constants.js'
import { near } from './closest.js'
import { HttpError, PayloadTooLargeError, UnknownScenarioError } from './errors.js'
import { HeaderFields } from './headers.js'
import type { Journal, Transport } from './journal.js'
import type { Logger } from './logger.js'
import { type NearMiss, nearMiss } from './near-miss.js'
import { type FaultKind, type Reply, fault, fixedBody, headersOf, json, text } from './reply.js'
import type { IncomingRequest } from './request.js'
import { type CompiledPattern, RouteTable, compilePattern } from './router.js'
import type { HttpMethod, RequestContext, RouteDefinition } from './route.js'
import type { ActiveScenario } from './scenarios/active.js'
import { type ScenarioDecision, type ScenarioOutcome, untouched } from './scenarios/decide.js'
import type { ScenarioEngine } from './scenarios/engine.js'
import { parseActivations } from './scenarios/syntax.js'
import type { ScenarioTarget } from './scenarios/targets.js'
import type { SettingsTree } from './settings.js'

/** The targets of a request no scenario on is aimed at by target (nothing to read from it). */
const NO_TARGETS: Readonly<Record<string, string | undefined>> = Object.freeze({})

export interface PipelineServices {
  readonly clock: Clock
  readonly journal: Journal
  readonly scenarios: ScenarioEngine
  readonly logger: Logger
  readonly settings: () => SettingsTree
  /** The origin (`https://host:port`) of each named address. */
  readonly origins: Readonly<Record<string, string>>
  readonly targets: readonly ScenarioTarget[]
  /** Where a 404 for a path the emulator does not emulate points the caller (its route list). */
  readonly routeList: string
}

export interface CompiledRoute {
  readonly definition: RouteDefinition
  readonly pattern: CompiledPattern
}

/** Routing and answering requests, for every transport. */
export class Pipeline {
  readonly routes: readonly CompiledRoute[]
  readonly #table = new RouteTable<CompiledRoute>()
  readonly #services: PipelineServices
  readonly #targetNames: ReadonlySet<string>

  constructor(services: PipelineServices, routes: readonly RouteDefinition[]) {
    this.#services = services
    this.#targetNames = new Set(services.targets.map((t) => t.name))
    const seen = new Set<string>()
    this.routes = routes.map((definition) => {
      if (seen.has(definition.id)) throw new Error(`Route id declared twice: ${definition.id}`)
      if (services.origins[definition.origin] === undefined) throw new Error(`Route ${definition.id} names an unknown address "${definition.origin}"`)
      seen.add(definition.id)
      const compiled = { definition, pattern: compilePattern(definition.path) }
      this.#table.add(definition.method, compiled.pattern, compiled)
      return compiled
    })
  }

  /** The origins the routes live on. */
  origins(): string[] {
    return [...new Set(Object.values(this.#services.origins))]
  }

  /** Answers one request. A route answers only on its own address. */
  async serve(request: IncomingRequest, transport: Transport): Promise<Reply> {
    const match = this.#table.match(request.method, request.url.pathname)
    if (match.kind === 'match' && this.#services.origins[match.route.definition.origin] === request.url.origin) {
      return await this.#dispatch(match.route.definition, match.params, request, transport)
    }
    const allowed = match.kind === 'method-not-allowed' ? match.allowed : undefined
    const answer = this.#table.methods.has(request.method) || ROUTABLE_METHODS.has(request.method) ? this.#unmatched(request, allowed) : notImplemented(request.method)
    const near = this.#nearest(request, match.kind === 'match' ? match.route : undefined)
    return this.#finish(answer, request, transport, 'unmatched', this.#services.clock.now(), [], undefined, undefined, near)
  }

  /** The near miss of a request no route answered: the route it came closest to, and what differed. */
  #nearest(request: IncomingRequest, sameLine: CompiledRoute | undefined): NearMiss | undefined {
    const { method, url } = request
    const route =
      sameLine ??
      this.routes.filter((r) => r.pattern.match(url.pathname) !== undefined).sort((a, b) => this.#onOrigin(b, url) - this.#onOrigin(a, url))[0] ??
      this.closest(method, url.pathname, this.#neighbours(url.pathname), true)
    if (!route) return undefined
    const { definition } = route
    return nearMiss(method, url, { id: definition.id, method: definition.method, pattern: route.pattern, origin: this.#services.origins[definition.origin] ?? '' })
  }

  #onOrigin(route: CompiledRoute, url: URL): number {
    return this.#services.origins[route.definition.origin] === url.origin ? 1 : 0
  }

  /** The routes a missed path is compared with: the emulator's own under its prefix, the platform's elsewhere. */
  #neighbours(pathname: string): CompiledRoute[] {
    const first = pathname.split('/')[1] ?? ''
    const own = this.routes.some((r) => r.definition.control && r.definition.path.split('/')[1] === first)
    return this.routes.filter((r) => (r.definition.control ?? false) === own)
  }

  /** The route whose pattern is nearest to a path that matched none (for error messages). */
  closest(method: string, pathname: string, among: readonly CompiledRoute[] = this.routes, always = false): CompiledRoute | undefined {
    const parts = pathname.slice(1).split('/')
    let best: CompiledRoute | undefined
    let bestScore = always ? Number.NEGATIVE_INFINITY : 0
    for (const route of among) {
      const segments = route.pattern.segments
      let score = 0
      for (let i = 0; i < Math.min(segments.length, parts.length); i++) {
        const segment = segments[i]
        const part = parts[i] ?? ''
        if (segment?.kind === 'static' && segment.value === part) score += 2
        else if (segment?.kind === 'param' || (segment?.kind === 'static' && near(part, segment.value))) score += 1
      }
      score -= Math.abs(segments.length - parts.length)
      if (route.definition.method === method || route.definition.method === '*') score += 1
      if (score > bestScore) {
        bestScore = score
        best = route
      }
    }
    return best
  }

  async #dispatch(definition: RouteDefinition, params: Record<string, string>, request: IncomingRequest, transport: Transport): Promise<Reply> {
    const { clock, scenarios } = this.#services
    const receivedAt = clock.now()

    const limit = definition.bodyLimit ?? DEFAULT_BODY_LIMIT
    request.body?.limit(limit)
    let decision: ScenarioDecision
    if (definition.control) {
      decision = untouched(this.#services.settings())
    } else {
      let perRequest: ActiveScenario[] = []
      const header = request.headers.get(SCENARIO_HEADER)
      if (header) {
        try {
          perRequest = parseActivations(header, SCENARIO_HEADER, this.#targetNames).flatMap(({ name, activation }) => scenarios.activate(name, activation, 'request'))
        } catch (error) {
          const message = error instanceof UnknownScenarioError ? `${error.message} (from the ${SCENARIO_HEADER} header)` : errorMessage(error)
          return this.#finish(text(message, { status: 400 }), request, transport, definition.id, receivedAt, [], undefined, undefined)
        }
      }
      const names = scenarios.targetNames(perRequest)
      const targets = names.size === 0 ? NO_TARGETS : await this.#readTargets(names, definition.id, params, request)
      decision = scenarios.decide(definition.id, request.method, targets, perRequest)
    }

    const ctx = new DispatchContext(request, definition.id, params, receivedAt, decision, clock)

    const declared = request.body?.length
    const run = async (tracked?: Task): Promise<Reply> => {
      ctx.task = tracked
      if (decision.delayMs > 0) await ctx.waitUntil(receivedAt + decision.delayMs)
      if (decision.outcome) return this.#scenarioAnswer(definition, ctx, decision.outcome)
      if (declared !== undefined && declared > limit) throw new PayloadTooLargeError(limit)
      return await definition.resolve(ctx)
    }

    let reply: Reply
    try {
      reply = definition.control ? await run() : await clock.track(run)
    } catch (error) {
      reply = this.#renderError(definition, ctx, error)
    }
    const added = ctx.addedHeaders
    if (reply.fault === undefined && added !== undefined) addMissing(reply.headers, added)
    if (decision.usedUp.length > 0) scenarios.announce(decision.usedUp)
    return this.#finish(reply, request, transport, definition.id, receivedAt, decision.scenarios, ctx, definition)
  }

  /** The targets some active scenario is aimed at, read from the request. */
  async #readTargets(names: ReadonlySet<string>, routeId: string, params: Record<string, string>, request: IncomingRequest): Promise<Record<string, string | undefined>> {
    const out: Record<string, string | undefined> = {}
    for (const target of this.#services.targets) {
      if (names.has(target.name)) out[target.name] = await target.read({ routeId, params, url: request.url, headers: request.headers, body: request.body })
    }
    return out
  }

  #unmatched(request: IncomingRequest, allowed: string[] | undefined): Reply {
    const { method, url } = request
    if (allowed) {
      const allow = [...new Set(allowed.includes('GET') ? [...allowed, 'HEAD'] : allowed)].join(', ')
      return json({ error: 'Method Not Allowed', message: `${method} is not allowed on ${url.pathname}. Allowed: ${allow}.` }, { status: 405, headers: { allow } })
    }
    // A miss under the emulator's own prefix is the emulator's own 404; any other path is a
    // platform path svc-mock does not emulate, and the hint names an emulated platform route.
    const among = this.#neighbours(url.pathname)
    const own = among.some((r) => r.definition.control)
    // A platform path always names its nearest emulated route, however far: a caller should see what exists.
    const closest = this.closest(method, url.pathname, among, !own)
    const hint = closest ? { closest: `${closest.definition.method} ${closest.definition.path} (${closest.definition.id})` } : {}
    if (own) return json({ error: 'Not Found', message: `svc-mock has no route for ${method} ${url.pathname}.`, ...hint }, { status: 404 })
    return json(
      {
        error: 'Not emulated',
        path: url.pathname,
        message: `svc-mock does not emulate ${method} ${url.pathname}. The routes it emulates are listed at ${this.#services.routeList}.`,
        ...hint,
      },
      { status: 404 },
    )
  }

  #scenarioAnswer(definition: RouteDefinition, ctx: RequestContext, outcome: ScenarioOutcome): Reply {
    switch (outcome.kind) {
      case 'fault':
        return faultAnswer(outcome.fault)
      case 'error': {
        const rendered = definition.scenarioError?.(outcome.code, ctx, outcome.message)
        if (rendered) return rendered
        return text(`Scenario "${outcome.scenario}" asked route ${definition.id} for error "${outcome.code}", which that route does not know.`, { status: 500 })
      }
      case 'respond': {
        const headers = headersOf(outcome.headers)
        if (outcome.body === undefined) return { status: outcome.status, headers, body: null }
        if (typeof outcome.body === 'string') return text(outcome.body, { status: outcome.status, headers })
        return json(outcome.body, { status: outcome.status, headers })
      }
    }
  }

  #renderError(definition: RouteDefinition, ctx: RequestContext, error: unknown): Reply {
    if (error instanceof PayloadTooLargeError) return definition.tooLarge?.(ctx) ?? error.toReply()
    if (error instanceof HttpError) return definition.renderError?.(error, ctx) ?? error.toReply()
    if (ctx.signal.aborted) return text('Client Closed Request', { status: 499 })
    this.#services.logger.error(`route ${definition.id} threw while answering ${ctx.method} ${ctx.url.pathname}`, error)
    return json(
      {
        error: 'svc-mock internal error',
        message: `The handler of route ${definition.id} threw: ${errorMessage(error)}. The emulator keeps serving; this is a bug in svc-mock, please report it with the log above.`,
      },
      { status: 500 },
    )
  }

  #finish(
    reply: Reply,
    request: IncomingRequest,
    transport: Transport,
    routeId: string,
    receivedAt: number,
    scenarioNames: readonly string[],
    ctx: RequestContext | undefined,
    definition: RouteDefinition | undefined,
    near?: NearMiss,
  ): Reply {
    if (definition?.unjournaled) return reply
    const { journal, logger, clock } = this.#services
    const failed = reply.fault !== undefined && reply.fault !== 'cut-body'
    const seq = journal.record({
      receivedAt,
      route: routeId,
      method: request.method,
      url: request.url.href,
      status: failed ? 0 : reply.status,
      identity: ctx?.identity ?? null,
      scenarios: scenarioNames,
      durationMs: clock.now() - receivedAt,
      transport,
      requestHeaders: request.headers,
      requestBody: ctx?.journalBody,
      responseHeaders: failed ? undefined : reply.headers,
      responseBody: definition?.control ? undefined : fixedBody(reply),
      secretResponse: definition?.secretResponse === true,
      requestBytes: request.body?.kept(),
      ...(near === undefined ? {} : { nearMiss: near }),
    })
    if (logger.format !== 'silent') {
      const entry = journal.get(seq)
      if (entry) logger.request(entry)
    }
    return reply
  }
}

/**
 * A request's context as routes see it. A class, not an object literal with getters: a literal's
 * getters are new closures on every request, which gives every context its own hidden class, and
 * V8 then kept each request's objects alive through two scavenges (about 2 MB promoted to old
 * space per scavenge under load: the p99 and a quarter of the server's time).
 */
class DispatchContext implements RequestContext {
  readonly method: string
  readonly url: URL
  readonly headers: Headers
  readonly body: IncomingRequest['body']
  readonly routeId: string
  readonly params: Readonly<Record<string, string>>
  readonly receivedAt: number
  readonly settings: SettingsTree
  readonly scenarios: readonly string[]
  identity: string | undefined = undefined
  journalBody: unknown = undefined
  /** The tracked task the request runs in: its clock waits park it. */
  task: Task | undefined = undefined
  readonly #source: IncomingRequest['signal']
  readonly #clock: Clock
  #signal: AbortSignal | undefined = undefined
  #responseHeaders: HeaderFields | undefined = undefined

  constructor(request: IncomingRequest, routeId: string, params: Record<string, string>, receivedAt: number, decision: ScenarioDecision, clock: Clock) {
    this.method = request.method
    this.url = request.url
    this.headers = request.headers
    this.body = request.body
    this.routeId = routeId
    this.params = params
    this.receivedAt = receivedAt
    this.settings = decision.settings
    this.scenarios = decision.scenarios
    this.#source = request.signal
    this.#clock = clock
  }

  get signal(): AbortSignal {
    const source = this.#source
    return (this.#signal ??= source === undefined ? new AbortController().signal : typeof source === 'function' ? source() : source)
  }

  /** Made on first use: most answers add no header. */
  get responseHeaders(): Headers {
    return (this.#responseHeaders ??= new HeaderFields())
  }

  /** The headers a route added, if it added any. */
  get addedHeaders(): HeaderFields | undefined {
    return this.#responseHeaders
  }

  delay(ms: number, until?: AbortSignal): Promise<void> {
    return this.waitUntil(this.receivedAt + ms, until)
  }

  /** The request's own clock waits park its task, so advance() does not wait for them. */
  waitUntil(deadline: number, until?: AbortSignal): Promise<void> {
    const signal = until === undefined ? this.signal : AbortSignal.any([until, this.signal])
    return this.task ? this.task.waitUntil(deadline, signal) : this.#clock.waitUntil(deadline, signal)
  }
}

/**
 * Adds the headers a route set on its context to its reply, except the names the reply sets itself
 * (the reply's word wins). Every value of a name goes (two Set-Cookie stay two). The context's
 * fields are read as they were added: `forEach` would build a sorted view for each request.
 */
function addMissing(target: Headers, added: HeaderFields): void {
  const fields = added.fields()
  const missing: number[] = []
  for (let i = 0; i < fields.length; i += 2) if (!target.has(fields[i] as string)) missing.push(i)
  for (const i of missing) target.append(fields[i] as string, fields[i + 1] as string)
}

/**
 * Methods a route could take: on a known path they answer 405 with `Allow` (as the platform's
 * Spring servers do for PATCH on the token endpoint), even when no route takes them anywhere.
 */
const ROUTABLE_METHODS: ReadonlySet<string> = new Set<HttpMethod>(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'])

/** 501 for any other method (TRACE, CONNECT, PROPFIND, …). */
function notImplemented(method: string): Reply {
  return json({ error: 'Not Implemented', message: `svc-mock implements no route for the method ${method}.` }, { status: 501 })
}

/** A scenario's network fault; `cut-body` cuts a small JSON answer in half. */
function faultAnswer(kind: FaultKind): Reply {
  if (kind !== 'cut-body') return fault(kind)
  const whole = JSON.stringify({ error: 'svc-mock cut this response short (scenario fault "cut-body")' })
  return fault('cut-body', { status: 200, headers: headersOf({ 'content-type': 'application/json; charset=utf-8' }), body: whole })
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
