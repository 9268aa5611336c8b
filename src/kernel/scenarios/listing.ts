/**
 * The scenario list (`GET /__svc-mock/scenarios`, `emu.scenarios.list()`): every scenario of the
 * catalogue with its parameters, and for each one on, how it was switched on and how it ranks.
 */
import type { ActiveScenario, ScenarioLevel } from './active.js'
import type { ScenarioDefinition } from './catalogue.js'
import type { ParamValue } from './schema.js'

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

/** The catalogue's scenarios, each with its activation when it is among `active` (in rank order). */
export function listScenarios(definitions: readonly ScenarioDefinition[], active: readonly ActiveScenario[]): ScenarioListing[] {
  const on = new Map<string, ActiveScenario[]>()
  for (const s of active) on.set(s.name, [...(on.get(s.name) ?? []), s])
  const order = [...on.keys()]
  return definitions.map((definition) => {
    const parts = on.get(definition.name)
    const first = parts?.[0]
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
      active: first !== undefined,
      ...(first
        ? {
            activation: {
              params: { ...first.params },
              target: first.target,
              remaining: left(first),
              level: first.level,
              order: order.indexOf(definition.name) + 1,
              ...(definition.parts === undefined ? {} : { parts: (parts ?? []).map((p) => ({ from: p.from, target: p.target, remaining: left(p) })) }),
            },
          }
        : {}),
      source: definition.source,
    }
  })
}

/** Requests left, or null for no limit. */
function left(scenario: ActiveScenario): number | null {
  return Number.isFinite(scenario.remaining) ? scenario.remaining : null
}
