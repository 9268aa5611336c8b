/**
 * The emulator's public shape: its options, and the object tests, the control plane and every
 * transport drive (`Emulator`): the kernel's part (clock, scenarios, journal, state, reset, …)
 * merged with each domain's `api`. `emulator.ts` builds it.
 */
import type { AuthApi, AuthFixtures, AuthOptions, AuthSettingsInput, AuthState, AuthTargets } from './auth/index.js'
import type { ClockApi, JournalApi, ScenarioSwitch, ScenariosApi } from './kernel/api.js'
import type { ClockMode, ClockOptions, ClockState } from './kernel/clock.js'
import type { CredentialInfo } from './kernel/domain.js'
import type { EmulatorEvent as KernelEvent, SubscribeOptions } from './kernel/events.js'
import type { Transport } from './kernel/journal.js'
import type { LogFormat, Logger } from './kernel/logger.js'
import type { Reply } from './kernel/reply.js'
import type { JsonObject } from './kernel/json.js'
import type { IncomingRequest } from './kernel/request.js'
import type { ScenarioListing } from './kernel/scenarios/engine.js'
import type { ScenarioDefinitionInput } from './kernel/scenarios/schema.js'
import type { VersionsApi, VersionsFixtures, VersionsOptions, VersionsSettingsInput } from './versions/index.js'
import type { WebhooksApi, WebhooksFixtures, WebhooksSettingsInput, WebhooksState, WebhooksTargets } from './webhooks/index.js'

export type { ClockApi, JournalApi, CredentialInfo }

/** What a scenario can be aimed at, by the names the domains declare. */
export type ScenarioTargets = AuthTargets & WebhooksTargets

/** How a scenario is switched on: `times`, `params`, and what it is aimed at (a route, a webhook, a client). */
export type ScenarioActivation = ScenarioSwitch & ScenarioTargets

export type EmulatorScenariosApi = ScenariosApi<ScenarioTargets>

/** A fixture document, as a JSON file holds it or `fixtures` takes it inline: each section typed (docs/fixtures.schema.json). */
export type InlineFixtures = AuthFixtures & VersionsFixtures & WebhooksFixtures & { $schema?: string; $comment?: string }

/** A fixture file or folder (a path), or a fixture document. */
export type FixtureInput = string | InlineFixtures

/** Raw settings by section, each field optional: what a scenario's `settings` may change. */
export type SettingsInput = {
  auth?: AuthSettingsInput
  versions?: VersionsSettingsInput
  webhooks?: WebhooksSettingsInput
}

export interface EmulatorOptions extends AuthOptions, VersionsOptions {
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
  clock?: ClockMode | ClockOptions
  /** Scenarios on for the whole run, by name or text form (`latency:ms=2000`) or with options. */
  scenarios?: Array<string | ({ name: string } & ScenarioActivation)>
  /** Folders of your own scenario files. */
  scenarioDirs?: string[]
  /** Scenario definitions given as objects (the content of a scenario file). */
  scenarioDefinitions?: ScenarioDefinitionInput[]
  log?: LogFormat | Logger
  /** How many requests the journal keeps (newest kept). Default 1000. */
  journalSize?: number
  /** Raw settings, merged over the ones the options above produce. */
  settings?: SettingsInput
}

export interface EmulatorUrls {
  readonly auth: string
  readonly base: string
  readonly webhook: string
}

export interface RouteInfo {
  id: string
  method: string
  path: string
  /** The address it lives on: `auth` (`{auth_url}`), `base` (`{base_url}`) or `webhook`. */
  origin: string
  summary: string
}

/**
 * Everything the dashboard shows, in one read: clock, scenarios, webhooks (flow as calls see it
 * now, queue, latest runs), OAuth clients (never secrets), users with their consents.
 */
export interface EmulatorState extends AuthState, WebhooksState {
  version: string
  clock: ClockState
  /** How many requests the journal keeps (the newest). */
  journalCapacity: number
  scenarios: ScenarioListing[]
}

export type EmulatorEvent = KernelEvent<EmulatorState>
export type EmulatorEventListener = (event: EmulatorEvent) => void

/** The kernel's part of the emulator object. */
export interface EmulatorKernelApi {
  readonly urls: EmulatorUrls
  readonly seed: number
  readonly clock: ClockApi
  readonly scenarios: EmulatorScenariosApi
  readonly journal: JournalApi
  state(): EmulatorState
  /**
   * Live events: the state and the newest journal entries at once, then each new journal entry
   * and the state again whenever it changes. Returns the function that stops them.
   */
  subscribe(listener: EmulatorEventListener, options?: SubscribeOptions): () => void
  /**
   * Answers a request with no transport at all, as fetch would: a network-error fault rejects
   * with a TypeError.
   */
  handle(request: Request): Promise<Response>
  health(): { status: 'ok'; version: string }
  routes(): RouteInfo[]
  /** The OpenAPI 3.1 document of every route, generated from the route registry (`GET /__svc-mock/openapi.json`). */
  openapi(): Promise<JsonObject>
  credentials(): CredentialInfo[]
  /** Back to the fixtures: store, queues, executions, scenarios (the start-up ones stay), clock, journal. */
  reset(): Promise<void>
  close(): Promise<void>
}

export type Emulator = EmulatorKernelApi & AuthApi & VersionsApi & WebhooksApi

/** The emulator plus what only the adapters need. */
export interface EmulatorCore extends Emulator {
  readonly logger: Logger
  /** The one way in: answers a transport-neutral request. */
  serve(request: IncomingRequest, transport: Transport): Promise<Reply>
  /** The origins the emulator serves (each of `urls`, once). */
  origins(): string[]
  /** Ends every live-event subscription (the server does this first when it closes, so open dashboards let go). */
  disconnect(): void
}
