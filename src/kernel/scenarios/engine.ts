/**
 * The scenario engine: which scenarios are on, and what they do to one request.
 *
 * A scenario is switched on at one of three levels: for the run (flag, environment, control
 * plane, `emu.scenarios.use()`), for one test (`use()` inside `emu.scenarios.boundary(fn)`, kept in
 * an async context so concurrent tests never see each other's), or for one request (header
 * `x-svc-mock-scenario`). Precedence rises run < test < request, and within a level the later
 * activation wins: its settings are applied last, and its terminal rule (fault, error, respond)
 * is the one that answers. The delays of every matching rule add up.
 */
import { AsyncLocalStorage } from 'node:async_hooks'
import { ScenarioError } from '../errors.js'
import { suggestion } from '../closest.js'
import type { ScenarioTarget } from '../domain.js'
import { routeMatches } from '../route.js'
import type { JsonObject } from '../json.js'
import { mergeSettings, isPlainObject, type SettingsTree } from '../settings.js'
import { type ScenarioCatalogue, type ScenarioDefinition, fillParams } from './catalogue.js'
import { SeededIds } from '../ids.js'
import { type Activation, FAULTS, type Fault, type ParamValue, type ScenarioFile, type ScenarioPart, type ScenarioRule } from './schema.js'

export type { Activation }

export type ScenarioLevel = 'run' | 'test' | 'request'


export interface ActiveScenario {
  readonly id: number
  readonly name: string
  /** The scenario it reproduces: its own name, or a part's `from` (a scenario made of parts has one per part). */
  readonly from: string
  readonly level: ScenarioLevel
  readonly params: Readonly<Record<string, ParamValue>>
  /** What it is aimed at: `route` and the domains' targets, by name. */
  readonly target: Readonly<Record<string, string>>
  readonly rules: readonly ResolvedRule[]
  readonly settings: SettingsTree | undefined
  readonly routes: readonly string[]
  /** Requests left before it switches itself off; Infinity for no limit. */
  remaining: number
  /** The seed of `random`. */
  readonly seed: number
  /** Draws for rules with `probability`, seeded by the `seed` parameter so a run repeats. */
  readonly random: SeededIds
  /** Matching requests seen so far, per rule (for `every`). */
  readonly seen: number[]
}

export interface ResolvedRule {
  readonly routes: readonly string[]
  readonly method: string | undefined
  readonly delay: number
  readonly fault: Fault | undefined
  /** Share of matching requests the rule applies to; undefined: all. */
  readonly probability: number | undefined
  /** Applies to every Nth matching request; undefined or 0: all. */
  readonly every: number | undefined
  readonly error: string | undefined
  readonly message: string | undefined
  readonly respond: ScenarioRule['respond']
}

export type ScenarioOutcome =
  | { kind: 'fault'; fault: Fault; scenario: string }
  | { kind: 'error'; code: string; message: string | undefined; scenario: string }
  | { kind: 'respond'; status: number; headers: Record<string, string>; body: unknown; scenario: string }

export interface ScenarioDecision {
  /** Scenarios that touch this request, in precedence order (lowest first). */
  readonly scenarios: readonly string[]
  readonly settings: SettingsTree
  readonly delayMs: number
  readonly outcome: ScenarioOutcome | undefined
  /**
   * Run-level scenarios this request used up (`times`): already off for later requests, but
   * announced to listeners only by `announce()` once this request is answered, so that what a
   * listener does (a flow taking up its queue) cannot change the answer of the request itself.
   */
  readonly usedUp: readonly string[]
}

const NO_NAMES: readonly string[] = Object.freeze([])
const NO_TARGET_NAMES: ReadonlySet<string> = new Set()

/** The decision for a request no scenario touches (most requests): nothing made per request beyond it. */
export function untouched(settings: SettingsTree): ScenarioDecision {
  return { scenarios: NO_NAMES, settings, delayMs: 0, outcome: undefined, usedUp: NO_NAMES }
}

/** A request's targets, by name (read only for the names some active scenario is aimed at). */
export type RequestTargets = Readonly<Record<string, string | undefined>>

export interface ScenarioListing {
  name: string
  description: string
  summary: string | undefined
  params: Record<string, { type: string; default?: ParamValue; description?: string }>
  active: boolean
  /** Present when active: the activation's parameters, target and requests left. */
  activation?: {
    params: Record<string, ParamValue>
    target: ActiveScenario['target']
    remaining: number | null
    level: ScenarioLevel
    /** Its rank among the scenarios on (1: switched on first, so the others win where they overlap). */
    order: number
    /** A scenario made of parts: each part's origin, aim and requests left (`target` and `remaining` are then the first part's). */
    parts?: Array<{ from: string; target: ActiveScenario['target']; remaining: number | null }>
  }
  source: string
}

