/**
 * An active scenario: one of the catalogue's, switched on at a level (run, test, request) with its
 * parameters filled in, its rules resolved, its aim checked and the requests it has left. A
 * scenario made of parts becomes one active scenario per part.
 */
import { suggestion } from '../closest.js'
import { ScenarioError } from '../errors.js'
import { SeededIds } from '../ids.js'
import { type RouteRef, routeSelected } from '../route.js'
import { isPlainObject, type SettingsTree } from '../settings.js'
import { type ScenarioDefinition, fillParams } from './catalogue.js'
import { type Activation, FAULTS, type Fault, type ParamValue, type ScenarioPart, type ScenarioRule } from './schema.js'
import type { ScenarioTarget } from './targets.js'

export type ScenarioLevel = 'run' | 'test' | 'request'

export interface ActiveScenario {
  readonly id: number
  readonly name: string
  /** The scenario it reproduces: its own name, or a part's `from` (a scenario made of parts has one per part). */
  readonly from: string
  /** Which part of its scenario it is (0 for a scenario without parts). */
  readonly part: number
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

/** What an activation may be aimed at: the routes and the domains' targets that exist now. */
export interface AimSources {
  routes(): readonly RouteRef[]
  targets(): readonly ScenarioTarget[]
}

/**
 * The active scenarios one activation of a scenario makes: one, or one per part of a scenario made
 * of parts. The activation's `times` and aim apply to every part, over the part's own. `nextId`
 * numbers each; `aims`, when known, refuses an aim at a route or target that does not exist.
 */
export function activeScenarios(
  definition: ScenarioDefinition,
  params: Readonly<Record<string, ParamValue>>,
  activation: Activation,
  level: ScenarioLevel,
  nextId: () => number,
  aims: AimSources | undefined,
): ActiveScenario[] {
  const { name } = definition
  const times = activation.times
  if (times !== undefined && (!Number.isInteger(times) || times < 1)) {
    throw new ScenarioError(name, 'times', `must be a whole number of requests >= 1, got ${String(times)}`)
  }
  checkAim(aims, name, activation)
  const aim = { ...activation.targets, ...(activation.route === undefined ? {} : { route: activation.route }) }
  const pieces: ReadonlyArray<ScenarioPart> = definition.parts ?? [definition]
  return pieces.map((piece, index) => {
    if (piece.aim !== undefined) {
      const { route, ...targets } = piece.aim
      checkAim(aims, `${name} parts[${index}]`, { ...(route === undefined ? {} : { route }), targets })
    }
    const settings = piece.settings ? fillParams(piece.settings, params) : undefined
    const rules = (piece.rules ?? []).map((rule) => resolveRule(rule, params))
    const seed = piece.seed ?? (typeof params.seed === 'number' ? params.seed : 1)
    return {
      id: nextId(),
      name,
      from: piece.from ?? name,
      part: index,
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

/** An activation aimed at a route or a target that does not exist is refused, naming the closest. */
function checkAim(aims: AimSources | undefined, name: string, activation: Activation): void {
  if (!aims) return
  if (activation.route !== undefined) {
    const routes = aims.routes()
    if (!routes.some((route) => routeSelected(activation.route ?? '', route))) {
      throw new ScenarioError(name, 'route', `no route "${activation.route}" exists ${suggestion(activation.route, routes.map((r) => r.id), 'route')}`)
    }
  }
  for (const [targetName, value] of Object.entries(activation.targets ?? {})) {
    const target = aims.targets().find((t) => t.name === targetName)
    if (!target) throw new ScenarioError(name, targetName, `is not something a scenario can be aimed at`)
    const values = target.values()
    if (!values.includes(value)) throw new ScenarioError(name, targetName, `no ${targetName} "${value}" exists ${suggestion(value, values, targetName)}`)
  }
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

function routesOf(definition: Pick<ScenarioDefinition, 'routes'>, rules: readonly ResolvedRule[]): string[] {
  if (definition.routes !== undefined) return typeof definition.routes === 'string' ? [definition.routes] : definition.routes
  if (rules.length === 0) return ['*']
  return [...new Set(rules.flatMap((r) => r.routes))]
}
