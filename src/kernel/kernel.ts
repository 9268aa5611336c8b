/**
 * The kernel of one emulator, made in one call: `createKernel(setup)` makes the services every
 * domain gets (clock, ids, scenarios, journal, redaction, logger), defines the domains and merges
 * their records (assembly.ts), applies the run's settings, fixtures and start-up scenarios, builds
 * the route table, and returns the emulator object (kernel-api.ts), which serves at once. The
 * composition root hands it the domains; it knows none of them by name.
 */
import { kernelActivation } from './api.js'
import { type Assembly, assemble } from './assembly.js'
import { ChangeFeed } from './changes.js'
import type { Clock } from './clock.js'
import type { DomainModule, KernelServices } from './domain.js'
import { ConfigError } from './errors.js'
import type { FixtureDocument } from './fixtures.js'
import { SeededIds } from './ids.js'
import { Journal } from './journal.js'
import type { JsonObject } from './json.js'
import { type Addresses, type Documented, type Kernel, type KernelApi, type KernelState, type Product, kernelObject } from './kernel-api.js'
import type { Logger } from './logger.js'
import { Redactor } from './redact.js'
import { type ScenarioDefinition, scenarioCatalogue } from './scenarios/catalogue.js'
import { type Activation, ScenarioEngine } from './scenarios/engine.js'
import { parseActivations } from './scenarios/syntax.js'
import type { RouteDefinition } from './route.js'
import { type SavedStateDocument, SavedStateError, SavedStateVersionError } from './saved.js'
import { Pipeline } from './serve.js'
import { type SettingsSection, type SettingsTree, mergeSettings, settingsSchemaOf } from './settings.js'
import { firstProblem, parseNaming } from './validation.js'

export type { Addresses, Documented, Kernel, KernelApi, KernelState, KernelTransport, Product, RouteInfo } from './kernel-api.js'

/** A scenario on for the whole run, by name or text form (`latency:ms=2000`), or with its activation flat. */
export type StartupScenario = string | ({ readonly name: string } & object)

/** Everything a kernel is made from. */
export interface KernelSetup<Options extends object, Urls extends Addresses> {
  readonly urls: Urls
  readonly seed: number
  /** The seed of the ids the emulator makes up at run time (keys, secrets, codes), when not `seed`. */
  readonly idSeed?: number
  readonly clock: Clock
  readonly logger: Logger
  readonly journalSize: number
  /** The product named in HAR files and the health answer. */
  readonly product: Product
  /**
   * The domains, in the order they are defined and load their fixtures; one that steers the
   * others (the control plane) goes last.
   */
  readonly domains: readonly DomainModule<string, Options>[]
  /** The domains' settings sections (a module-level list: the settings schema is built once per list). */
  readonly settingsSections: readonly SettingsSection[]
  /** The run's options (every domain reads its own). */
  readonly options: Options
  /** Raw settings merged over the domains' base settings. */
  readonly settings?: SettingsTree
  /** Every fixture document, validated, in order (later records replace earlier ones with the same key). */
  readonly fixtures: readonly FixtureDocument[]
  /** The run's own scenario definitions, validated. */
  readonly scenarios: readonly ScenarioDefinition[]
  /** A library of scenario definitions validated and checked against the routes already, read when a scenario is first looked up (the run's own replace its by name). */
  readonly scenarioLibrary?: () => readonly ScenarioDefinition[]
  /** The scenarios on for the whole run. */
  readonly startup?: readonly StartupScenario[]
  /** Where a 404 for a path the emulator does not emulate points the caller. */
  readonly routeList: string
  /** Makes the OpenAPI document from every route and its documentation. */
  readonly document: (documented: Documented) => Promise<JsonObject>
  /** A saved state to start from (a document or its JSON text); the start-up scenarios go on after its own. */
  readonly state?: SavedStateDocument | string
}

/** Loads the saved state an emulator starts from; a document that cannot be loaded is the `state` option's ConfigError. */
async function startFrom(emulator: KernelApi<KernelState, object, Addresses>, state: SavedStateDocument | string, then: () => void): Promise<void> {
  try {
    await emulator.importState(state)
  } catch (error) {
    if (error instanceof SavedStateError) throw new ConfigError('state', `${error.member === '' ? 'the document' : `member ${error.member}`}: ${error.rule}`, { cause: error })
    if (error instanceof SavedStateVersionError) throw new ConfigError('state', error.message, { cause: error })
    throw error
  }
  then()
}

/**
 * Makes a kernel that serves: defines the domains, then the settings, secret fields, fixtures
 * (each domain loads its sections, in order) and the start-up scenarios; checks the scenario
 * files against every route; builds the route table.
 */