interface BoundaryStore {
  active: ActiveScenario[]
  hidden: Set<string>
}

export type ScenarioChangeListener = (event: { name: string; on: boolean; level: ScenarioLevel }) => void

/** What an activation may be aimed at: the routes and the domains' targets that exist now. */
export interface AimSources {
  routes(): readonly string[]
  targets(): readonly ScenarioTarget[]
}

export class ScenarioEngine {
  readonly catalogue: ScenarioCatalogue
  /** Set by the composition root once the routes and targets are known. */
  aims: AimSources | undefined
  #run: ActiveScenario[] = []
  #nextId = 1
  #als = new AsyncLocalStorage<BoundaryStore>()
  #listeners = new Set<ScenarioChangeListener>()
  #base: () => SettingsTree
  #settingsCache = new Map<string, SettingsTree>()
  #cacheBase: SettingsTree | undefined

  constructor(catalogue: ScenarioCatalogue, baseSettings: () => SettingsTree) {
    this.catalogue = catalogue
    this.#base = baseSettings
  }

  /**
   * Switches a scenario on: inside a `boundary()` for that boundary only, otherwise for the run.
   * Switching on a scenario that is already on replaces its activation.
   */
  use(name: string, activation: Activation = {}): ActiveScenario[] {
    const store = this.#als.getStore()
    const level: ScenarioLevel = store ? 'test' : 'run'
    const active = this.activate(name, activation, level)
    if (store) {
      store.active = store.active.filter((s) => s.name !== name)
      store.active.push(...active)
      store.hidden.delete(name)
    } else {
      this.#run = this.#run.filter((s) => s.name !== name)
      this.#run.push(...active)
      this.#emit({ name, on: true, level })
    }
    return active
  }

  /** Switches a scenario off (inside a boundary: hides it there, even if the run has it on). */
  off(name: string): boolean {
    this.catalogue.get(name)
    const store = this.#als.getStore()
    if (store) {
      const had = store.active.some((s) => s.name === name) || this.#run.some((s) => s.name === name)
      store.active = store.active.filter((s) => s.name !== name)
      store.hidden.add(name)
      return had
    }
    const before = this.#run.length
    this.#run = this.#run.filter((s) => s.name !== name)
    const changed = this.#run.length !== before
    if (changed) this.#emit({ name, on: false, level: 'run' })
    return changed
  }

  /** Switches every run-level scenario off (a boundary's own are dropped with the boundary). */
  reset(): void {
    const names = this.#run.map((s) => s.name)
    this.#run = []
    for (const name of names) this.#emit({ name, on: false, level: 'run' })
  }

  /**
   * Wraps a function so that scenarios switched on inside it (with `use()`) apply only to the
   * requests it makes, however many tests run at the same time. Like msw's `server.boundary()`.
   */
  boundary<Args extends unknown[], R>(fn: (...args: Args) => R): (...args: Args) => R {
    return (...args: Args): R => {
      const parent = this.#als.getStore()
      const store: BoundaryStore = {
        active: parent ? [...parent.active] : [],
        hidden: new Set(parent?.hidden ?? []),
      }
      return this.#als.run(store, () => fn(...args))
    }
  }

