/**
 * Fixtures: JSON documents that seed the emulator. A fixture path is a file or a folder of
 * `*.json` files (read in name order). Each document is an object with sections (`users`,
 * `apiKeys`, `storages`, `elements`, …) that the domains declare; every document is validated
 * with zod and a failure names the file, the path inside it and the rule. Records from later
 * documents replace earlier ones with the same key and add the rest.
 */
import type * as z from 'zod'
import { FixtureError } from './errors.js'
import { readJsonPath } from './json-files.js'
import { NESTING_RULE, nestsDeeperThan } from './nesting.js'
import { closest } from './closest.js'
import { firstProblem, parseNaming } from './validation.js'

/** One record of a fixture section, with where it was written (for error messages). */
export interface FixtureRecord<T> {
  readonly value: T
  readonly file: string
  readonly path: string
}

/** A fixture document given in code instead of a file. */
export interface InlineFixtures {
  readonly [section: string]: unknown
}

export type FixtureInput = string | InlineFixtures

/** A fixture document; `parsed` when its sections were validated already (the built-in defaults, validated at build). */
export interface FixtureDocument {
  readonly file: string
  readonly data: unknown
  readonly parsed?: boolean
}

export interface FixtureSection<T> {
  /** The section's key in a document. */
  readonly name: string
  /** One record, or (for `merge: 'replace'`) the whole section value. */
  readonly schema: z.ZodType<T>
  /** How records are merged: by a key (later wins), or the later section value replaces. */
  key?(record: T): string
}

/**
 * A section whose schema `schema()` makes on first use (a domain's group of schemas made by
 * `once()`): the default fixtures come validated from the build, so only a document of the run's
 * own, or the JSON Schema, asks for it.
 */
export function fixtureSection<T>(name: string, schema: () => z.ZodType<T>, key?: (record: T) => string): FixtureSection<T> {
  return {
    name,
    get schema() {
      return schema()
    },
    ...(key === undefined ? {} : { key }),
  }
}

/** Expands fixture paths: folders become their `*.json` files, in name order. */
export function fixtureDocuments(inputs: readonly FixtureInput[]): FixtureDocument[] {
  const out: FixtureDocument[] = []
  let inline = 0
  for (const input of inputs) {
    if (typeof input !== 'string') {
      out.push({ file: `inline fixtures #${++inline}`, data: input })
      continue
    }
    for (const { file, data } of readJsonPath(input, (file, rule) => new FixtureError(file, '', rule))) out.push({ file, data })
  }
  return out
}

/**
 * Validates one document against the known sections: its records as the schemas give them
 * (defaults applied). Unknown top-level keys are refused (a typo in a section name would
 * otherwise be ignored).
 */
export function parseDocument(document: FixtureDocument, sections: ReadonlyArray<FixtureSection<unknown>>): FixtureDocument {
  if (document.parsed) return document
  const { file, data } = document
  const byName = new Map(sections.map((s) => [s.name, s]))
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    throw new FixtureError(file, '', `must be a JSON object with sections (${[...byName.keys()].join(', ')})`)
  }
  if (nestsDeeperThan(data)) throw new FixtureError(file, '', NESTING_RULE)
  const out: Record<string, unknown> = {}
  for (const [name, value] of Object.entries(data)) {
    if (name === '$schema' || name === '$comment') continue
    const section = byName.get(name)
    if (!section) {
      const near = closest(name, byName.keys())
      throw new FixtureError(file, name, `unknown section${near === undefined ? '' : ` (did you mean "${near}"?)`}; a fixture document has ${[...byName.keys()].join(', ')}`)
    }
    if (section.key === undefined) {
      const parsed = parseNaming(section.schema, value)
      if (!parsed.success) throwProblem(file, name, parsed.error)
      out[name] = parsed.data
      continue
    }
    if (!Array.isArray(value)) throw new FixtureError(file, name, 'must be an array')
    out[name] = value.map((item: unknown, index: number) => {
      const parsed = parseNaming(section.schema, item)
      if (!parsed.success) throwProblem(file, `${name}[${index}]`, parsed.error)
      return parsed.data
    })
  }
  return { file, data: out, parsed: true }
}

/** Validates every document (unless parsed already) and merges the records of each section: a later record with the same key replaces. */
export function loadSections(documents: readonly FixtureDocument[], sections: ReadonlyArray<FixtureSection<unknown>>): Map<string, FixtureRecord<unknown>[]> {
  const byName = new Map(sections.map((s) => [s.name, s]))
  const merged = new Map<string, Map<string, FixtureRecord<unknown>>>()
  for (const section of sections) merged.set(section.name, new Map())
  for (const document of documents) {
    const { file, data } = parseDocument(document, sections)
    for (const [name, value] of Object.entries(data as Record<string, unknown>)) {
      const section = byName.get(name)
      const bucket = merged.get(name)
      if (!section || !bucket) continue
      if (section.key === undefined) {
        bucket.set('', { value, file, path: name })
        continue
      }
      ;(value as unknown[]).forEach((record, index) => bucket.set(section.key?.(record) ?? String(index), { value: record, file, path: `${name}[${index}]` }))
    }
  }
  return new Map([...merged].map(([name, bucket]) => [name, [...bucket.values()]]))
}

function throwProblem(file: string, prefix: string, error: z.ZodError): never {
  const problem = firstProblem(error)
  const path = problem.path === '' ? prefix : problem.path.startsWith('[') ? `${prefix}${problem.path}` : `${prefix}.${problem.path}`
  throw new FixtureError(file, path, problem.rule)
}

/** The records of one section, typed by the caller's schema. */
export function recordsOf<T>(loaded: Map<string, FixtureRecord<unknown>[]>, section: FixtureSection<T>): FixtureRecord<T>[] {
  return (loaded.get(section.name) ?? []) as FixtureRecord<T>[]
}
