/**
 * The shape of a domain module and what the kernel gives it. A domain (`auth`, `versions`,
 * `webhooks`, the control plane) is a folder with one door, its `index.ts`, exporting one
 * `DomainModule` whose `define()` returns a `Domain` record; the kernel only merges these
 * records, all in one place (assembly.ts). A module also declares the command-line flags of its
 * options (`flags`), from which the command derives its flags, help and variables.
 */
import type { Clock } from './clock.js'
import type { ControlPart } from './control.js'
import type { FixtureRecord, FixtureSection } from './fixtures.js'
import type { Flag } from './flags.js'
import type { SeededIds } from './ids.js'
import type { Logger } from './logger.js'
import type { Redactor } from './redact.js'
import type { RouteDefinition, RouteDoc } from './route.js'
import type { SavedPart, SavedSchema } from './saved.js'
import type { RequestTargets, ScenarioTarget } from './scenarios/targets.js'
import type { SettingsSection, SettingsTree } from './settings.js'


/** A domain's schemas, known without building an emulator (the JSON Schemas of the file formats use them). */
export interface DomainSchemas {
  readonly settings?: SettingsSection
  readonly fixtures: readonly FixtureSection<unknown>[]
  /** The zod schema of its part of a saved state (loaded with import() when first needed); a domain that keeps state has one. */
  readonly saved?: SavedSchema
}

/** Declared with the scenarios, which compare them with each scenario's aim; the domains import them from here. */
export type { ScenarioTarget, TargetSource } from './scenarios/targets.js'

/** A line of the start-up banner: a credential worth printing (the defaults are public test values). */
export interface CredentialInfo {
  kind: string
  /** Not a secret: a key's id, an OAuth client's client id (`--log json` prints it with the label). */
  id: string
  label: string
  value: string
  /** How curl presents it on a protected path (`-H 'Authorization: AppKey …'`), where it is that simple. */
  curl?: string
}

/** A request worth trying first, made from what a domain loaded (the start-up banner's Try lines). */
export interface ExampleRequest {
  readonly url: string
  /** curl's arguments for it; without them it is a protected path, tried with a credential's (`CredentialInfo.curl`). */
  readonly curl?: string
}

/** Reads the records of one fixture section, typed by the section. */
export interface FixtureRecords {
  of<T>(section: FixtureSection<T>): FixtureRecord<T>[]
}

/**
 * What a domain gives the emulator. Only `routes` is required: a domain that has nothing to say
 * for a field leaves it out.
 */
export interface Domain<Api extends object = object, State extends object = object> {
  /**
   * Routes it serves, each on one of the emulator's named addresses. A domain whose routes change
   * at run time gives them through a getter and calls `kernel.routesChanged()` after each change.
   */
  readonly routes: readonly RouteDefinition[]
  /**
   * Answers the requests for paths no route serves, in place of the 404 (a proxy to a real
   * service): never a path some route's pattern matches, nor one under the control plane's prefix.
   * Its `path` is only shown; at most one domain gives one.
   */
  readonly fallback?: RouteDefinition
  /** What `emu` exposes of it in-process (the control plane calls the same methods). */
  readonly api?: Api
  /** Its settings section as the run's options set it (scenarios overlay it). */
  readonly baseSettings?: Readonly<Record<string, unknown>>
  readonly targets?: readonly ScenarioTarget[]
  /** Names of body and query fields that hold secrets (redacted wherever requests are shown). */
  readonly secretFields?: readonly string[]
  /** Takes its sections of the fixtures; called once, in the order the domains are listed. */
  load?(fixtures: FixtureRecords): Promise<void>
  /** Its part of the emulator's state (what the dashboard shows). */
  state?(): State
  credentials?(): CredentialInfo[]
  /** Requests worth trying first, from what it loaded (the banner's Try lines). */
  examples?(): ExampleRequest[]
  /** Its operations on the control plane (`/__svc-mock/webhooks`) with their documentation; the control plane mounts them. */
  readonly control?: ControlPart
  /**
   * Its part of a saved state, made with import() when first needed: writing it and loading one
   * (the schema is the module's `schemas.saved`). A domain with a `reset()` keeps state, and must have one.
   */
  saved?(): Promise<SavedPart>
  /** Back to the fixtures. The synchronous part runs before the scenarios are reset. */
  reset?(): Promise<void>
  /** Finishes what it has in flight (a file being written) before the emulator closes. */
  close?(): Promise<void>
  /**
   * The OpenAPI documentation of its routes, by route id (`GET /__svc-mock/openapi.json`). Loaded
   * with import() when a document is asked for: most emulators never need it.
   */
  docs?(): Promise<Readonly<Record<string, RouteDoc>>>
}

