/**
 * The emulator's public shape: its options, and the object tests, the control plane and every
 * transport drive (`Emulator`): the kernel's part (clock, scenarios, journal, state, reset, …)
 * merged with each domain's `api`. `emulator.ts` builds it (with `createKernel`).
 */
import type { DomainApis, DomainFixtures, DomainOptions, DomainSaved, DomainSettings, DomainState, DomainTargets } from './domains.js'
import type { ClockApi, JournalApi, ScenarioSpec, ScenarioSwitch, ScenariosApi } from './kernel/api.js'
import type { ClockMode, ClockOptions } from './kernel/clock.js'
import type { CredentialInfo, ExampleRequest } from './kernel/domain.js'
import type { EmulatorEvent as KernelEvent } from './kernel/events.js'
import type { KernelApi, KernelState, KernelTransport, RouteInfo } from './kernel/kernel.js'
import type { LogFormat, Logger } from './kernel/logger.js'
import type { ImportSummary, SavedStateDocument } from './kernel/saved.js'
import type { ScenarioDefinitionInput } from './kernel/scenarios/schema.js'
import type { BuiltInScenarioName } from './scenario-names.js'

export type { BuiltInScenarioName, ClockApi, JournalApi, CredentialInfo, ExampleRequest, RouteInfo, ScenarioSpec }

/**
 * A scenario name the emulator knows: a built-in one, or one of yours (`Custom`, inferred from
 * `scenarioDefinitions` or given as `createEmulator<'my-scenario'>(…)` for `scenarioDirs`).
 */
export type ScenarioName<Custom extends string = never> = BuiltInScenarioName | Custom

/** What a scenario can be aimed at, by the names the domains declare. */
export type ScenarioTargets = DomainTargets

/** How a scenario is switched on: `times`, `params`, and what it is aimed at (a route, a webhook, a client). */
export type ScenarioActivation = ScenarioSwitch & ScenarioTargets

export type EmulatorScenariosApi<Custom extends string = never> = ScenariosApi<ScenarioTargets, ScenarioName<Custom>>

/** A fixture document, as a JSON file holds it or `fixtures` takes it inline: each section typed (docs/fixtures.schema.json). */
export type InlineFixtures = DomainFixtures & { $schema?: string; $comment?: string }

/** A fixture file or folder (a path), or a fixture document. */
export type FixtureInput = string | InlineFixtures

/** Raw settings by section, each field optional: what a scenario's `settings` may change. */
export type SettingsInput = DomainSettings

/**
 * `Custom`: the names of your own scenarios. `createEmulator()` infers them from
 * `scenarioDefinitions`; for `scenarioDirs` give them (`createEmulator<'orders-maintenance'>(…)`).
 * The type written without it takes any name.
 */
export interface EmulatorOptions<Custom extends string = string> extends DomainOptions {
  /** One origin for everything (default `https://acme.svc-mock.test`). */
  origin?: string
  /** `{auth_url}`: token, authorize and discovery endpoints. Default: `origin`. */
  authUrl?: string
  /** `{base_url}`: the REST API and the control plane. Default: `origin`. */
  baseUrl?: string
  /** Where webhook addresses live. Default: `origin`. */
  webhookUrl?: string
  /** Fixture files, folders or objects, applied on top of the default fixtures. */
  fixtures?: FixtureInput | FixtureInput[]
  /** Start from the default fixtures (default true). */
  defaultFixtures?: boolean
  /** Seed for generated data and ids: the same seed gives the same data (default 1). */
  seed?: number
  /**
   * The emulator's name, where several serve one process (a team's name, docs/teams.md). The ids
   * it makes up at run time (API keys, client ids and secrets, codes, tokens) come from the seed
   * and this name, so two emulators of one seed never make the same credential; its data (the
   * fixtures, the generated elements) stays the seed's. Default: none.
   */
  name?: string
  clock?: ClockMode | ClockOptions
  /** Scenarios on for the whole run, by name or text form (`latency:ms=2000`) or with options. */
  scenarios?: Array<ScenarioSpec<ScenarioName<NoInfer<Custom>>> | ({ name: ScenarioName<NoInfer<Custom>> } & ScenarioActivation)>
  /** Folders of your own scenario files. */
  scenarioDirs?: string[]
  /** Scenario definitions given as objects (the content of a scenario file). */
  scenarioDefinitions?: Array<ScenarioDefinitionInput & { name: Custom }>
  log?: LogFormat | Logger
  /** How many requests the journal keeps (newest kept). Default 1000. */
  journalSize?: number
  /** Raw settings, merged over the ones the options above produce. */
  settings?: SettingsInput
  /**
   * A saved state to start from (`emu.exportState()`, `GET /__svc-mock/state/export`), or its JSON
   * text: a reset returns to it. Its seed and clock are the run's unless `seed` and `clock` are
   * given (docs/state.md).
   */
  state?: SavedState | string
}

/** The emulator's addresses (a type, not an interface, so that it is a record of names). */
export type EmulatorUrls = {
  /** `{auth_url}`: token, authorize and discovery endpoints. */
  readonly auth: string
  /** `{base_url}`: the REST API and the control plane. */
  readonly base: string
  /** Where webhook addresses live. */
  readonly webhook: string
}

/**
 * Everything the dashboard shows, in one read: clock, scenarios, webhooks (flow as calls see it
 * now, queue, latest runs), OAuth clients (never secrets), users with their consents.
 */
export interface EmulatorState extends KernelState, DomainState {}

export type EmulatorEvent = KernelEvent<EmulatorState>
export type EmulatorEventListener = (event: EmulatorEvent) => void

/**
 * A saved state: everything a reset would not give back, as one JSON document (docs/state.md,
 * docs/state.schema.json): the kernel's members, then each domain's part.
 */
export type SavedState = SavedStateDocument<DomainSaved & { control?: SavedTeams }>

/** The control plane's part of a saved state: a server's teams beside the main one, each with its own saved state. */
export interface SavedTeams {
  teams?: Array<{ name: string; seed: number; state: SavedState }>
}

export type { ImportSummary }

/** The kernel's part of the emulator object; `Custom`: the names of your own scenarios. */
export interface EmulatorKernelApi<Custom extends string = never> extends Omit<KernelApi<EmulatorState, ScenarioTargets, EmulatorUrls>, 'scenarios' | 'exportState' | 'importState'> {
  readonly scenarios: EmulatorScenariosApi<Custom>
  /**
   * Everything a reset would not give back, as one JSON document: write it to a file and start
   * from it later (`--import FILE`, `createEmulator({ state })`, `POST /__svc-mock/teams` with
   * `{state}`). One snapshot, between two requests.
   */
  exportState(): Promise<SavedState>
  /**
   * Replaces the state with a saved one (the document, or its JSON text) in one step, and makes
   * it what a reset returns to. A document that cannot be loaded changes nothing:
   * SavedStateError names the member, SavedStateVersionError the newer svc-mock that wrote it.
   */
  importState(document: SavedState | string): Promise<ImportSummary>
}

/** The emulator object before a transport is added: what the adapters build on (any scenario name). */
export type EmulatorCore = EmulatorKernelApi<string> & DomainApis & KernelTransport

/**
 * The emulator: the kernel's part and each domain's (`emu.webhooks`, `emu.oauth`, `emu.elements`,
 * …). `Custom`: the names of your own scenarios, beside the built-in ones.
 */
export type Emulator<Custom extends string = never> = EmulatorKernelApi<Custom> &
  DomainApis & {
    /**
     * Answers a request with no transport at all, as fetch would: a network-error fault rejects
     * with a TypeError.
     */
    handle(request: Request): Promise<Response>
  }
