/**
 * The kernel of one emulator: the services every domain gets (clock, ids, scenarios, redaction,
 * logger), the run's life (settings, fixtures, start-up scenarios, reset, close), the kernel's part
 * of the emulator object, and the pipeline that serves the domains' routes. The composition root
 * makes one per emulator and hands it the domains; it knows none of them by name.
 */
import { type ClockApi, type JournalApi, type ScenariosApi, clockApi, journalApi, kernelActivation, scenariosApi } from './api.js'
import { ChangeFeed } from './changes.js'
import type { Clock } from './clock.js'
import type { ControlPart } from './control.js'
import { type CredentialInfo, type Domain, type ExampleRequest, type DomainModule, type KernelServices, type ScenarioTarget, defineDomains } from './domain.js'
import { ConfigError, type HttpError } from './errors.js'
import { type EmulatorEventListener, EventHub, type SubscribeOptions, type WatchedState } from './events.js'
import { type FixtureDocument, loadSections, recordsOf } from './fixtures.js'
import { SeededIds } from './ids.js'
import { Journal, type Transport } from './journal.js'
import type { Logger } from './logger.js'
import { Redactor } from './redact.js'
import type { Reply } from './reply.js'
import type { IncomingRequest } from './request.js'
import type { RouteDefinition, RouteDoc } from './route.js'
import { ScenarioCatalogue } from './scenarios/catalogue.js'
import { type Activation, type ScenarioListing, ScenarioEngine } from './scenarios/engine.js'
import type { ScenarioDefinitionInput } from './scenarios/schema.js'
import { parseActivations } from './scenarios/syntax.js'
import { Pipeline } from './serve.js'
import { type SettingsSection, type SettingsTree, mergeSettings, settingsSchemaOf } from './settings.js'
import { firstProblem, parseNaming } from './validation.js'

/** The emulator's named addresses: each name's origin. */
export type Addresses = Readonly<Record<string, string>>

export interface KernelOptions<Options extends object, Urls extends Addresses> {
  readonly urls: Urls
  readonly seed: number
  /** The seed of the ids the emulator makes up at run time (keys, secrets, codes), when not `seed`. */
  readonly idSeed?: number
  readonly clock: Clock
  readonly logger: Logger
  readonly journalSize: number
  /** The product named in HAR files and the health answer. */
  readonly product: { readonly name: string; readonly version: string }
  /** The domains, in the order they are defined and load their fixtures. */
  readonly domains: readonly DomainModule<string, Options>[]
  /** The domains' settings sections (a module-level list: the settings schema is built once per list). */
  readonly settings: readonly SettingsSection[]
  /** Where a 404 for a path the emulator does not emulate points the caller. */
  readonly routeList: string
}

/** A scenario on for the whole run, by name or text form (`latency:ms=2000`), or with its activation flat. */
export type StartupScenario = string | ({ readonly name: string } & object)

/** How the run starts: its options (every domain reads its own), raw settings, fixture documents and scenarios. */
export interface RunSetup<Options extends object> {
  readonly options: Options
  /** Raw settings merged over the domains' base settings. */
  readonly settings?: SettingsTree
  /** Every fixture document, in order (later records replace earlier ones with the same key). */
  readonly fixtures: readonly FixtureDocument[]
  readonly scenarioDirs?: readonly string[]
  readonly scenarioDefinitions?: readonly ScenarioDefinitionInput[]
  readonly scenarios?: readonly StartupScenario[]
}

export interface RouteInfo {
  id: string
  method: string
  path: string
  /** The address it lives on: `auth` (`{auth_url}`), `base` (`{base_url}`) or `webhook`. */
  origin: string
  summary: string
}

export interface KernelState {
  version: string
  clock: ReturnType<Clock['state']>
  /** How many requests the journal keeps (the newest). */
  journalCapacity: number
  scenarios: ScenarioListing[]
}

/** The kernel's part of the emulator object; `State` is everything `state()` gathers. */
export interface KernelApi<State extends WatchedState, Targets extends object, Urls extends Addresses> {
  readonly urls: Urls
  readonly seed: number
  readonly clock: ClockApi
  readonly scenarios: ScenariosApi<Targets>
  readonly journal: JournalApi
  state(): State
  /**
   * Live events: the state and the newest journal entries at once, then each new journal entry
   * and the state again whenever it changes. Returns the function that stops them.
   */
  subscribe(listener: EmulatorEventListener<State>, options?: SubscribeOptions): () => void
  health(): { status: 'ok'; version: string }
  routes(): RouteInfo[]
  credentials(): CredentialInfo[]
  /** Requests worth trying first, as the domains suggest them from what they loaded (the start-up banner's). */
  examples(): ExampleRequest[]
  /** Back to the fixtures: store, queues, executions, scenarios (the start-up ones stay), clock, journal. */
  reset(): Promise<void>
  close(): Promise<void>
}

