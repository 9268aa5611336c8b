/**
 * What the scenarios on do to one request: which of them touch it (its route and targets), what
 * their rules add up to (delays add, the highest-ranked terminal rule answers), and the settings
 * they overlay on the run's. Precedence rises with the order of `touching`: the last one wins.
 */
import { type RouteRef, routeSelected } from '../route.js'
import { mergeSettings, type SettingsTree } from '../settings.js'
import type { ActiveScenario, ResolvedRule } from './active.js'
import type { Fault } from './schema.js'
import type { RequestTargets } from './targets.js'

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

/** The decision for a request no scenario touches (most requests): nothing made per request beyond it. */
export function untouched(settings: SettingsTree): ScenarioDecision {
  return { scenarios: NO_NAMES, settings, delayMs: 0, outcome: undefined, usedUp: NO_NAMES }
}

/** Whether a scenario is aimed at this route and these targets. */
export function touches(scenario: ActiveScenario, route: RouteRef, targets: RequestTargets): boolean {
  if (!scenario.routes.some((r) => routeSelected(r, route))) return false
  for (const [name, wanted] of Object.entries(scenario.target)) {
    if (name === 'route' ? !routeSelected(wanted, route) : targets[name] !== wanted) return false
  }
  return true
}

/**
 * The rules of the scenarios touching a request, highest-ranked first: the delays of every rule
 * that fires add up, and the first terminal rule (fault, error, respond) is the answer. Counts the
 * request for each matching rule's `every` and draws for its `probability`.
 */
export function applyRules(touching: readonly ActiveScenario[], route: RouteRef, method: string): { delayMs: number; outcome: ScenarioOutcome | undefined } {
  let delayMs = 0
  let outcome: ScenarioOutcome | undefined
  for (let i = touching.length - 1; i >= 0; i--) {
    const scenario = touching[i]
    if (!scenario) continue
    for (const [index, rule] of scenario.rules.entries()) {
      if (!rule.routes.some((r) => routeSelected(r, route))) continue
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
  return { delayMs, outcome }
}

/** The names of active scenarios, once per activation (the parts of one activation share a name and level). */
export function namesOf(scenarios: readonly ActiveScenario[]): string[] {
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

/**
 * The run's settings with the settings of the scenarios touching a request laid over them, in
 * rank order. The merged trees are kept per set of activations (the same few repeat on every
 * request) until the run's settings change.
 */
export class SettingsOverlay {
  #cache = new Map<string, SettingsTree>()
  #cacheBase: SettingsTree | undefined

  settings(base: SettingsTree, touching: readonly ActiveScenario[]): SettingsTree {
    const withSettings = touching.filter((s) => s.settings !== undefined)
    if (withSettings.length === 0) return base
    if (this.#cacheBase !== base) {
      this.#cache.clear()
      this.#cacheBase = base
    }
    const key = withSettings.map((s) => s.id).join(',')
    let merged = this.#cache.get(key)
    if (!merged) {
      merged = mergeSettings(base, ...withSettings.map((s) => s.settings ?? {}))
      if (this.#cache.size > 256) this.#cache.clear()
      this.#cache.set(key, merged)
    }
    return merged
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
