/**
 * The one request pipeline both transports share: scenarios decide, the route resolves, errors
 * become the route's wire format, and the journal records what was answered. The msw handlers and
 * the node:http server only translate to and from it.
 */
import type { Clock } from './clock.js'
import { HttpError, SvcMockError, UnknownScenarioError } from './errors.js'
import { deferredBody, faultOf, faultResponse, json, text } from './http.js'
import type { Journal, Transport } from './journal.js'
import type { Logger } from './logger.js'
import { compilePattern, type CompiledPattern, RouteTable } from './router.js'
import type { OriginKind, RequestContext, RouteDefinition } from './route.js'
import type { ActiveScenario, ScenarioEngine, ScenarioOutcome } from './scenarios/engine.js'
import { parseActivations } from './scenarios/syntax.js'
import type { SettingsTree } from './settings.js'

export const SCENARIO_HEADER = 'x-svc-mock-scenario'

/**
 * The signal that aborts when the client goes away, or a function that makes it on first use
 * (the socket transport: most requests never need one, and making one costs).
 */
export type SignalSource = AbortSignal | (() => AbortSignal)

/** Bodies larger than this are refused on routes that set no limit of their own. */
export const DEFAULT_BODY_LIMIT = 10 * 1024 * 1024

export class PayloadTooLargeError extends SvcMockError {
  readonly limit: number
  constructor(limit: number) {
    super('ERR_PAYLOAD_TOO_LARGE', `The request body is larger than ${limit} bytes.`)
    this.limit = limit
  }
}

export interface DispatchServices {
  clock: Clock
  journal: Journal
  scenarios: ScenarioEngine
  logger: Logger
  settings: () => SettingsTree
  /** The origin (`https://host:port`) each kind of route is served on. */
  originOf: (kind: OriginKind) => string
  /** The OAuth client a request comes from, read only when a scenario targets a client. */
  clientOf?: (request: Request, url: URL) => Promise<string | undefined>
}

export interface CompiledRoute {
  readonly definition: RouteDefinition
  readonly pattern: CompiledPattern
}

export class Dispatcher {
  readonly routes: readonly CompiledRoute[]
  readonly table = new RouteTable<CompiledRoute>()
  readonly #services: DispatchServices

  constructor(services: DispatchServices, routes: readonly RouteDefinition[]) {
    this.#services = services
    const seen = new Set<string>()
    this.routes = routes.map((definition) => {
      if (seen.has(definition.id)) throw new Error(`Route id declared twice: ${definition.id}`)
      seen.add(definition.id)
      const compiled = { definition, pattern: compilePattern(definition.path) }
      this.table.add(definition.method, compiled.pattern, compiled)
      return compiled
    })
  }

  /** Routes and answers one request (the transport-free entry point); a route answers only on its own origin. */
  handle(request: Request, transport: Transport, signal?: SignalSource): Promise<Response> {
    const url = new URL(request.url)
    const match = this.table.match(request.method, url.pathname)
    if (match.kind === 'match' && this.#services.originOf(match.route.definition.origin) === url.origin) {
      return this.dispatch(match.route, match.params, request, url, transport, signal)
    }
    if (match.kind === 'match') return Promise.resolve(this.unmatched(request, url, transport))
    return Promise.resolve(this.unmatched(request, url, transport, match.kind === 'method-not-allowed' ? match.allowed : undefined))
  }