/** What only the adapters need of the kernel. */
export interface KernelTransport {
  readonly logger: Logger
  /** The one way in: answers a transport-neutral request. */
  serve(request: IncomingRequest, transport: Transport): Promise<Reply>
  /** The origins the emulator serves (each of `urls`, once). */
  origins(): string[]
  /** Ends every live-event subscription and journal wait (with `reason`), so dashboards and long polls let go of a closing server. */
  disconnect(reason: HttpError): void
}

export class Kernel<Options extends object, Urls extends Addresses> {
  readonly services: KernelServices
  readonly #options: KernelOptions<Options, Urls>
  readonly #catalogue: ScenarioCatalogue
  readonly #engine: ScenarioEngine
  readonly #changes = new ChangeFeed()
  readonly #journal: Journal
  readonly #ids: SeededIds
  readonly #redact = new Redactor()
  #baseSettings: SettingsTree = {}
  #domains: readonly Domain[] = []
  /** Every domain that serves routes, the control plane included (for the OpenAPI document). */
  #serving: readonly Domain[] = []
  /** The domains made after the run's (the control plane), once `route()` has them. */
  #others: readonly Domain[] = []
  #targets: readonly ScenarioTarget[] = []
  #startup: Array<{ name: string; activation: Activation }> = []
  #pipeline: Pipeline | undefined

