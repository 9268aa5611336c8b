/**
 * The one door through which the domains reach the kernel: each module is defined once, and every
 * member of the `Domain` records is merged here, in the order the domains are listed: routes and
 * the fallback into the route table, scenario targets, secret fields, base settings (by the
 * module's settings section), fixtures (by the module's fixture sections), then state,
 * credentials, examples, reset, close and docs into the emulator object. A new member of `Domain`
 * is merged here, beside the others.
 */
import type { CredentialInfo, Domain, DomainContext, DomainModule, ExampleRequest, ScenarioTarget } from './domain.js'
import { type FixtureDocument, loadSections, recordsOf } from './fixtures.js'
import type { RouteDefinition, RouteDoc } from './route.js'
import type { SettingsTree } from './settings.js'

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
  const sections = modules.flatMap((module) => module.schemas.fixtures)
  return {
    routes: () => domains.flatMap((d) => d.routes),
    fallback: domains.find((d) => d.fallback)?.fallback,
    targets: domains.flatMap((d) => d.targets ?? []),
    secretFields: domains.flatMap((d) => d.secretFields ?? []),
    baseSettings: Object.fromEntries(modules.flatMap((m, i) => (m.schemas.settings ? [[m.schemas.settings.name, domains[i]?.baseSettings ?? {}]] : []))),
    load: async (documents) => {
      const loaded = loadSections(documents, sections)
      for (const domain of domains) await domain.load?.({ of: (section) => recordsOf(loaded, section) })
    },
    state: () => Object.assign({}, ...domains.map((d) => d.state?.())),
    apis: () => domains.map((d) => d.api ?? {}),
    credentials: () => domains.flatMap((d) => d.credentials?.() ?? []),
    examples: () => domains.flatMap((d) => d.examples?.() ?? []),
    reset: async () => void (await Promise.all(domains.map((d) => d.reset?.()))),
    close: async () => void (await Promise.all(domains.map((d) => d.close?.()))),
    docs: async () => Object.assign({}, ...(await Promise.all(domains.map(async (d) => (await d.docs?.()) ?? {})))),
  }
}