  /** The scenarios on where this is called from (run-level, plus the boundary's own inside one). */
  active(): ActiveScenario[] {
    const store = this.#als.getStore()
    if (!store) return [...this.#run]
    return [...this.#run.filter((s) => !store.hidden.has(s.name)), ...store.active]
  }

  list(): ScenarioListing[] {
    const active = new Map<string, ActiveScenario[]>()
    for (const s of this.active()) active.set(s.name, [...(active.get(s.name) ?? []), s])
    const order = [...active.keys()]
    return this.catalogue.list().map((definition) => {
      const parts = active.get(definition.name)
      const on = parts?.[0]
      const params: ScenarioListing['params'] = {}
      for (const [key, spec] of Object.entries(definition.params ?? {})) {
        params[key] = {
          type: spec.type,
          ...(spec.default === undefined ? {} : { default: spec.default }),
          ...(spec.description === undefined ? {} : { description: spec.description }),
        }
      }
      return {
        name: definition.name,
        description: definition.description,
        summary: definition.summary,
        params,
        active: on !== undefined,
        ...(on
          ? {
              activation: {
                params: { ...on.params },
                target: on.target,
                remaining: left(on),
                level: on.level,
                order: order.indexOf(definition.name) + 1,
                ...(definition.parts === undefined ? {} : { parts: (parts ?? []).map((p) => ({ from: p.from, target: p.target, remaining: left(p) })) }),
              },
            }
          : {}),
        source: definition.source,
      }
    })
  }

  onChange(listener: ScenarioChangeListener): () => void {
    this.#listeners.add(listener)
    return () => this.#listeners.delete(listener)
  }

  /**
   * Builds an activation without switching it on (used for per-request scenarios): one active
   * scenario, or one per part of a scenario made of parts. The activation's `times` and aim apply
   * to every part, over the part's own.
   */
  activate(name: string, activation: Activation, level: ScenarioLevel): ActiveScenario[] {
    const definition = this.catalogue.get(name)
    const params = this.catalogue.fillDefaults(definition, activation.params ?? {})
    const times = activation.times
    if (times !== undefined && (!Number.isInteger(times) || times < 1)) {
      throw new ScenarioError(name, 'times', `must be a whole number of requests >= 1, got ${String(times)}`)
    }
    this.#checkAim(name, activation)
    const aim = { ...activation.targets, ...(activation.route === undefined ? {} : { route: activation.route }) }
    const pieces: ReadonlyArray<ScenarioPart> = definition.parts ?? [definition]
    return pieces.map((piece, index) => {
      if (piece.aim !== undefined) {
        const { route, ...targets } = piece.aim
        this.#checkAim(`${name} parts[${index}]`, { ...(route === undefined ? {} : { route }), targets })
      }
      const settings = piece.settings ? fillParams(piece.settings, params) : undefined
      const rules = (piece.rules ?? []).map((rule) => resolveRule(rule, params))
      const seed = piece.seed ?? (typeof params.seed === 'number' ? params.seed : 1)
      return {
        id: this.#nextId++,
        name,
        from: piece.from ?? name,
        level,
        params,
        target: { ...piece.aim, ...aim },
        rules,
        settings: isPlainObject(settings) ? settings : undefined,
        routes: routesOf(piece, rules),
        remaining: times ?? piece.times ?? Number.POSITIVE_INFINITY,
        seed,
        random: new SeededIds(seed),
        seen: rules.map(() => 0),
      }
    })
  }

  /**
   * What is on here, as one scenario file that reproduces it: a part per scenario on (per part of
   * a scenario made of parts), in the order they rank, each with its routes, its settings and
   * rules with the parameters filled in, its aim and the requests it has left. A rule's `every`
   * count and `probability` draws start afresh when the file is switched on.
   */
  snapshot(name: string, description?: string): ScenarioFile {
    const active = this.active()
    const names = [...new Set(active.map((s) => s.name))]
    const parts = active.map((s): ScenarioPart => ({
      from: s.from,
      routes: s.routes.length === 1 && s.routes[0] !== undefined ? s.routes[0] : [...s.routes],
      // Settings come from scenario files or JSON bodies with parameters filled in: JSON values.
      ...(s.settings === undefined ? {} : { settings: s.settings as JsonObject }),
      ...(s.rules.length === 0 ? {} : { rules: s.rules.map(ruleOf) }),
      ...(Object.keys(s.target).length === 0 ? {} : { aim: { ...s.target } }),
      ...(Number.isFinite(s.remaining) ? { times: s.remaining } : {}),
      ...(s.rules.some((r) => r.probability !== undefined) ? { seed: s.seed } : {}),
    }))
    const described = active.map((s) => describePart(s)).join('; then ')
    return {
      name,
      summary: names.length === 0 ? 'Nothing: no scenario was on when this was saved.' : `What was on, together: ${names.join(', ')}.`,
      description:
        description ??
        (active.length === 0
          ? 'Saved from svc-mock while no scenario was on: switching it on changes nothing.'
          : `Saved from svc-mock: the scenarios that were on, one part each, in the order they ranked (a later part wins where two touch the same request): ${described}.`),
      parts,
    }
  }

  /** The target names the scenarios on here are aimed at (the pipeline reads only those from a request). */
  targetNames(perRequest: readonly ActiveScenario[]): ReadonlySet<string> {
    let names: Set<string> | undefined
    for (const list of [this.active(), perRequest]) {
      for (const scenario of list) {
        for (const name of Object.keys(scenario.target)) if (name !== 'route') (names ??= new Set()).add(name)
      }
    }
    return names ?? NO_TARGET_NAMES
  }

  /**
   * What the active scenarios do to one request. Counts the request against each scenario's
   * `times` (a scenario with none left switches itself off).
   */
  decide(routeId: string, method: string, targets: RequestTargets, perRequest: readonly ActiveScenario[]): ScenarioDecision {
    const base = this.#base()
    const candidates = perRequest.length === 0 ? this.active() : [...this.active(), ...perRequest]
    if (candidates.length === 0) return untouched(base)

    const touching = candidates.filter((s) => touches(s, routeId, targets))
    if (touching.length === 0) return untouched(base)

    let delayMs = 0
    let outcome: ScenarioOutcome | undefined
    for (let i = touching.length - 1; i >= 0; i--) {
      const scenario = touching[i]
      if (!scenario) continue
      for (const [index, rule] of scenario.rules.entries()) {
        if (!rule.routes.some((r) => routeMatches(r, routeId))) continue
        if (rule.method !== undefined && rule.method.toUpperCase() !== method) continue
        if (!fires(scenario, index, rule)) continue
        delayMs += rule.delay
        if (outcome) continue
        if (rule.fault) outcome = { kind: 'fault', fault: rule.fault, scenario: scenario.name }
        else if (rule.error) outcome = { kind: 'error', code: rule.error, message: rule.message, scenario: scenario.name }
        else if (rule.respond) {
          outcome = {
            kind: 'respond',
            status: rule.respond.status,
            headers: rule.respond.headers ?? {},
            body: rule.respond.body,
            scenario: scenario.name,
          }
        }
      }
    }
    const usedUp = touching.filter((scenario) => this.#consume(scenario)).map((s) => s.name)
    return {
      scenarios: namesOf(touching),
      settings: this.#settingsFor(base, touching),
      delayMs,
      outcome,
      usedUp,
    }
  }

  /** Tells listeners about run-level scenarios a request used up, once it is answered. */
  announce(usedUp: readonly string[]): void {
    for (const name of usedUp) this.#emit({ name, on: false, level: 'run' })
  }

  /**
   * The settings the scenarios on where this is called from give a route and target, without
   * counting a request against their `times`: for work outside a request (a flow taking up its
   * queue) that must see what a request to the same route would see.
   */
  settingsAt(routeId: string, targets: RequestTargets): SettingsTree {
    const base = this.#base()
    const touching = this.active().filter((s) => touches(s, routeId, targets))
    return touching.length === 0 ? base : this.#settingsFor(base, touching)
  }

  /** Names of the scenarios on here that touch a route and target, without counting a request. */
  touchingAt(routeId: string, targets: RequestTargets): string[] {
    return namesOf(this.active().filter((s) => touches(s, routeId, targets)))
  }

  /** An activation aimed at a route or a target that does not exist is refused, naming the closest. */
  #checkAim(name: string, activation: Activation): void {
    const aims = this.aims
    if (!aims) return
    if (activation.route !== undefined) {
      const routes = aims.routes()
      if (!routes.some((id) => routeMatches(activation.route ?? '', id))) {
        throw new ScenarioError(name, 'route', `no route "${activation.route}" exists ${suggestion(activation.route, routes, 'route')}`)
      }
    }
    for (const [targetName, value] of Object.entries(activation.targets ?? {})) {
      const target = aims.targets().find((t) => t.name === targetName)
      if (!target) throw new ScenarioError(name, targetName, `is not something a scenario can be aimed at`)
      const values = target.values()
      if (!values.includes(value)) throw new ScenarioError(name, targetName, `no ${targetName} "${value}" exists ${suggestion(value, values, targetName)}`)
    }
  }

  /** Counts a request against `times`; true when that switched a run-level scenario off. */
  #consume(scenario: ActiveScenario): boolean {
    if (!Number.isFinite(scenario.remaining)) return false
    scenario.remaining--
    if (scenario.remaining > 0) return false
    if (scenario.level === 'run') {
      const before = this.#run.length
      this.#run = this.#run.filter((s) => s.id !== scenario.id)
      return this.#run.length !== before
    }
    if (scenario.level === 'test') {
      const store = this.#als.getStore()
      if (store) store.active = store.active.filter((s) => s.id !== scenario.id)
    }
    return false
  }

  #settingsFor(base: SettingsTree, touching: readonly ActiveScenario[]): SettingsTree {
    const withSettings = touching.filter((s) => s.settings !== undefined)
    if (withSettings.length === 0) return base
    if (this.#cacheBase !== base) {
      this.#settingsCache.clear()
      this.#cacheBase = base
    }
    const key = withSettings.map((s) => s.id).join(',')
    let merged = this.#settingsCache.get(key)
    if (!merged) {
      merged = mergeSettings(base, ...withSettings.map((s) => s.settings ?? {}))
      if (this.#settingsCache.size > 256) this.#settingsCache.clear()
      this.#settingsCache.set(key, merged)
    }
    return merged
  }

  #emit(event: { name: string; on: boolean; level: ScenarioLevel }): void {
    for (const listener of this.#listeners) listener(event)
  }
}

/** Whether a matching rule applies to this request: its `every` count and its `probability` draw. */
function fires(scenario: ActiveScenario, index: number, rule: ResolvedRule): boolean {
  const seen = (scenario.seen[index] ?? 0) + 1
  scenario.seen[index] = seen
  if (rule.every !== undefined && rule.every > 0) return seen % rule.every === 0
  if (rule.probability !== undefined) return scenario.random.next() / 0x1_0000_0000 < rule.probability
  return true
}

function numberParam(value: number | { $param: string } | undefined, params: Readonly<Record<string, ParamValue>>): number | undefined {
  if (value === undefined) return undefined
  const n = typeof value === 'number' ? value : Number(params[value.$param])
  return Number.isFinite(n) ? n : undefined
}

function resolveRule(rule: ScenarioRule, params: Readonly<Record<string, ParamValue>>): ResolvedRule {
  const delay = numberParam(rule.delay, params) ?? 0
  const fault = rule.fault === undefined ? undefined : typeof rule.fault === 'string' ? rule.fault : params[rule.fault.$param]
  if (fault !== undefined && !(FAULTS as readonly unknown[]).includes(fault)) {
    throw new ScenarioError('fault', 'fault', `must be one of ${FAULTS.join(', ')}, got "${String(fault)}"`)
  }
  return {
    routes: typeof rule.route === 'string' ? [rule.route] : rule.route,
    method: rule.method,
    delay: delay > 0 ? delay : 0,
    fault: fault as Fault | undefined,
    probability: numberParam(rule.probability, params),
    every: numberParam(rule.every, params),
    error: rule.error,
    message: rule.message,
    respond: rule.respond ? (fillParams(rule.respond, params) as ScenarioRule['respond']) : undefined,
  }
}

/** The names of active scenarios, once per activation (the parts of one activation share a name and level). */
function namesOf(scenarios: readonly ActiveScenario[]): string[] {
  const seen = new Set<string>()
  const names: string[] = []
  for (const s of scenarios) {
    const key = `${s.level}:${s.name}`
    if (seen.has(key)) continue
    seen.add(key)
    names.push(s.name)
  }
  return names
}

/** Requests left, or null for no limit. */
function left(scenario: ActiveScenario): number | null {
  return Number.isFinite(scenario.remaining) ? scenario.remaining : null
}

/** A resolved rule written back as a file's rule. */
function ruleOf(rule: ResolvedRule): ScenarioRule {
  return {
    route: rule.routes.length === 1 && rule.routes[0] !== undefined ? rule.routes[0] : [...rule.routes],
    ...(rule.method === undefined ? {} : { method: rule.method }),
    ...(rule.delay > 0 ? { delay: rule.delay } : {}),
    ...(rule.fault === undefined ? {} : { fault: rule.fault }),
    ...(rule.probability === undefined ? {} : { probability: rule.probability }),
    ...(rule.every === undefined || rule.every === 0 ? {} : { every: rule.every }),
    ...(rule.error === undefined ? {} : { error: rule.error }),
    ...(rule.message === undefined ? {} : { message: rule.message }),
    ...(rule.respond === undefined ? {} : { respond: rule.respond }),
  }
}

/** `webhook-queue-full (capacity=2; webhook orders; 5 requests left)`. */
function describePart(s: ActiveScenario): string {
  const details = [
    ...Object.entries(s.params).map(([key, value]) => `${key}=${String(value)}`),
    ...Object.entries(s.target).map(([key, value]) => `${key} ${value}`),
    ...(Number.isFinite(s.remaining) ? [`${s.remaining} request${s.remaining === 1 ? '' : 's'} left`] : []),
  ]
  return details.length === 0 ? s.from : `${s.from} (${details.join('; ')})`
}

function routesOf(definition: Pick<ScenarioDefinition, 'routes'>, rules: readonly ResolvedRule[]): string[] {
  if (definition.routes !== undefined) return typeof definition.routes === 'string' ? [definition.routes] : definition.routes
  if (rules.length === 0) return ['*']
  return [...new Set(rules.flatMap((r) => r.routes))]
}

function touches(scenario: ActiveScenario, routeId: string, targets: RequestTargets): boolean {
  if (!scenario.routes.some((r) => routeMatches(r, routeId))) return false
  for (const [name, wanted] of Object.entries(scenario.target)) {
    if (name === 'route' ? !routeMatches(wanted, routeId) : targets[name] !== wanted) return false
  }
  return true
}