  constructor(options: KernelOptions<Options, Urls>) {
    this.#options = options
    this.#catalogue = new ScenarioCatalogue((tree) => {
      const parsed = parseNaming(this.settingsSchema(), tree)
      return parsed.success ? undefined : firstProblem(parsed.error)
    })
    this.#engine = new ScenarioEngine(this.#catalogue, () => this.#baseSettings)
    const changed = (): void => this.#changes.notify()
    this.#engine.onChange(changed)
    // Ids the emulator makes up (version ids, keys) come from a seeded generator, restarted on reset.
    this.#ids = new SeededIds(options.idSeed ?? options.seed)
    this.#journal = new Journal(options.clock, this.#redact, options.journalSize)
    this.services = {
      clock: options.clock,
      ids: this.#ids,
      seed: options.seed,
      logger: options.logger,
      redact: this.#redact,
      baseSettings: () => this.#baseSettings,
      changed,
      scenarios: this.#engine,
      routes: () => [...this.#domains, ...this.#others].flatMap((d) => d.routes),
      routesChanged: () => {
        if (this.#pipeline) this.#build()
      },
    }
  }

  /** The scenario catalogue, for the built-in scenarios. */
  get catalogue(): ScenarioCatalogue {
    return this.#catalogue
  }

  /** The schema of what a scenario's `settings` may hold. */
  settingsSchema(): ReturnType<typeof settingsSchemaOf> {
    return settingsSchemaOf(this.#options.settings)
  }

  /** The control-plane operations the domains declare, for the control plane to mount. */
  get controlParts(): readonly ControlPart[] {
    return this.#domains.flatMap((d) => (d.control ? [d.control] : []))
  }

  /** The names scenarios may be aimed at (`webhook`, `client`), as the domains declare them. */
  get targetNames(): readonly string[] {
    return this.#targets.map((t) => t.name)
  }

  /**
   * Starts the run: defines the domains, then settings, secret fields, scenario files, fixtures
   * (each domain loads its sections, in order), and the start-up scenarios.
   */
  async start(setup: RunSetup<Options>): Promise<void> {
    const modules = this.#options.domains
    const { urls } = this.#options
    const address = (name: string): string => {
      const origin = urls[name]
      if (origin === undefined) throw new Error(`The emulator has no address named "${name}" (it has ${Object.keys(urls).join(', ')}).`)
      return origin
    }
    const domains = defineDomains(modules, { kernel: this.services, address, options: setup.options })
    this.#domains = domains
    this.#targets = domains.flatMap((d) => d.targets ?? [])
    const targetNames = new Set(this.targetNames)
    const base = Object.fromEntries(modules.flatMap((m, i) => (m.schemas.settings ? [[m.schemas.settings.name, domains[i]?.baseSettings ?? {}]] : [])))
    this.#baseSettings = mergeSettings(base, setup.settings ?? {})
    const problem = parseNaming(this.settingsSchema(), this.#baseSettings)
    if (!problem.success) {
      const first = firstProblem(problem.error)
      throw new ConfigError(`settings${first.path ? `.${first.path}` : ''}`, first.rule)
    }
    for (const domain of domains) this.#redact.add(domain.secretFields ?? [])
    for (const dir of setup.scenarioDirs ?? []) this.#catalogue.addDir(dir)
    for (const definition of setup.scenarioDefinitions ?? []) this.#catalogue.add(definition)

    const loaded = loadSections(setup.fixtures, modules.flatMap((m) => m.schemas.fixtures))
    for (const domain of domains) await domain.load?.({ of: (section) => recordsOf(loaded, section) })
    this.#ids.reset()
    // Scenarios may be aimed only at routes and targets that exist now (the control plane's never count).
    this.#engine.aims = {
      routes: () => domains.flatMap((d) => [...d.routes, ...(d.fallback ? [d.fallback] : [])].map(({ id, tags }) => ({ id, tags }))),
      targets: () => this.#targets,
    }
    this.#startup = (setup.scenarios ?? []).flatMap((item) => {
      if (typeof item === 'string') return parseActivations(item, item, targetNames)
      const { name, ...flat } = item
      return [{ name, activation: kernelActivation(name, flat, targetNames) }]
    })
    this.#applyStartup()
  }

  #applyStartup(): void {
    for (const { name, activation } of this.#startup) this.#engine.use(name, activation)
  }

  /**
   * The emulator object: the kernel's part merged with each domain's `api`. The type parameters
   * name what the domains add (the composition root derives them from its list of domains).
   */
  api<State extends KernelState, Targets extends object, Apis extends object>(): KernelApi<State, Targets, Urls> & KernelTransport & Apis {
    const { clock, urls, seed, logger, product } = this.#options
    const changed = this.services.changed
    const state = (): State => {
      let out: KernelState = { version: product.version, clock: clock.state(), journalCapacity: this.#journal.capacity, scenarios: this.#engine.list() }
      for (const domain of this.#domains) out = { ...out, ...domain.state?.() }
      return out as State
    }
    const hub = new EventHub({ journal: this.#journal, changes: this.#changes, state })
    const kernel: KernelApi<State, Targets, Urls> & KernelTransport = {
      urls,
      seed,
      logger,
      clock: clockApi(clock, changed),
      scenarios: scenariosApi<Targets>(this.#engine, new Set(this.targetNames)),
      journal: journalApi(this.#journal, clock, () => this.#served().routeIds(), product),
      state,
      subscribe: (listener, options) => hub.subscribe(listener, options),
      disconnect: (reason) => {
        hub.close()
        this.#journal.endWaits(reason)
      },
      serve: (request, transport) => this.#served().serve(request, transport),
      origins: () => this.#served().origins(),
      health: () => ({ status: 'ok', version: product.version }),
      routes: () => this.#routes().map(({ definition: { id, method, path, origin, summary } }) => ({ id, method, path, origin, summary })),
      credentials: () => this.#domains.flatMap((d) => d.credentials?.() ?? []),
      examples: () => this.#domains.flatMap((d) => d.examples?.() ?? []),
      reset: async () => {
        clock.reset()
        this.#journal.clear()
        // Each domain's reset starts at once (a flow's queue empties synchronously), before the
        // scenarios go off: a scenario going off lets flows take up their queues again.
        const resets = this.#domains.map((d) => d.reset?.())
        this.#engine.reset()
        this.#applyStartup()
        this.#ids.reset()
        await Promise.all(resets)
        changed()
      },
      close: async () => {
        await Promise.all(this.#domains.map((d) => d.close?.()))
        hub.close()
        clock.close()
      },
    }
    return Object.assign(kernel, ...this.#domains.map((d) => d.api ?? {})) as KernelApi<State, Targets, Urls> & KernelTransport & Apis
  }

  /**
   * Serves the routes of the run's domains and of these others (the control plane, which steers
   * the whole emulator and so is made last). Scenario files are checked against every route.
   */
  route(others: readonly Domain[]): void {
    this.#others = others
    // Scenario files may be aimed at every route, a fallback's included.
    this.#catalogue.checkRoutes([...this.services.routes(), ...[...this.#domains, ...others].flatMap((d) => (d.fallback ? [d.fallback] : []))])
    this.#build()
  }

  /** The pipeline over the routes every domain serves now. */
  #build(): void {
    const serving = [...this.#domains, ...this.#others]
    const routes: RouteDefinition[] = serving.flatMap((d) => d.routes)
    const fallback = serving.find((d) => d.fallback)?.fallback
    const { clock, logger, urls, routeList } = this.#options
    this.#pipeline = new Pipeline(
      {
        clock,
        journal: this.#journal,
        scenarios: this.#engine,
        logger,
        settings: () => this.#baseSettings,
        origins: urls,
        targets: this.#targets,
        routeList,
      },
      routes,
      fallback,
    )
    this.#serving = serving
  }

  /** Every route with its documentation, for the OpenAPI document. */
  async documented(): Promise<{ routes: RouteDefinition[]; docs: Record<string, RouteDoc> }> {
    const docs = await Promise.all(this.#serving.map(async (d) => (await d.docs?.()) ?? {}))
    return { routes: this.#routes().map((r) => r.definition), docs: Object.assign({}, ...docs) }
  }

  #served(): Pipeline {
    if (!this.#pipeline) throw new Error('The emulator serves no routes before Kernel.route() is called.')
    return this.#pipeline
  }

  #routes(): Pipeline['routes'] {
    return this.#served().routes
  }
}
