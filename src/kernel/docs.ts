/**
 * Route documentation helpers: the JSON Schema of a zod schema as generated documents show it
 * (zod's `z.toJSONSchema`, JSON Schema 2020-12), with the definitions of recursive shapes lifted
 * out of `$defs` so a document can place them where its references resolve; and a way to show a
 * faithful JSON Schema for a zod schema that has none of its own (an enum that also takes labels).
 */
import * as z from 'zod'
import type { JsonObject, JsonValue } from './json.js'

export type SchemaIo = 'input' | 'output'

const OVERRIDES = new WeakMap<z.core.$ZodType, Partial<Record<SchemaIo, JsonObject>>>()

/** Shows these JSON Schemas (for what callers send, and for what they get) for `schema`; returns the schema. */
export function documentAs<T extends z.ZodType>(schema: T, shown: Partial<Record<SchemaIo, JsonObject>>): T {
  OVERRIDES.set(schema, shown)
  return schema
}

/** A converted schema: the schema, and the definitions its `$ref`s point at (by the names given). */
export interface ConvertedSchema {
  readonly schema: JsonObject
  /** Definitions by their new names. */
  readonly definitions: Readonly<Record<string, JsonValue>>
}

/**
 * Converts a zod schema. Each definition zod puts in `$defs` (a shape with an `id` in its metadata,
 * one used twice with `reused: 'ref'`, a recursive one) gets a name from `name(key, definition)`
 * (`key` is the id, or zod's `__schemaN`), and every `$ref` to it becomes `refPrefix + name`.
 */
export function convertSchema(
  schema: z.ZodType,
  io: SchemaIo,
  refPrefix: string,
  name: (key: string, definition: JsonValue) => string,
  reused: 'ref' | 'inline' = 'inline',
): ConvertedSchema {
  const json = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    unrepresentable: 'any',
    io,
    reused,
    override: (ctx) => {
      const shown = OVERRIDES.get(ctx.zodSchema)?.[io]
      if (!shown) return
      for (const key of Object.keys(ctx.jsonSchema)) delete (ctx.jsonSchema as Record<string, unknown>)[key]
      Object.assign(ctx.jsonSchema, shown)
    },
  }) as JsonObject
  const { $schema: _dialect, $defs, ...rest } = json
  const defs = typeof $defs === 'object' && $defs !== null && !Array.isArray($defs) ? $defs : {}
  const renames = new Map<string, string>()
  for (const [key, definition] of Object.entries(defs)) renames.set(`#/$defs/${key}`, `${refPrefix}${name(key, definition)}`)
  const definitions: Record<string, JsonValue> = {}
  for (const [key, definition] of Object.entries(defs)) {
    definitions[(renames.get(`#/$defs/${key}`) ?? key).slice(refPrefix.length)] = rewriteRefs(definition, renames)
  }
  return { schema: rewriteRefs(rest, renames) as JsonObject, definitions }
}

function rewriteRefs(value: JsonValue, renames: ReadonlyMap<string, string>): JsonValue {
  if (Array.isArray(value)) return value.map((item) => rewriteRefs(item, renames))
  if (typeof value !== 'object' || value === null) return value
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [key, key === '$ref' && typeof item === 'string' ? (renames.get(item) ?? item) : rewriteRefs(item, renames)]),
  )
}

/** An HTML page. */
export const HtmlPage = z.string().meta({ description: 'An HTML page.' })
