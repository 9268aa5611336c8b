/**
 * A scenario file checked against the routes the emulator serves, once they are known (at start):
 * every route selector (`routes`, a rule's `route`, a part's `aim.route`) must match a route a
 * scenario can shape, and a rule's `error` must be one a route it targets knows. A typo
 * (`version.*`) would otherwise be accepted and never match; the refusal names the closest.
 */
import { closest } from '../closest.js'
import { ScenarioError } from '../errors.js'
import { type RouteDefinition, routeSelected } from '../route.js'
import type { ScenarioFile, ScenarioRule } from './schema.js'

interface Selector {
  readonly pattern: string
  /** Where in the file, as `rules[0].route[1]`. */
  readonly at: string
}

/** `source`: the file the scenario came from, for the error. */
export function checkRoutes(definition: ScenarioFile, source: string, routes: readonly RouteDefinition[]): void {
  const shapeable = routes.filter((r) => !r.control)
  const pieces = definition.parts === undefined ? [{ piece: definition, at: '', aim: undefined }] : definition.parts.map((part, p) => ({ piece: part, at: `parts[${p}].`, aim: part.aim?.route }))
  for (const { piece, at, aim } of pieces) {
    const selectors = selectorsOf(piece.routes, `${at}routes`)
    if (aim !== undefined) selectors.push({ pattern: aim, at: `${at}aim.route` })
    const rules = (piece.rules ?? []).map((rule, i) => ({ rule, at: `${at}rules[${i}]` }))
    for (const { rule, at: ruleAt } of rules) selectors.push(...selectorsOf(rule.route, `${ruleAt}.route`))
    for (const selector of selectors) checkSelector(source, selector, shapeable, routes)
    for (const { rule, at: ruleAt } of rules) checkError(source, rule, ruleAt, shapeable)
  }
}

function selectorsOf(value: string | readonly string[] | undefined, at: string): Selector[] {
  if (value === undefined) return []
  if (typeof value === 'string') return [{ pattern: value, at }]
  return value.map((pattern, i) => ({ pattern, at: `${at}[${i}]` }))
}

function checkSelector(source: string, { pattern, at }: Selector, shapeable: readonly RouteDefinition[], all: readonly RouteDefinition[]): void {
  if (shapeable.some((r) => routeSelected(pattern, r))) return
  const near = closest(pattern, candidates(shapeable))
  const control = all.some((r) => r.control && routeSelected(pattern, r)) ? ' a scenario can shape (the control plane\'s never are)' : ''
  throw new ScenarioError(
    source,
    at,
    `"${pattern}" matches no route${control} (${near === undefined ? '' : `did you mean "${near}"? `}a route id such as versions.list, a prefix such as versions.* or auth.*, a tag such as @gated, or *; GET /__svc-mock/routes lists them)`,
  )
}

/** Route ids and their prefixes (`auth.*`, `auth.oauth.*`): what a selector may be a typo of. */
function candidates(routes: readonly RouteDefinition[]): Set<string> {
  const out = new Set<string>()
  for (const { id, tags } of routes) {
    out.add(id)
    for (const tag of tags ?? []) out.add(`@${tag}`)
    const segments = id.split('.')
    for (let n = 1; n < segments.length; n++) out.add(`${segments.slice(0, n).join('.')}.*`)
  }
  return out
}

/** A rule asking for a domain error that no route it targets knows. */
function checkError(source: string, rule: ScenarioRule, at: string, shapeable: readonly RouteDefinition[]): void {
  if (rule.error === undefined) return
  const selectors = typeof rule.route === 'string' ? [rule.route] : rule.route
  const targeted = shapeable.filter((r) => selectors.some((s) => routeSelected(s, r)))
  if (targeted.some((r) => r.scenarioErrors?.includes(rule.error ?? ''))) return
  const known = [...new Set(targeted.flatMap((r) => r.scenarioErrors ?? []))]
  throw new ScenarioError(source, `${at}.error`, `no route it targets knows the error "${rule.error}"${known.length > 0 ? ` (they know: ${known.join(', ')})` : ''}`)
}
