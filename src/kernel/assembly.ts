/**
 * The one door through which the domains reach the kernel: each module is defined once, and every
 * member of the `Domain` records is merged here, in the order the domains are listed: routes and
 * the fallback into the route table, scenario targets, secret fields, base settings (by the
 * module's settings section), fixtures (by the module's fixture sections), then state,
 * credentials, examples, reset, close and docs into the emulator object, and each domain's part of
 * a saved state with its schema. A new member of `Domain` is merged here, beside the others.
 */
import { createHash } from 'node:crypto'
import type * as z from 'zod'
import type { CredentialInfo, Domain, DomainContext, DomainModule, ExampleRequest, ScenarioTarget } from './domain.js'
import { type FixtureDocument, loadSections, recordsOf } from './fixtures.js'
import type { RouteDefinition, RouteDoc } from './route.js'
import type { SavedPart } from './saved.js'
import type { SettingsTree } from './settings.js'

/** One domain's part of a saved state: its member of the document, schema, part, and what scenarios may aim at in it now. */
export interface AssembledPart {
  readonly name: string
  readonly schema: z.ZodType
  readonly part: SavedPart
  /** Its routes as it serves them now. */
  routes(): readonly RouteDefinition[]
  readonly targets: readonly ScenarioTarget[]
}

/** The domains' records, merged. */
export interface Assembly {
  /** Every route the domains serve now (a domain's list may change at run time). */
  routes(): RouteDefinition[]
  /** The one domain fallback, if a domain gives one. */
  readonly fallback: RouteDefinition | undefined
  readonly targets: readonly ScenarioTarget[]
  readonly secretFields: readonly string[]
  /** Each domain's base settings under its section's name. */
  readonly baseSettings: SettingsTree
  /** Every domain takes its sections of these fixture documents, in order. */
  load(documents: readonly FixtureDocument[]): Promise<void>
  /** A digest of the fixture records loaded: a saved state says which fixtures it was made over. */
  fixturesDigest(): string
  /** Each domain's part of a saved state, in the order of the domains (loaded with import() on the first call). */
  savedParts(): Promise<readonly AssembledPart[]>
  /** The domains' parts of the emulator's state, and of the emulator object. */
  state(): object
  apis(): object[]
  credentials(): CredentialInfo[]
  examples(): ExampleRequest[]
  /** Starts every domain's reset at once (their synchronous parts run before this returns). */
  reset(): Promise<void>
  close(): Promise<void>
  /** Every route's documentation, by route id. */
  docs(): Promise<Record<string, RouteDoc>>
}

/**
 * Defines the domains in the order given (a domain another one uses is defined when it is first
 * asked for), each once and with the same context, and merges their records.
 */
export function assemble<Options extends object>(modules: readonly DomainModule<string, Options>[], base: Omit<DomainContext<Options>, 'use' | 'defined'>): Assembly {
  const made = new Map<DomainModule<string, never>, Domain>()
  const defining = new Set<DomainModule<string, never>>()
  const use = <Made extends Domain>(module: DomainModule<string, never, Made>): Made => {
    const existing = made.get(module)
    if (existing) return existing as Made
    if (defining.has(module)) throw new Error(`Domain "${module.name}" uses itself through another domain: the domains' uses must not go round in a circle.`)
    defining.add(module)
    const domain = (module as unknown as DomainModule<string, Options, Made>).define({ ...base, use, defined: [...made.values()] })
    made.set(module, domain)
    return domain
  }
  const domains = modules.map((module) => use(module as DomainModule<string, never>))
  modules.forEach((module, index) => checkSaved(module, domains[index]))
  const sections = modules.flatMap((module) => module.schemas.fixtures)
  let loaded: ReadonlyMap<string, readonly { value: unknown }[]> = new Map()
  let digest: string | undefined
  let parts: Promise<readonly AssembledPart[]> | undefined
  return {
    routes: () => domains.flatMap((d) => d.routes),
    fallback: domains.find((d) => d.fallback)?.fallback,
    targets: domains.flatMap((d) => d.targets ?? []),
    secretFields: domains.flatMap((d) => d.secretFields ?? []),
    baseSettings: Object.fromEntries(modules.flatMap((m, i) => (m.schemas.settings ? [[m.schemas.settings.name, domains[i]?.baseSettings ?? {}]] : []))),
    load: async (documents) => {
      const sectioned = loadSections(documents, sections)
      loaded = sectioned
      digest = undefined
      for (const domain of domains) await domain.load?.({ of: (section) => recordsOf(sectioned, section) })
    },
    fixturesDigest: () => (digest ??= fixturesDigest(loaded)),
    savedParts: () =>
      (parts ??= Promise.all(
        modules.flatMap((module, index) => {
          const domain = domains[index]
          const schema = module.schemas.saved
          if (!domain?.saved || !schema) return []
          const saved = domain.saved
          return [(async (): Promise<AssembledPart> => ({ name: module.name, schema: await schema(), part: await saved(), routes: () => domain.routes, targets: domain.targets ?? [] }))()]
        }),
      )),
    state: () => Object.assign({}, ...domains.map((d) => d.state?.())),
    apis: () => domains.map((d) => d.api ?? {}),
    credentials: () => domains.flatMap((d) => d.credentials?.() ?? []),
    examples: () => domains.flatMap((d) => d.examples?.() ?? []),
    reset: async () => void (await Promise.all(domains.map((d) => d.reset?.()))),
    close: async () => void (await Promise.all(domains.map((d) => d.close?.()))),
    docs: async () => Object.assign({}, ...(await Promise.all(domains.map(async (d) => (await d.docs?.()) ?? {})))),
  }
}

/**
 * A domain that keeps state (it has a `reset()`) declares its part of a saved state, schema and
 * part both: one that forgot would be left out of every document, silently.
 */
function checkSaved(module: DomainModule<string, never>, domain: Domain | undefined): void {
  const schema = module.schemas.saved !== undefined
  const part = domain?.saved !== undefined
  if (domain?.reset !== undefined && !part) {
    throw new Error(`Domain "${module.name}" keeps state (it has reset()) but declares no part of a saved state: give its record saved() and its module schemas.saved (docs/architecture.md, "Saved states").`)
  }
  if (schema !== part) throw new Error(`Domain "${module.name}" declares ${schema ? 'schemas.saved but no saved()' : 'saved() but no schemas.saved'}: a part of a saved state needs both.`)
}

/** sha256 of the fixture records by section, in order: the same fixtures give the same digest, however they were read. */
function fixturesDigest(loaded: ReadonlyMap<string, readonly { value: unknown }[]>): string {
  const hash = createHash('sha256')
  for (const [name, records] of loaded) hash.update(JSON.stringify([name, records.map((r) => r.value)]))
  return `sha256:${hash.digest('base64url')}`
}
