/**
 * Data structures, checked and converted field by field the way the platform does: query and form
 * values are text, so a number, boolean or date field accepts text that converts cleanly; a date
 * becomes ISO 8601; an array field takes a single value as a list of one (a form name sent once).
 * A collection comes out with the fields its structure names first, in the structure's order, then
 * the members it does not name, which pass through. Each failing field gives the platform's
 * sentence, in field order: `Missing value of required parameter 'orderId'.`,
 * `Invalid number in parameter 'amount'.`
 */
import type { Bundle, DataStructure, Field, FieldType, ItemSpec } from './model.js'

type Rule = 'missing' | FieldType

interface Problem {
  readonly path: string
  readonly rule: Rule
}

export type Validation = { ok: true; bundle: Bundle } | { ok: false; problems: string[] }

/** Validates and converts a bundle; on failure, one sentence per failing field, in field order. */
export function validateBundle(structure: DataStructure, bundle: Bundle): Validation {
  const problems: Problem[] = []
  const checked = collection(structure, bundle, '', problems)
  if (problems.length === 0) return { ok: true, bundle: checked as Bundle }
  const seen = new Set<string>()
  const sentences: string[] = []
  for (const { path, rule } of problems) {
    if (seen.has(path)) continue
    seen.add(path)
    sentences.push(rule === 'missing' ? `Missing value of required parameter '${path}'.` : `Invalid ${rule} in parameter '${path}'.`)
  }
  return { ok: false, problems: sentences }
}

/** Notes a problem; the value stays as it was (nothing is kept from a call that fails). */
function fail(problems: Problem[], path: string, rule: Rule, value: unknown): unknown {
  problems.push({ path, rule })
  return value
}

/** A plain object: the fields named are checked and converted, the other members pass through. */
function collection(fields: readonly Field[] | undefined, value: unknown, path: string, problems: Problem[]): unknown {
  if (!isPlainObject(value)) return fail(problems, path, 'collection', value)
  if (!fields || fields.length === 0) return value
  const out: Record<string, unknown> = {}
  for (let index = 0; index < fields.length; index++) {
    const field = fields[index] as Field
    // A member named `__proto__` would set the prototype: it is dropped, named or not. A name given
    // twice (nested structures do not refuse it): the last field decides.
    if (field.name === '__proto__' || namedAgain(fields, index)) continue
    const at = path === '' ? field.name : `${path}.${field.name}`
    const present = Object.hasOwn(value, field.name)
    const member = present ? value[field.name] : undefined
    if (field.required) {
      out[field.name] = isEmpty(member) ? fail(problems, at, 'missing', member) : convert(field.type, field.spec, member, at, problems)
    } else if (present) {
      // An optional field sent empty or null is null.
      const empty = member === null || (member === '' && field.type !== 'text')
      out[field.name] = empty ? null : member === undefined ? undefined : convert(field.type, field.spec, member, at, problems)
    }
  }
  for (const name of Object.keys(value)) if (name !== '__proto__' && !Object.hasOwn(out, name)) out[name] = value[name]
  return out
}

function namedAgain(fields: readonly Field[], index: number): boolean {
  for (let later = index + 1; later < fields.length; later++) if (fields[later]?.name === fields[index]?.name) return true
  return false
}

function convert(type: FieldType, spec: Field[] | ItemSpec | undefined, v: unknown, path: string, problems: Problem[]): unknown {
  switch (type) {
    case 'text':
      if (typeof v === 'string') return v
      if (typeof v === 'number' || typeof v === 'boolean') return String(v)
      return fail(problems, path, 'text', v)
    case 'number':
      if (typeof v === 'number' && Number.isFinite(v)) return v
      if (typeof v === 'string' && NUMBER_TEXT.test(v.trim())) return Number(v.trim())
      return fail(problems, path, 'number', v)
    case 'boolean': {
      if (typeof v === 'boolean') return v
      const t = typeof v === 'string' ? v.trim().toLowerCase() : typeof v === 'number' ? String(v) : undefined
      if (t === 'true' || t === '1') return true
      if (t === 'false' || t === '0') return false
      return fail(problems, path, 'boolean', v)
    }
    case 'date': {
      const ms = v instanceof Date ? v.getTime() : typeof v === 'number' ? v : typeof v === 'string' && DATE_TEXT.test(v.trim()) ? Date.parse(v.trim()) : Number.NaN
      return Number.isFinite(ms) ? new Date(ms).toISOString() : fail(problems, path, 'date', v)
    }
    case 'buffer':
      if (Buffer.isBuffer(v)) return v
      if (v instanceof Uint8Array) return Buffer.from(v.buffer, v.byteOffset, v.byteLength)
      if (typeof v === 'string') return v
      return fail(problems, path, 'buffer', v)
    case 'array':
      return (Array.isArray(v) ? v : [v]).map((item, index) => arrayItem(spec, item, `${path}[${index}]`, problems))
    case 'collection':
      return collection(Array.isArray(spec) ? spec : undefined, v, path, problems)
  }
}

/** An array's item: anything when the array names no item type; null or the item type otherwise. */
function arrayItem(spec: Field[] | ItemSpec | undefined, item: unknown, path: string, problems: Problem[]): unknown {
  if (spec === undefined || item === null) return item
  if (Array.isArray(spec)) return collection(spec, item, path, problems)
  return convert(spec.type, spec.spec, item, path, problems)
}

const NUMBER_TEXT = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/
/** ISO 8601 dates and date-times (with or without zone), the forms a client sends. */
const DATE_TEXT = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/

function isEmpty(v: unknown): boolean {
  return v === undefined || v === null || v === ''
}

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !Buffer.isBuffer(v) && !(v instanceof Uint8Array) && !(v instanceof Date)
}

/**
 * The structure a sample call teaches (learning mode): each value's type, collections and arrays
 * nested as they came; no field is required, so later calls may leave any out.
 */
export function learnStructure(sample: Bundle): DataStructure {
  return Object.entries(sample).map(([name, value]) => ({ name, ...learnType(value) }))
}

function learnType(value: unknown): { type: FieldType; spec?: Field[] | ItemSpec } {
  if (typeof value === 'number') return { type: 'number' }
  if (typeof value === 'boolean') return { type: 'boolean' }
  if (Buffer.isBuffer(value) || value instanceof Uint8Array) return { type: 'buffer' }
  if (Array.isArray(value)) {
    // The items' type, when every item has the same one; mixed items (`[true, 5]`) constrain
    // nothing, so the sample always passes the structure learnt from it.
    let item: { type: FieldType; spec?: Field[] | ItemSpec } | undefined
    let key: string | undefined
    for (const entry of value) {
      if (entry === null || entry === undefined) continue
      const learnt = learnType(entry)
      const learntKey = JSON.stringify(learnt)
      if (key === undefined) {
        item = learnt
        key = learntKey
      } else if (learntKey !== key) return { type: 'array' }
    }
    if (item === undefined) return { type: 'array' }
    return { type: 'array', spec: item.type === 'collection' ? (item.spec ?? []) : item }
  }
  if (isPlainObject(value)) return { type: 'collection', spec: learnStructure(value) }
  return { type: 'text' }
}