export async function createKernel<Options extends object, Urls extends Addresses, State extends KernelState, Targets extends object, Apis extends object>(
  setup: KernelSetup<Options, Urls>,
): Promise<Kernel<State, Targets, Urls, Apis>> {
  const { urls, clock, logger } = setup
  const catalogue = scenarioCatalogue(setup.settingsSections)
  if (setup.scenarioLibrary) catalogue.setLibrary(setup.scenarioLibrary)
  catalogue.addValidated(setup.scenarios)
  let baseSettings: SettingsTree = {}
  const engine = new ScenarioEngine(catalogue, () => baseSettings)
  const changes = new ChangeFeed()
  const changed = (): void => changes.notify()
  engine.onChange(changed)
  // Ids the emulator makes up (version ids, keys) come from a seeded generator, restarted on reset.
  const ids = new SeededIds(setup.idSeed ?? setup.seed)
  const redact = new Redactor()
  const journal = new Journal(clock, redact, setup.journalSize)

  // The domains are defined with services that read what is made below only when called, and
  // this function returns only once all of it is made.
  let domains: Assembly | undefined
  let pipeline: Pipeline | undefined
  let emulator: Kernel<State, Targets, Urls, Apis> | undefined
  const route = (assembly: Assembly): Pipeline =>
    (pipeline = new Pipeline(
      { clock, journal, scenarios: engine, logger, settings: () => baseSettings, origins: urls, targets: assembly.targets, routeList: setup.routeList },
      assembly.routes(),
      assembly.fallback,
    ))
  const services: KernelServices = {
    clock,
    ids,
    seed: setup.seed,
    logger,
    redact,
    baseSettings: () => baseSettings,
    changed,
    scenarios: engine,
    routes: () => domains?.routes() ?? [],
    routesChanged: () => {
      if (domains && pipeline) route(domains)
    },
  }
  const address = (name: string): string => {
    const origin = urls[name]
    if (origin === undefined) throw new Error(`The emulator has no address named "${name}" (it has ${Object.keys(urls).join(', ')}).`)
    return origin
  }
  const whole = (): Kernel<State, Targets, Urls, Apis> => {
    if (!emulator) throw new Error('The emulator is whole only once every domain is defined: call emulator() from a resolver, not from define().')
    return emulator
  }
  const assembly = assemble(setup.domains, { kernel: services, address, options: setup.options, emulator: whole })
  domains = assembly

  baseSettings = mergeSettings(assembly.baseSettings, setup.settings ?? {})
  // The domains' base settings are valid as made (each option is checked where it is used); the
  // tree is checked when the run gives settings of its own.
  const given: unknown = setup.settings ?? {}
  if (typeof given !== 'object' || given === null || Object.keys(given).length > 0) {
    const problem = parseNaming(settingsSchemaOf(setup.settingsSections), baseSettings)
    if (!problem.success) {
      const first = firstProblem(problem.error)
      throw new ConfigError(`settings${first.path ? `.${first.path}` : ''}`, first.rule)
    }
  }
  redact.add(assembly.secretFields)
  await assembly.load(setup.fixtures)
  ids.reset()

  // Scenarios may be aimed only at routes and targets that exist now (the control plane's never count).
  const targetNames = new Set(assembly.targets.map((t) => t.name))
  engine.aims = {
    routes: () => [...assembly.routes(), ...(assembly.fallback ? [assembly.fallback] : [])].filter((r) => !r.control).map(({ id, tags }) => ({ id, tags })),
    targets: () => assembly.targets,
  }
  const startup = (setup.startup ?? []).flatMap((item): Array<{ name: string; activation: Activation }> => {
    if (typeof item === 'string') return parseActivations(item, item, targetNames)
    const { name, ...flat } = item
    return [{ name, activation: kernelActivation(name, flat, targetNames) }]
  })
  const switchOn = (): void => {
    for (const { name, activation } of startup) engine.use(name, activation)
  }
  switchOn()
  // What a reset switches on again: the start-up scenarios, until a saved state is loaded.
  let restoreScenarios = (): void => {
    engine.reset()
    switchOn()
  }
  const keepScenarios = (): void => {
    const saved = engine.saved()
    restoreScenarios = () => engine.replaceRun(engine.restorable(saved))
  }
  const allRoutes = (): RouteDefinition[] => [...assembly.routes(), ...(assembly.fallback ? [assembly.fallback] : [])]

  // The run's scenario files may be aimed at every route, a fallback's included.
  catalogue.checkRoutes([...assembly.routes(), ...(assembly.fallback ? [assembly.fallback] : [])])
  const served = route(assembly)
  emulator = kernelObject<State, Targets, Urls, Apis>({
    urls,
    seed: setup.seed,
    clock,
    logger,
    product: setup.product,
    journal,
    scenarios: engine,
    targetNames,
    changes,
    ids,
    domains: assembly,
    served: () => pipeline ?? served,
    restoreScenarios: () => restoreScenarios(),
    keepScenarios,
    allRoutes,
    document: setup.document,
  })
  if (setup.state !== undefined) await startFrom(emulator, setup.state, () => {
    switchOn()
    keepScenarios()
  })
  return emulator
}