/** What a domain is made from. `Emulator`: the type of the emulator object, for a domain that steers it. */
export interface DomainContext<Options extends object = object, Emulator extends object = object> {
  readonly kernel: KernelServices
  /** The origin of one of the emulator's named addresses (the names routes give as `origin`). */
  address(name: string): string
  /** The run's options (the whole set; a domain reads its own). */
  readonly options: Options
  /** Another domain's record, defined first if it is not yet: a domain reaches another only through what that one's index exports. */
  use<Made extends Domain>(module: DomainModule<string, never, Made>): Made
  /**
   * The records of the domains defined before this one. The control plane, listed last, mounts
   * their control parts and names their scenario targets from them.
   */
  readonly defined: readonly Domain[]
  /**
   * The emulator these domains make up, for a domain that steers it (the control plane). It is
   * whole once every domain is defined, so call it from a resolver, never from `define()`.
   */
  emulator(): Emulator
}

/** The types a domain adds to the public ones; never a value (`inputs` is only ever a type). */
export interface DomainInputs {
  /** Its sections of a fixture document, as users write them. */
  readonly fixtures: object
  /** Its settings section, as options and scenario files give it. */
  readonly settings: object
  /** What a scenario can be aimed at in it (`{ webhook?: string }`). */
  readonly targets: object
  /** Its part of a saved state, as the document holds it (a domain that keeps no state has none). */
  readonly saved?: object
}

/**
 * A domain module: what its `index.ts` exports, and what the composition root lists. `define()`
 * is called once per emulator.
 */
export interface DomainModule<Name extends string = string, Options extends object = object, Made extends Domain = Domain, Inputs extends DomainInputs = DomainInputs> {
  readonly name: Name
  readonly schemas: DomainSchemas
  /** The command-line flags of its options, each with its variable, parse and help (`--proxy`, `SVC_MOCK_PROXY`). */
  readonly flags?: readonly Flag<Options>[]
  define(context: DomainContext<Options>): Made
  /** Never set: carries the domain's input types to the public types (src/domains.ts). */
  readonly inputs?: Inputs
}

/** What the kernel gives every domain. */
export interface KernelServices {
  readonly clock: Clock
  /** The run's seeded id generator (restarted on reset). */
  readonly ids: SeededIds
  readonly seed: number
  readonly logger: Logger
  readonly redact: Redactor
  /** The run's settings, without scenarios. */
  readonly baseSettings: () => SettingsTree
  /** Tells watchers (the dashboard) that the state may have moved without a journaled request. */
  readonly changed: () => void
  /** Every route of every domain (none while the domains are being defined). */
  readonly routes: () => readonly RouteDefinition[]
  /** A domain's `routes` changed at run time: the route table is built again from every domain's. */
  readonly routesChanged: () => void
  readonly scenarios: ScenarioView
}

/** What a domain may ask of the scenarios on now, outside a request. */
export interface ScenarioView {
  /** The settings a request to this route and targets would see now (without counting a request). */
  settingsAt(routeId: string, targets: RequestTargets): SettingsTree
  /** Names of the scenarios on now that touch this route and targets. */
  touchingAt(routeId: string, targets: RequestTargets): string[]
  /** Called whenever a run-level scenario goes on or off. */
  onChange(listener: (event: { name: string; on: boolean }) => void): () => void
}
