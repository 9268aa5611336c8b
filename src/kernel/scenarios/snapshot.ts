/**
 * What is on, saved as one scenario file that reproduces it (`GET /__svc-mock/scenarios.json`,
 * `emu.scenarios.snapshot()`): a part per active scenario, in rank order, with its parameters
 * filled in, its aim and the requests it has left.
 */
import type { JsonObject } from '../json.js'
import type { ActiveScenario, ResolvedRule } from './active.js'
import type { ScenarioFile, ScenarioPart, ScenarioRule } from './schema.js'

/**
 * The file of the scenarios `active` (in rank order): each part with its routes, its settings and
 * rules, its aim and the requests it has left. A rule's `every` count and `probability` draws start
 * afresh when the file is switched on.
 */
export function snapshotFile(active: readonly ActiveScenario[], name: string, description?: string): ScenarioFile {
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
