/**
 * The scenario catalogue: the built-in scenario files under `scenarios/` plus the user's own
 * (`--scenarios DIR`, or objects in-process), each validated with errors that name the file, the
 * field and the rule. Also fills `{"$param": …}` references with an activation's parameters.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { ScenarioError, UnknownScenarioError } from '../errors.js'
import { NESTING_RULE, nestsDeeperThan } from '../nesting.js'
import type { RouteDefinition } from '../route.js'
import { type SettingsSection, isPlainObject, settingsSchemaOf } from '../settings.js'
import { firstProblem, parseNaming, type ValidationProblem } from '../validation.js'
import { checkRoutes } from './route-check.js'
import { type ParamSpec, type ParamValue, type ScenarioFile, scenarioSchemas } from './schema.js'

export interface ScenarioDefinition extends ScenarioFile {
  /** The file it came from, or `inline`. */
  readonly source: string
}

/** Checks a (partial) settings tree against the domains' settings; returns the first problem. */
export type SettingsCheck = (settings: Record<string, unknown>) => ValidationProblem | undefined

/** A catalogue whose scenarios' settings are checked against the domains' settings sections: the one way svc-mock makes one. */
export function scenarioCatalogue(sections: readonly SettingsSection[]): ScenarioCatalogue {
  return new ScenarioCatalogue((tree) => {
    const parsed = parseNaming(settingsSchemaOf(sections), tree)
    return parsed.success ? undefined : firstProblem(parsed.error)
  })
}

export class ScenarioCatalogue {
  /** The definitions added directly, which replace a library's by name. */
  readonly #own = new Map<string, ScenarioDefinition>()
  #library: readonly ScenarioDefinition[] | (() => readonly ScenarioDefinition[]) = []
  #all: Map<string, ScenarioDefinition> | undefined
  readonly #checkSettings: SettingsCheck

  constructor(checkSettings: SettingsCheck) {
    this.#checkSettings = checkSettings
  }

  /** Adds every `*.json` file of a folder, in name order. */
  addDir(dir: string): void {
    for (const file of scenarioFiles(dir)) this.addFile(file)
  }

  /** Adds definitions validated already. */
  addValidated(definitions: readonly ScenarioDefinition[]): void {
    for (const definition of definitions) this.#set(definition)
  }

  /**
   * A library of definitions validated already (the built-in scenarios, validated at build and
   * checked against the routes by a test), read when a scenario is first looked up or listed.
   * Definitions added directly, before or after, replace its own by name; `checkRoutes()` checks those only.
   */
  setLibrary(read: () => readonly ScenarioDefinition[]): void {
    this.#library = read
    this.#all = undefined
  }

