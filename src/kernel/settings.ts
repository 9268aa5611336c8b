/**
 * Settings: the knobs of the emulated platform (a token lifetime, a flow's state, whether static
 * keys are accepted). The run has base settings; a scenario may overlay some of them. The tree is
 * plain JSON, sectioned by domain; each domain reads its own section through its zod schema,
 * parsed once per distinct tree.
 */
import * as z from 'zod'

export type SettingsTree = { readonly [section: string]: unknown }

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** Deep merge of plain objects; arrays and scalars in a later tree replace earlier ones. */
export function mergeSettings(base: SettingsTree, ...overlays: readonly SettingsTree[]): SettingsTree {
  let out: Record<string, unknown> = { ...base }
  for (const overlay of overlays) out = mergeInto(out, overlay)
  return out
}

function mergeInto(target: Record<string, unknown>, overlay: { readonly [k: string]: unknown }): Record<string, unknown> {
  const out: Record<string, unknown> = { ...target }
  for (const [key, value] of Object.entries(overlay)) {
    const current = out[key]
    out[key] = isPlainObject(current) && isPlainObject(value) ? mergeInto(current, value) : value
  }
  return out
}

const parsed = new WeakMap<object, Map<string, unknown>>()

/** A settings section: its name in the settings tree, and its schema (with defaults). */
export interface SettingsSection {
  readonly name: string
  readonly schema: z.ZodObject
}

const schemas = new WeakMap<readonly SettingsSection[], z.ZodType>()

/**
 * The schema of what a scenario's `settings` may hold: each section partial and strict. Built once
 * per list of sections (zod compiles a schema on its first parse; every emulator shares it).
 */
export function settingsSchemaOf(sections: readonly SettingsSection[]): z.ZodType {
  let schema = schemas.get(sections)
  if (!schema) {
    schema = z.strictObject(Object.fromEntries(sections.map((s) => [s.name, s.schema.partial().strict().optional()])))
    schemas.set(sections, schema)
  }
  return schema
}

/**
 * Reads one section of a settings tree through its schema (defaults applied), parsed once per tree:
 * most requests see the same tree, and a parse for each would be a good part of what a webhook
 * call costs (docs/decisions/speed-mechanisms.md).
 */
export function readSection<T>(tree: SettingsTree, section: string, schema: z.ZodType<T>): T {
  let cache = parsed.get(tree)
  if (!cache) {
    cache = new Map()
    parsed.set(tree, cache)
  }
  if (cache.has(section)) return cache.get(section) as T
  const value = schema.parse(tree[section] ?? {})
  cache.set(section, value)
  return value
}
