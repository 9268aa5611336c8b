/**
 * The shape of a domain module and what the kernel gives it. A domain (`auth`, `versions`,
 * `webhooks`, the control plane) is a folder with one door, its `index.ts`, exporting one
 * `define…Domain(deps)` that returns a `Domain` record; the composition root only merges these
 * records: routes into the route table, `api` into the emulator object, fixture sections and
 * settings sections into the loaders, scenario targets into the engine, secret fields into the
 * redaction list, `state()` into the dashboard's state, `reset()` into the emulator's reset.
 */
import type * as z from 'zod'
import type { Clock } from './clock.js'
import type { FixtureSection, Sourced } from './fixtures.js'
import type { SeededIds } from './ids.js'
import type { Logger } from './logger.js'
import type { Redactor } from './redact.js'
import type { RouteDefinition, RouteDoc } from './route.js'
import type { RequestTargets } from './scenarios/engine.js'
import type { RequestBody } from './request.js'
import type { SettingsTree } from './settings.js'

/** A settings section: its name in the settings tree, and its schema (with defaults). */
export interface SettingsSection {
  readonly name: string
  readonly schema: z.ZodObject
}

/** A domain's schemas, known without building an emulator (the JSON Schemas of the file formats use them). */
export interface DomainSchemas {
  readonly settings?: SettingsSection
  readonly fixtures: readonly FixtureSection<unknown>[]
}

/** What a scenario target reads from a request. */
export interface TargetSource {
  readonly routeId: string
  readonly params: Readonly<Record<string, string>>
  readonly url: URL
  readonly headers: Headers
  readonly body: RequestBody | null
}

/**
 * Something a scenario can be aimed at (`webhook=orders`, `client=ci-client`): its name, how to
 * read it from a request (only when an active scenario is aimed at this name), and the values
 * that exist now (for messages that name the closest one).
 */
export interface ScenarioTarget {
  readonly name: string
  readonly description: string
  read(request: TargetSource): string | undefined | Promise<string | undefined>
  values(): readonly string[]
}

/** A line of the start-up banner: a credential worth printing (the defaults are public test values). */
export interface CredentialInfo {
  kind: string
  /** Not a secret: a key's id, an OAuth client's client id (`--log json` prints it with the label). */
  id: string
  label: string
  value: string
}

/** Reads the records of one fixture section, typed by the section. */
export interface FixtureRecords {
  of<T>(section: FixtureSection<T>): Sourced<T>[]
  /** Whether every record of these sections comes from the built-in default fixtures (then what the build computed from them holds). */
  defaultsOnly(sections: readonly FixtureSection<unknown>[]): boolean
}

export interface Domain<Api extends object = object, State extends object = object> {
  /** Routes it serves, each on one of the emulator's named addresses. */
  readonly routes: readonly RouteDefinition[]
  /** What `emu` exposes of it in-process (the control plane calls the same methods). */
  readonly api: Api
  readonly schemas: DomainSchemas
  /** The settings section as the run's options set it (scenarios overlay it). */
  readonly baseSettings: Readonly<Record<string, unknown>>
  readonly targets: readonly ScenarioTarget[]
  /** Names of body and query fields that hold secrets (redacted wherever requests are shown). */
  readonly secretFields: readonly string[]
  /** Takes its sections of the fixtures; called once, in the composition root's order. */
  load(fixtures: FixtureRecords): Promise<void>
  /** Its part of the emulator's state (what the dashboard shows). */
  state(): State
  credentials(): CredentialInfo[]
  /** Back to the fixtures. The synchronous part runs before the scenarios are reset. */
  reset(): Promise<void>
  /**
   * What the build may compute once for these fixtures (the default ones) and store in its
   * snapshot, by key; at run time the domain reads them back with `kernel.precompiled(key)`.
   */
  precompile?(fixtures: FixtureRecords): Promise<Readonly<Record<string, unknown>>>
  /**
   * The OpenAPI documentation of its routes, by route id (`GET /__svc-mock/openapi.json`). Loaded
   * with import() when a document is asked for: its zod schemas are about a third of those svc-mock
   * builds, and most emulators never need them.
   */
  docs?(): Promise<Readonly<Record<string, RouteDoc>>>
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
  /** A value the build computed for the default fixtures (see `Domain.precompile`), or undefined. */
  readonly precompiled: (key: string) => unknown
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