  #set(definition: ScenarioDefinition): void {
    this.#own.set(definition.name, definition)
    this.#all?.set(definition.name, definition)
  }

  #byName(): Map<string, ScenarioDefinition> {
    if (this.#all) return this.#all
    if (typeof this.#library === 'function') this.#library = this.#library()
    this.#all = new Map(this.#library.map((d) => [d.name, d]))
    for (const [name, definition] of this.#own) this.#all.set(name, definition)
    return this.#all
  }

  addFile(file: string): ScenarioDefinition {
    let raw: unknown
    try {
      raw = JSON.parse(readFileSync(file, 'utf8'))
    } catch (error) {
      const reason = error instanceof SyntaxError ? `is not valid JSON (${error.message})` : 'cannot be read'
      throw new ScenarioError(file, '', reason)
    }
    return this.add(raw, file)
  }

  /** Adds one scenario given as an object; a later scenario with the same name replaces the earlier. */
  add(raw: unknown, source = 'inline'): ScenarioDefinition {
    if (nestsDeeperThan(raw)) throw new ScenarioError(source, '', NESTING_RULE)
    // reportInput: a value of the wrong type is named by its type in the message.
    const parsed = parseNaming(scenarioSchemas().ScenarioFileSchema, raw, { reportInput: true })
    if (!parsed.success) {
      const problem = firstProblem(parsed.error)
      throw new ScenarioError(source, problem.path, problem.rule)
    }
    const definition: ScenarioDefinition = { ...parsed.data, source }
    const params = this.fillDefaults(definition, {}, source)
    const pieces = definition.parts === undefined ? [{ piece: definition, at: '' }] : definition.parts.map((piece, i) => ({ piece, at: `parts[${i}].` }))
    for (const { piece, at } of pieces) {
      for (const [index, rule] of (piece.rules ?? []).entries()) {
        checkParamRefs(rule, definition.params ?? {}, source, `${at}rules[${index}]`)
      }
      if (piece.settings) {
        checkParamRefs(piece.settings, definition.params ?? {}, source, `${at}settings`)
        const filled = fillParams(piece.settings, params)
        if (isPlainObject(filled)) {
          const problem = this.#checkSettings(filled)
          if (problem) throw new ScenarioError(source, joinPath(`${at}settings`, problem.path), problem.rule)
        }
      }
    }
    this.#set(definition)
    return definition
  }

  get(name: string): ScenarioDefinition {
    const found = this.#byName().get(name)
    if (!found) throw new UnknownScenarioError(name, this.names())
    return found
  }

  has(name: string): boolean {
    return this.#byName().has(name)
  }

  names(): string[] {
    return [...this.#byName().keys()].sort()
  }

  list(): ScenarioDefinition[] {
    return this.names().map((name) => this.get(name))
  }

  /**
   * Checks the scenarios added directly against the routes served, once they are known (a
   * library's were checked when it was made): a route selector that matches no route, or an error
   * no targeted route knows, is refused (route-check.ts).
   */
  checkRoutes(routes: readonly RouteDefinition[]): void {
    for (const definition of this.#own.values()) checkRoutes(definition, definition.source, routes)
  }

  /** The parameters of an activation: given values checked against the specs, defaults filled in. */
  fillDefaults(
    definition: ScenarioDefinition,
    given: Readonly<Record<string, ParamValue>>,
    source = definition.name,
  ): Record<string, ParamValue> {
    const specs = definition.params ?? {}
    const out: Record<string, ParamValue> = {}
    for (const key of Object.keys(given)) {
      if (!(key in specs)) {
        const known = Object.keys(specs)
        throw new ScenarioError(
          source,
          `params.${key}`,
          known.length > 0 ? `unknown parameter; "${definition.name}" takes ${known.join(', ')}` : `"${definition.name}" takes no parameters`,
        )
      }
    }
    for (const [key, spec] of Object.entries(specs)) {
      const value = given[key] ?? spec.default
      if (value === undefined) throw new ScenarioError(source, `params.${key}`, 'is required (it has no default)')
      out[key] = coerceParam(value, spec, source, key)
    }
    return out
  }
}

/** The `*.json` files of a scenario folder, in name order. */
export function scenarioFiles(dir: string): string[] {
  const path = resolve(dir)
  let names: string[]
  try {
    if (!statSync(path).isDirectory()) throw new ScenarioError(path, '', 'is not a folder')
    names = readdirSync(path)
  } catch (error) {
    if (error instanceof ScenarioError) throw error
    throw new ScenarioError(path, '', 'cannot be read (does the folder exist?)')
  }
  return names
    .filter((n) => n.endsWith('.json'))
    .sort()
    .map((name) => join(path, name))
}

function joinPath(a: string, b: string): string {
  return b === '' ? a : b.startsWith('[') ? `${a}${b}` : `${a}.${b}`
}

/** Turns a parameter given as text (flag, header) or JSON into the type its spec asks for. */
export function coerceParam(value: ParamValue, spec: ParamSpec, source: string, key: string): ParamValue {
  if (spec.type === 'number') {
    const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : Number.NaN
    if (!Number.isFinite(n)) throw new ScenarioError(source, `params.${key}`, `must be a number, got "${String(value)}"`)
    if (spec.min !== undefined && n < spec.min) throw new ScenarioError(source, `params.${key}`, `must be at least ${spec.min}`)
    if (spec.max !== undefined && n > spec.max) throw new ScenarioError(source, `params.${key}`, `must be at most ${spec.max}`)
    return n
  }
  if (spec.type === 'boolean') {
    if (value === true || value === 'true') return true
    if (value === false || value === 'false') return false
    throw new ScenarioError(source, `params.${key}`, `must be true or false, got "${String(value)}"`)
  }
  const text = String(value)
  if (spec.oneOf && !spec.oneOf.includes(text)) {
    throw new ScenarioError(source, `params.${key}`, `must be one of ${spec.oneOf.join(', ')}, got "${text}"`)
  }
  return text
}

/** Replaces every `{"$param": name}` in a JSON value with the parameter's value. */
export function fillParams(value: unknown, params: Readonly<Record<string, ParamValue>>): unknown {
  if (Array.isArray(value)) return value.map((item) => fillParams(item, params))
  if (isPlainObject(value)) {
    const ref = value.$param
    if (typeof ref === 'string' && Object.keys(value).length === 1) return params[ref]
    const out: Record<string, unknown> = {}
    for (const [key, item] of Object.entries(value)) out[key] = fillParams(item, params)
    return out
  }
  return value
}

function checkParamRefs(value: unknown, specs: Record<string, ParamSpec>, source: string, path: string): void {
  if (Array.isArray(value)) {
    value.forEach((item, i) => checkParamRefs(item, specs, source, `${path}[${i}]`))
    return
  }
  if (!isPlainObject(value)) return
  const ref = value.$param
  if (typeof ref === 'string' && Object.keys(value).length === 1) {
    if (!(ref in specs)) throw new ScenarioError(source, path, `refers to parameter "${ref}", which "params" does not declare`)
    return
  }
  for (const [key, item] of Object.entries(value)) checkParamRefs(item, specs, source, `${path}.${key}`)
}
