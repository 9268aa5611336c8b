/**
 * Placeholders in a route's answer: `{{path.NAME}}`, `{{query.NAME}}`, `{{identity.id}}`, `{{now}}`
 * (the emulator clock, ISO 8601) and `{{uuid}}` (from the run's seeded ids), in the string values
 * of `headers` and `body`. Each string is cut into parts once, when the route is declared (an
 * unknown placeholder is refused then, naming the closest); a body without any is serialized once.
 */
import { closest } from '../kernel/closest.js'
import type { JsonValue } from '../kernel/json.js'

/** What a placeholder reads at request time. */
export interface PlaceholderValues {
  readonly params: Readonly<Record<string, string>>
  readonly query: URLSearchParams
  /** The caller's id (user id, client id, or an application key's id); empty on a public route. */
  readonly identity: string
  readonly now: () => string
  readonly uuid: () => string
}

type Part = string | ((values: PlaceholderValues) => string)

/** A string cut into text and placeholders. */
export type Rendered = readonly Part[]

const PLACEHOLDER = /\{\{\s*([^{}]*?)\s*\}\}/g

/** Whether a text holds what a route file reads as a placeholder (a recording keeps such text out of the file's strings). */
export function holdsPlaceholder(text: string): boolean {
  return /\{\{\s*[^{}]*?\s*\}\}/.test(text)
}

/** What a template may name, for the rule it breaks. */
export interface PlaceholderScope {
  /** The path template's parameters. */
  readonly params: readonly string[]
  /** Whether the route has a caller (its `auth` is not "none"). */
  readonly identity: boolean
}

/** Cuts a string into parts; throws the problem (a message) for an unknown placeholder. */
export function compileString(text: string, scope: PlaceholderScope): Rendered {
  const parts: Part[] = []
  let last = 0
  for (const match of text.matchAll(PLACEHOLDER)) {
    const index = match.index
    if (index > last) parts.push(text.slice(last, index))
    parts.push(reader(match[1] ?? '', scope))
    last = index + match[0].length
  }
  if (last < text.length) parts.push(text.slice(last))
  return parts
}

function reader(name: string, scope: PlaceholderScope): Part {
  if (name === 'now') return (v) => v.now()
  if (name === 'uuid') return (v) => v.uuid()
  if (name === 'identity.id') {
    if (!scope.identity) throw new Error('{{identity.id}} needs a caller, and this route has auth "none"')
    return (v) => v.identity
  }
  const path = /^path\.(.+)$/.exec(name)
  if (path) {
    const param = path[1] ?? ''
    if (!scope.params.includes(param)) {
      const near = closest(param, scope.params)
      const known = scope.params.length === 0 ? 'the path has no parameters' : `its parameters: ${scope.params.join(', ')}`
      throw new Error(`{{${name}}} names no parameter of the path${near === undefined ? '' : ` (did you mean {{path.${near}}}?)`}; ${known}`)
    }
    return (v) => v.params[param] ?? ''
  }
  const query = /^query\.(.+)$/.exec(name)
  if (query) {
    const key = query[1] ?? ''
    return (v) => v.query.get(key) ?? ''
  }
  const known = [...scope.params.map((p) => `path.${p}`), 'query.NAME', ...(scope.identity ? ['identity.id'] : []), 'now', 'uuid']
  const near = closest(name, known)
  throw new Error(`unknown placeholder {{${name}}}${near === undefined ? '' : ` (did you mean {{${near}}}?)`}; placeholders: ${known.map((k) => `{{${k}}}`).join(', ')}`)
}

/** Whether the string holds no placeholder (its one part is the text). */
export function isPlain(rendered: Rendered): boolean {
  return rendered.every((part) => typeof part === 'string')
}

export function render(rendered: Rendered, values: PlaceholderValues): string {
  if (rendered.length === 1 && typeof rendered[0] === 'string') return rendered[0]
  let out = ''
  for (const part of rendered) out += typeof part === 'string' ? part : part(values)
  return out
}

/** A JSON value with its strings compiled: rendering makes a new value, sharing what has no placeholder. */
export interface CompiledJson {
  readonly plain: boolean
  render(values: PlaceholderValues): JsonValue
}

/** Compiles every string of a JSON value; throws `{ path, message }` for the first bad placeholder. */
export function compileJson(value: JsonValue, scope: PlaceholderScope, at = ''): CompiledJson {
  if (typeof value === 'string') {
    let rendered: Rendered
    try {
      rendered = compileString(value, scope)
    } catch (error) {
      throw new PlaceholderError(at, error instanceof Error ? error.message : String(error))
    }
    return isPlain(rendered) ? constant(value) : { plain: false, render: (v) => render(rendered, v) }
  }
  if (Array.isArray(value)) {
    const items = value.map((item, i) => compileJson(item, scope, `${at}[${i}]`))
    if (items.every((item) => item.plain)) return constant(value)
    return { plain: false, render: (v) => items.map((item) => item.render(v)) }
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).map(([key, item]) => [key, compileJson(item, scope, at === '' ? key : `${at}.${key}`)] as const)
    if (entries.every(([, item]) => item.plain)) return constant(value)
    return { plain: false, render: (v) => Object.fromEntries(entries.map(([key, item]) => [key, item.render(v)])) }
  }
  return constant(value)
}

function constant(value: JsonValue): CompiledJson {
  return { plain: true, render: () => value }
}

/** A bad placeholder inside a JSON value: where (`items[0].name`) and why. */
export class PlaceholderError extends Error {
  readonly at: string
  constructor(at: string, message: string) {
    super(message)
    this.at = at
  }
}