  async dispatch(
    route: CompiledRoute,
    params: Record<string, string>,
    request: Request,
    url: URL,
    transport: Transport,
    signalSource: SignalSource = request.signal,
  ): Promise<Response> {
    const { clock, scenarios } = this.#services
    const definition = route.definition
    const receivedAt = clock.now()
    let signal: AbortSignal | undefined
    const signalOf = (): AbortSignal => (signal ??= typeof signalSource === 'function' ? signalSource() : signalSource)

    let perRequest: ActiveScenario[] = []
    const header = definition.control ? null : request.headers.get(SCENARIO_HEADER)
    if (header) {
      try {
        perRequest = parseActivations(header, SCENARIO_HEADER).map(({ name, activation }) =>
          scenarios.activate(name, activation, 'request'),
        )
      } catch (error) {
        const message = error instanceof UnknownScenarioError ? `${error.message} (from the ${SCENARIO_HEADER} header)` : errorMessage(error)
        return this.#finish(text(message, { status: 400 }), request, url, transport, definition.id, receivedAt, [], undefined, undefined)
      }
    }
    let client: string | undefined
    if (!definition.control && this.#services.clientOf && scenarios.targetsClient(perRequest)) {
      client = await this.#services.clientOf(request, url)
    }
    const decision = definition.control
      ? { scenarios: [], settings: this.#services.settings(), delayMs: 0, outcome: undefined, usedUp: [] }
      : scenarios.decide(definition.id, request.method, { webhook: params.token, client }, perRequest)

    // A body without Content-Length is counted while it streams; the resolver reads this copy.
    // The copy is the context's request, so what the resolver records on the context is kept.
    const limit = definition.bodyLimit ?? DEFAULT_BODY_LIMIT
    const length = Number(request.headers.get('content-length') ?? Number.NaN)
    const limited = !Number.isFinite(length) && request.body ? limitBody(request, limit) : request
    const ctx: RequestContext = {
      request: limited,
      url,
      routeId: definition.id,
      params,
      receivedAt,
      settings: decision.settings,
      scenarios: decision.scenarios,
      get signal(): AbortSignal {
        return signalOf()
      },
      responseHeaders: new Headers(),
      identity: undefined,
      journalBody: undefined,
      delay: (ms) => clock.waitUntil(receivedAt + ms, signalOf()),
    }

    const run = async (): Promise<Response> => {
      if (decision.delayMs > 0) await clock.waitUntil(receivedAt + decision.delayMs, signalOf())
      if (decision.outcome) return this.#scenarioAnswer(definition, ctx, decision.outcome)
      if (Number.isFinite(length) && length > limit) throw new PayloadTooLargeError(limit)
      return await definition.resolve(ctx)
    }

    let response: Response
    try {
      response = definition.control ? await run() : await clock.track(run)
    } catch (error) {
      response = this.#renderError(definition, ctx, error)
    }
    if (faultOf(response) === undefined) {
      ctx.responseHeaders.forEach((value, name) => {
        if (!response.headers.has(name)) response.headers.set(name, value)
      })
    }
    if (decision.usedUp.length > 0) scenarios.announce(decision.usedUp)
    return this.#finish(response, request, url, transport, definition.id, receivedAt, decision.scenarios, ctx, definition)
  }

  unmatched(request: Request, url: URL, transport: Transport, allowed?: string[]): Response {
    const receivedAt = this.#services.clock.now()
    let response: Response
    if (allowed) {
      const allow = [...new Set(allowed.includes('GET') ? [...allowed, 'HEAD'] : allowed)].join(', ')
      response = json(
        { error: 'Method Not Allowed', message: `${request.method} is not allowed on ${url.pathname}. Allowed: ${allow}.` },
        { status: 405, headers: { allow } },
      )
    } else {
      const closest = this.closest(request.method, url.pathname)
      response = json(
        {
          error: 'Not Found',
          message: `svc-mock has no route for ${request.method} ${url.pathname}.`,
          ...(closest ? { closest: `${closest.definition.method} ${closest.definition.path} (${closest.definition.id})` } : {}),
        },
        { status: 404 },
      )
    }
    return this.#finish(response, request, url, transport, 'unmatched', receivedAt, [], undefined, undefined)
  }

  /** The route whose pattern is nearest to a path that matched none (for error messages). */
  closest(method: string, pathname: string): CompiledRoute | undefined {
    const parts = pathname.slice(1).split('/')
    let best: CompiledRoute | undefined
    let bestScore = 0
    for (const route of this.routes) {
      const segments = route.pattern.segments
      let score = 0
      for (let i = 0; i < Math.min(segments.length, parts.length); i++) {
        const segment = segments[i]
        if (segment?.kind === 'static' && segment.value === parts[i]) score += 2
        else if (segment?.kind === 'param') score += 1
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

  #scenarioAnswer(definition: RouteDefinition, ctx: RequestContext, outcome: ScenarioOutcome): Response {
    switch (outcome.kind) {
      case 'fault': {
        if (outcome.fault !== 'cut-body') return faultResponse(outcome.fault)
        const sample = JSON.stringify({ error: 'svc-mock cut this response short (scenario fault "cut-body")' })
        return faultResponse('cut-body', {
          status: 200,
          headers: new Headers({ 'content-type': 'application/json; charset=utf-8' }),
          body: sample,
        })
      }
      case 'error': {
        const rendered = definition.scenarioError?.(outcome.code, ctx, outcome.message)
        if (rendered) return rendered
        return text(`Scenario "${outcome.scenario}" asked route ${definition.id} for error "${outcome.code}", which that route does not know.`, {
          status: 500,
        })
      }
      case 'respond': {
        const headers = new Headers(outcome.headers)
        if (outcome.body === undefined) return new Response(null, { status: outcome.status, headers })
        if (typeof outcome.body === 'string') return text(outcome.body, { status: outcome.status, headers })
        return json(outcome.body, { status: outcome.status, headers })
      }
    }
  }

  #renderError(definition: RouteDefinition, ctx: RequestContext, error: unknown): Response {
    if (error instanceof PayloadTooLargeError) {
      return definition.tooLarge?.(ctx) ?? text('Payload Too Large', { status: 413 })
    }
    if (error instanceof HttpError) {
      return definition.renderError?.(error, ctx) ?? error.toResponse()
    }
    if (ctx.signal.aborted) return text('Client Closed Request', { status: 499 })
    this.#services.logger.error(`route ${definition.id} threw while answering ${ctx.request.method} ${ctx.url.pathname}`, error)
    return json(
      {
        error: 'svc-mock internal error',
        message: `The handler of route ${definition.id} threw: ${errorMessage(error)}. The emulator keeps serving; this is a bug in svc-mock, please report it with the log above.`,
      },
      { status: 500 },
    )
  }

  #finish(
    response: Response,
    request: Request,
    url: URL,
    transport: Transport,
    routeId: string,
    receivedAt: number,
    scenarioNames: readonly string[],
    ctx: RequestContext | undefined,
    definition: RouteDefinition | undefined,
  ): Response {
    if (definition?.unjournaled) return response
    const { journal, logger, clock } = this.#services
    const fault = faultOf(response)
    const failed = fault !== undefined && fault !== 'cut-body'
    const seq = journal.record({
      receivedAt,
      route: routeId,
      method: request.method,
      url,
      status: failed ? 0 : response.status,
      identity: ctx?.identity ?? null,
      scenarios: scenarioNames,
      durationMs: clock.now() - receivedAt,
      transport,
      requestHeaders: request.headers,
      requestBody: ctx?.journalBody,
      responseHeaders: failed ? undefined : response.headers,
      responseBody: definition?.control ? undefined : deferredBody(response),
      secretResponse: definition?.secretResponse === true,
    })
    if (logger.format !== 'silent') {
      const entry = journal.get(seq)
      if (entry) logger.request(entry)
    }
    return response
  }
}

/** A copy of the request whose body fails with PayloadTooLargeError past `limit` bytes. */
export function limitBody(request: Request, limit: number): Request {
  const source = request.body
  if (!source) return request
  let seen = 0
  const limited = source.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        seen += chunk.byteLength
        if (seen > limit) {
          controller.error(new PayloadTooLargeError(limit))
          return
        }
        controller.enqueue(chunk)
      },
    }),
  )
  return new Request(request.url, {
    method: request.method,
    headers: request.headers,
    body: limited,
    signal: request.signal,
    duplex: 'half',
  } as RequestInit)
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
