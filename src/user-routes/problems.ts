/**
 * A refused route document in words: which route or resource (its index, and its id or name when
 * it has one), which field, and the rule, with the closest valid name for an unknown field or
 * value. An unknown field is named first, else zod's first issue; inside `auth`'s union, the
 * issue of the branch the value was meant for.
 */
import type * as z from 'zod'
import { formatPath } from '../kernel/validation.js'
import { RouteFileError } from './errors.js'
import { FIELDS, didYouMean } from './schema.js'

type Kind = keyof typeof FIELDS

/** `routes[2] (id "pools.read")`, or `resources[0] (name "pools")`. */
export function itemName(section: 'routes' | 'resources', index: number, data: unknown): string {
  const item = Array.isArray(data) ? (data[index] as unknown) : undefined
  const key = section === 'routes' ? 'id' : 'name'
  const value = typeof item === 'object' && item !== null ? (item as Record<string, unknown>)[key] : undefined
  return `${section}[${index}]${typeof value === 'string' && value !== '' ? ` (${key} "${value}")` : ''}`
}

/** The error for a document zod refused. */
export function schemaProblem(file: string, error: z.ZodError, data: unknown): RouteFileError {
  // An unknown field first: a typo (`pth`) also leaves its field missing, and the typo is what to fix.
  const first = error.issues.find((issue) => issue.code === 'unrecognized_keys') ?? error.issues[0]
  if (!first) return new RouteFileError(file, '', '', 'is not valid')
  const { path, rule } = describe(first)
  return located(file, path, rule, data)
}

/** Names the item and the field of a path inside the document. */
export function located(file: string, path: readonly PropertyKey[], rule: string, data: unknown): RouteFileError {
  const [section, index, ...rest] = path
  if ((section === 'routes' || section === 'resources') && typeof index === 'number') {
    const list = typeof data === 'object' && data !== null ? (data as Record<string, unknown>)[section] : undefined
    return new RouteFileError(file, itemName(section, index, list), formatPath(rest), rule)
  }
  return new RouteFileError(file, '', formatPath(path), rule)
}

function describe(issue: z.core.$ZodIssue): { path: PropertyKey[]; rule: string } {
  if (issue.code === 'invalid_union') {
    // The branch the value was meant for is the one that failed deepest (an object given to "none" | {…} failed inside the object).
    const branches = issue.errors.map((issues) => issues[0]).filter((i): i is z.core.$ZodIssue => i !== undefined)
    const deepest = branches.sort((a, b) => b.path.length - a.path.length)[0]
    if (deepest && (deepest.path.length > 0 || deepest.code === 'unrecognized_keys')) {
      const inner = describe(deepest)
      return { path: [...issue.path, ...inner.path], rule: inner.rule }
    }
    return { path: issue.path, rule: 'must be "none", or an object with "scopes" and/or "permission"' }
  }
  if (issue.code === 'unrecognized_keys') {
    const kind = kindAt(issue.path)
    const known = FIELDS[kind]
    const [key = ''] = issue.keys
    return { path: [...issue.path, key], rule: `unknown field "${key}"${didYouMean(key, known)}; ${LABELS[kind]} has ${known.join(', ')}` }
  }
  return { path: issue.path, rule: issue.message }
}

/** What kind of object sits at a path of the document. */
function kindAt(path: readonly PropertyKey[]): Kind {
  if (path.length === 0) return 'document'
  const last = path[path.length - 1]
  if (last === 'response' || last === 'auth' || last === 'permission') return last
  return path[0] === 'resources' ? 'resource' : 'route'
}

const LABELS: Readonly<Record<Kind, string>> = {
  document: 'a route document',
  route: 'a route',
  response: 'a response',
  auth: '"auth"',
  permission: 'a permission',
  resource: 'a resource',
}
