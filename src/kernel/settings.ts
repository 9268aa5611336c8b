/**
 * Settings: the knobs of the emulated platform (a token lifetime, a flow's state, whether static
 * keys are accepted). The run has base settings; a scenario may overlay some of them. The tree is
 * plain JSON, sectioned by domain; each domain reads its own section through its zod schema,
 * parsed once per distinct tree.
 */
import type * as z from 'zod'

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

/**
 * Gives a tree its sections as already parsed (the build's snapshot of the default tree's
 * sections, src/precompile.ts): `readSection()` then answers from them without building or
 * running a schema.
 */
export function primeSections(tree: SettingsTree, sections: Readonly<Record<string, unknown>>): void {
  parsed.set(tree, new Map(Object.entries(sections)))
}

/** Every section of a tree, parsed (what `primeSections()` takes back). */
export function parseSections(tree: SettingsTree, sections: readonly { readonly name: string; readonly schema: z.ZodType }[]): Record<string, unknown> {
  return Object.fromEntries(sections.map((section) => [section.name, readSection(tree, section.name, section.schema)]))
}

/** Reads one section of a settings tree through its schema (defaults applied), cached per tree. */
export function readSection<T>(tree: SettingsTree, section: string, schema: z.ZodType<T>): T {
  let cache = parsed.get(tree)
  if (!cache) {
    cache = new Map()
    parsed.set(tree, cache)
  }
  if (cache.has(section)) return cache.get(section) as T
  // Parsed once per tree: zod's compiled fast path (built with `new Function` on an object
  // schema's first parse) would cost more than it saves.
  const value = schema.parse(tree[section] ?? {}, { jitless: true })
  cache.set(section, value)
  return value
}
