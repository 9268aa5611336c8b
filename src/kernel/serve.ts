/**
 * The one way in: `serve(request, transport)` matches the route (method, path, and the address it
 * lives on), applies the scenarios that are on, runs the resolver on the emulator clock, renders
 * errors in the route's wire format, names the scenarios that shaped the answer in its
 * `x-svc-mock-scenario` header, and journals what was answered. The msw handlers, the
 * node:http server and `emu.handle()` only translate to and from it. A request no route answers
 * is explained by unmatched.ts; routes see the request through dispatch-context.ts; the answer is
 * journaled by record-answered.ts.
 */
import type { Clock, Task } from './clock.js'
import { DEFAULT_BODY_LIMIT, SCENARIO_HEADER } from './constants.js'
import { DispatchContext, withAddedHeaders } from './dispatch-context.js'
import { HttpError, PayloadTooLargeError, UnknownScenarioError } from './errors.js'
import type { Journal, Transport } from './journal.js'
import type { Logger } from './logger.js'
import { type AnsweredRequest, recordAnswered } from './record-answered.js'
import { type FaultKind, type Reply, fault, headersOf, isNetworkFault, json, text } from './reply.js'
import type { IncomingRequest } from './request.js'
import { RouteTable, compilePattern, firstSegment } from './router.js'
import type { CompiledRoute, RequestContext, RouteDefinition } from './route.js'
import type { ActiveScenario } from './scenarios/active.js'
import { type ScenarioDecision, type ScenarioOutcome, untouched } from './scenarios/decide.js'
import type { ScenarioEngine } from './scenarios/engine.js'
import { parseActivations } from './scenarios/syntax.js'
import type { ScenarioTarget } from './scenarios/targets.js'
import type { SettingsTree } from './settings.js'
import { Unmatched } from './unmatched.js'

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

/**
 * Routing and answering requests, for every transport. The first segments of the control routes'
 * paths are reserved: a path under one is matched against the control routes only, before any
 * other, so no other route (nor the fallback) ever answers there, whatever its template.
 */
export class Pipeline {
  readonly routes: readonly CompiledRoute[]
  readonly #table = new RouteTable<CompiledRoute>()
  readonly #control = new RouteTable<CompiledRoute>()
  readonly #reserved = new Set<string>()
  readonly #services: PipelineServices
  readonly #targetNames: ReadonlySet<string>
  readonly #unmatched: Unmatched
  readonly #fallback: RouteDefinition | undefined

  /** `fallback` answers the requests for paths no route serves, in place of the 404. */
  constructor(services: PipelineServices, routes: readonly RouteDefinition[], fallback?: RouteDefinition) {
    this.#services = services
    this.#fallback = fallback
    this.#targetNames = new Set(services.targets.map((t) => t.name))
    const seen = new Set<string>()
    this.routes = routes.map((definition) => {
      if (seen.has(definition.id)) throw new Error(`Route id declared twice: ${definition.id}`)
      if (services.origins[definition.origin] === undefined) throw new Error(`Route ${definition.id} names an unknown address "${definition.origin}"`)
      seen.add(definition.id)
      const compiled = { definition, pattern: compilePattern(definition.path) }
      if (definition.control) {
        const [first] = compiled.pattern.segments
        if (first?.kind !== 'static' || first.value === '') throw new Error(`Control route ${definition.id} must begin with a fixed segment to reserve: ${definition.path}`)
        this.#reserved.add(first.value)
        this.#control.add(definition.method, compiled.pattern, compiled)
      } else {
        this.#table.add(definition.method, compiled.pattern, compiled)
      }
      return compiled
    })
    const methods = new Set([...this.#table.methods, ...this.#control.methods])
    this.#unmatched = new Unmatched(this.routes, services.origins, methods, services.routeList)
  }

  /** The id of every route a journal entry can name (the fallback's included). */
  routeIds(): string[] {
    return [...this.routes.map((r) => r.definition.id), ...(this.#fallback ? [this.#fallback.id] : [])]
  }

  /** The origins the routes live on. */
  origins(): string[] {
    return [...new Set(Object.values(this.#services.origins))]
  }

  /** Answers one request. A route answers only on its own address. */
  async serve(request: IncomingRequest, transport: Transport): Promise<Reply> {
    const { pathname } = request.url
    const reserved = this.#reserved.has(firstSegment(pathname))
    const match = (reserved ? this.#control : this.#table).match(request.method, pathname)
    if (match.kind === 'match' && this.#services.origins[match.route.definition.origin] === request.url.origin) {
      return await this.#dispatch(match.route.definition, match.params, request, transport)
    }
    if (this.#fallback && match.kind === 'not-found' && !reserved) {
      return await this.#dispatch(this.#fallback, {}, request, transport)
    }
    const answer = this.#unmatched.answer(request, match, reserved)
    const nearMiss = this.#unmatched.nearMiss(request, match, reserved)
    return this.#finish(answer, { request, transport, routeId: 'unmatched', receivedAt: this.#services.clock.now(), scenarios: [], nearMiss })
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
          return this.#finish(text(message, { status: 400 }), { request, transport, routeId: definition.id, receivedAt, scenarios: [] })
        }
      }
      const names = scenarios.targetNames(perRequest)
      const targets = names.size === 0 ? NO_TARGETS : await this.#readTargets(names, definition.id, params, request)
      decision = scenarios.decide(definition, request.method, targets, perRequest)
    }

    const ctx = new DispatchContext(request, transport, definition.id, params, receivedAt, decision, clock)

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
    if (reply.fault === undefined && added !== undefined) reply = withAddedHeaders(reply, added)
    if (decision.scenarios.length > 0 && !isNetworkFault(reply)) reply = namingScenarios(reply, decision.scenarios)
    if (decision.usedUp.length > 0) scenarios.announce(decision.usedUp)
    return this.#finish(reply, { request, transport, routeId: definition.id, receivedAt, scenarios: decision.scenarios, ctx, definition })
  }

  /** The targets some active scenario is aimed at, read from the request. */
  async #readTargets(names: ReadonlySet<string>, routeId: string, params: Record<string, string>, request: IncomingRequest): Promise<Record<string, string | undefined>> {
    const out: Record<string, string | undefined> = {}
    for (const target of this.#services.targets) {
      if (names.has(target.name)) out[target.name] = await target.read({ routeId, params, url: request.url, headers: request.headers, body: request.body })
    }
    return out
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

  /** The last step of every request: journaled and logged, unless its route is unjournaled. */
  #finish(reply: Reply, answered: AnsweredRequest): Reply {
    if (!answered.definition?.unjournaled) recordAnswered(this.#services, reply, answered)
    return reply
  }
}

/** A scenario's network fault; `cut-body` cuts a small JSON answer in half. */
function faultAnswer(kind: FaultKind): Reply {
  if (kind !== 'cut-body') return fault(kind)
  const whole = JSON.stringify({ error: 'svc-mock cut this response short (scenario fault "cut-body")' })
  return fault('cut-body', { status: 200, headers: headersOf({ 'content-type': 'application/json; charset=utf-8' }), body: whole })
}

/**
 * The answer with `x-svc-mock-scenario` naming the scenarios that shaped it (as the journal records
 * them), so a scenario left on explains the answer itself; on a copy of the headers, which a route
 * may share between answers.
 */
function namingScenarios(reply: Reply, names: readonly string[]): Reply {
  const headers = headersOf(reply.headers)
  headers.set(SCENARIO_HEADER, names.join(', '))
  return { ...reply, headers }
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
