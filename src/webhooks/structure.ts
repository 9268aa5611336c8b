/**
 * Data structures compiled to zod. Each field becomes a schema that checks and converts the value
 * the way the platform does: query and form values are text, so a number, boolean or date field
 * accepts text that converts cleanly; a date becomes ISO 8601; an array field takes a single value
 * as a list of one (a form name sent once). Fields the structure does not name pass through.
 * Problems carry a rule (`missing`, `number`, …) and become the platform's sentences, one per
 * field: `Missing value of required parameter 'orderId'.`, `Invalid number in parameter 'amount'.`
 */
import * as z from 'zod'
import { formatPath } from '../kernel/validation.js'
import type { Bundle, DataStructure, Field, FieldType, ItemSpec } from './model.js'

type Rule = 'missing' | FieldType

const compiled = new WeakMap<DataStructure, z.ZodType<Bundle>>()

/** The zod schema of a data structure (compiled once per structure object). */
export function compileStructure(structure: DataStructure): z.ZodType<Bundle> {
  let schema = compiled.get(structure)
  if (!schema) {
    schema = collectionSchema(structure)
    compiled.set(structure, schema)
  }
  return schema
}

export type Validation = { ok: true; bundle: Bundle } | { ok: false; problems: string[] }

/** Validates and converts a bundle; on failure, one sentence per failing field, in field order. */
export function validateBundle(structure: DataStructure, bundle: Bundle): Validation {
  const result = compileStructure(structure).safeParse(bundle)
  if (result.success) return { ok: true, bundle: result.data }
  const seen = new Set<string>()
  const problems: string[] = []
  for (const issue of result.error.issues) {
    const path = formatPath(issue.path)
    if (seen.has(path)) continue
    seen.add(path)
    const rule = (issue.code === 'custom' ? (issue.params?.rule as Rule | undefined) : undefined) ?? 'collection'
    problems.push(sentence(rule, path))
  }
  return { ok: false, problems }
}

function sentence(rule: Rule, path: string): string {
  return rule === 'missing' ? `Missing value of required parameter '${path}'.` : `Invalid ${rule} in parameter '${path}'.`
}

function fail(ctx: z.RefinementCtx, rule: Rule): never {
  ctx.addIssue({ code: 'custom', message: rule, params: { rule } })
  return z.NEVER as never
}

function fieldSchema(field: Field): z.ZodType {
  const value = valueSchema(field.type, field.spec)
  if (field.required) {
    return z.unknown().transform((v, ctx) => (isEmpty(v) ? fail(ctx, 'missing') : v)).pipe(value)
  }
  // An optional field with no value: left out when absent, null when sent empty or null.
  return z
    .unknown()
    .transform((v) => (v === null || (v === '' && field.type !== 'text') ? null : v))
    .pipe(value.nullable())
    .optional()
}

function collectionSchema(fields: readonly Field[] | undefined): z.ZodType<Bundle> {
  const object = z.unknown().transform((v, ctx) => (isPlainObject(v) ? v : fail(ctx, 'collection')))
  if (!fields || fields.length === 0) return object
  const shape: Record<string, z.ZodType> = {}
  for (const field of fields) shape[field.name] = fieldSchema(field)
  return object.pipe(z.looseObject(shape)) as z.ZodType<Bundle>
}

function itemSchema(spec: Field[] | ItemSpec | undefined): z.ZodType {
  if (spec === undefined) return z.unknown()
  if (Array.isArray(spec)) return collectionSchema(spec).nullable()
  return valueSchema(spec.type, spec.spec).nullable()
}

function valueSchema(type: FieldType, spec: Field[] | ItemSpec | undefined): z.ZodType {
  switch (type) {
    case 'text':
      return z.unknown().transform((v, ctx) => {
        if (typeof v === 'string') return v
        if (typeof v === 'number' || typeof v === 'boolean') return String(v)
        return fail(ctx, 'text')
      })
    case 'number':
      return z.unknown().transform((v, ctx) => {
        if (typeof v === 'number' && Number.isFinite(v)) return v
        if (typeof v === 'string' && NUMBER_TEXT.test(v.trim())) return Number(v.trim())
        return fail(ctx, 'number')
      })
    case 'boolean':
      return z.unknown().transform((v, ctx) => {
        if (typeof v === 'boolean') return v
        const t = typeof v === 'string' ? v.trim().toLowerCase() : typeof v === 'number' ? String(v) : undefined
        if (t === 'true' || t === '1') return true
        if (t === 'false' || t === '0') return false
        return fail(ctx, 'boolean')
      })
    case 'date':
      return z.unknown().transform((v, ctx) => {
        const ms =
          v instanceof Date ? v.getTime() : typeof v === 'number' ? v : typeof v === 'string' && DATE_TEXT.test(v.trim()) ? Date.parse(v.trim()) : Number.NaN
        return Number.isFinite(ms) ? new Date(ms).toISOString() : fail(ctx, 'date')
      })
    case 'buffer':
      return z.unknown().transform((v, ctx) => {
        if (Buffer.isBuffer(v)) return v
        if (v instanceof Uint8Array) return Buffer.from(v.buffer, v.byteOffset, v.byteLength)
        if (typeof v === 'string') return v
        return fail(ctx, 'buffer')
      })
    case 'array':
      return z
        .unknown()
        .transform((v) => (Array.isArray(v) ? v : [v]))
        .pipe(z.array(itemSchema(spec)))
    case 'collection':
      return collectionSchema(Array.isArray(spec) ? spec : undefined)
  }
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
