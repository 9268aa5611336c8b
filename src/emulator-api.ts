/**
 * The emulator's public shape: its options, and the object tests, the control plane and both
 * transports drive (`Emulator`), with one API per area (clock, scenarios, journal, elements,
 * storages, static keys, OAuth, webhooks, users). `emulator.ts` builds it.
 */
import type { OAuthApi } from './auth/oauth/api.js'
import type { TokenAlgorithm } from './auth/settings.js'
import type { EmulatorEventListener, SubscribeOptions } from './events.js'
import type { ClockMode, ClockOptions, ClockState } from './kernel/clock.js'
import type { Dispatcher } from './kernel/dispatch.js'
import type { FixtureInput } from './kernel/fixtures.js'
import type { JournalEntry, JournalFilter, JournalWaitOptions, Transport } from './kernel/journal.js'
import type { LogFormat, Logger } from './kernel/logger.js'
import type { OriginKind } from './kernel/route.js'
import type { ScenarioActivation, ScenarioListing } from './kernel/scenarios/engine.js'
import type { SettingsTree } from './kernel/settings.js'
import type { EmulatorState, UserInfo } from './state.js'
import type { StorageFixture } from './versions/model.js'
import type { ElementSummary } from './versions/store.js'
import type { WebhookView } from './webhooks/domain.js'
import type { Execution, ExecutionPredicate } from './webhooks/executions.js'

export interface EmulatorOptions {
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
  /** Scenario definitions given as objects. */
  scenarioDefinitions?: unknown[]
  log?: LogFormat | Logger
  /** How many requests the journal keeps (newest kept). Default 1000. */
  journalSize?: number
  /** Name of the version list in answers: `elements` (default), `values`, or `both`. */
  versionListKey?: 'elements' | 'values' | 'both'
  /** OAuth scope the versions operation needs (default: none beyond a valid credential). */
  versionsScope?: string | null
  /** `rejected` makes static keys fail with 401, as once the platform discontinues them. */
  staticKeys?: 'allowed' | 'rejected'
  // --- OAuth (issue 3) ---
  /** `expires_in` of access tokens in seconds (default 899). */
  tokenLifetime?: number
  /** Algorithm that signs access tokens (default RS256). */
  tokenAlgorithm?: TokenAlgorithm
  /** `page` shows the HTML consent page for every client; `auto` (default) consents at once. */
  consent?: 'auto' | 'page'
  // --- end OAuth ---
  /** Raw settings, merged over the ones the options above produce. */
  settings?: SettingsTree
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
  origin: OriginKind
  summary: string
}

export interface ClockApi {
  now(): Date
  state(): ClockState
  /** Moves the emulator clock; timers that fall due fire in order. Resolves with the new state. */
  advance(ms: number): Promise<ClockState>
  /** Lets in-flight work run until it is finished or waiting on the clock. */
  settle(): Promise<void>
  /** Resolves once at least `count` in-flight requests wait on the clock (e.g. a delayed answer). */
  waitForParked(count?: number): Promise<void>
  /** How many in-flight requests (and flow runs) wait on the clock right now. */
  parked(): number
}

export interface ScenariosApi {
  list(): ScenarioListing[]
  /** On for the run, or, inside `boundary()`, for that boundary only. Accepts `name:key=value`. */
  use(name: string, activation?: ScenarioActivation): void
  off(name: string): boolean
  /** Wraps a test so the scenarios it switches on apply to its own requests only. */
  boundary<Args extends unknown[], R>(fn: (...args: Args) => R): (...args: Args) => R
}

export interface JournalApi {
  list(filter?: JournalFilter): JournalEntry[]
  wait(filter?: JournalFilter, options?: JournalWaitOptions): Promise<JournalEntry | undefined>
  clear(): void
}

export interface ElementsApi {
  list(filter?: { storage?: string; facet?: string }): ElementSummary[]
  add(element: unknown): Promise<ElementSummary>
  addVersion(elementId: string, version: unknown, where?: { storage?: string; facet?: string }): Promise<ElementSummary>
  remove(elementId: string, where?: { storage?: string; facet?: string }): void
  removeVersion(elementId: string, versionId: string, where?: { storage?: string; facet?: string }): Promise<void>
}

export interface StoragesApi {
  list(): StorageFixture[]
  add(storage: unknown): Promise<StorageFixture>
}

export interface CreatedApiKey {
  id: string
  kind: 'user' | 'app'
  key: string
  userId?: string
  permissions: Array<{ action: string; resource: string }>
}

export interface ApiKeysApi {
  list(): Array<Omit<CreatedApiKey, 'key'>>
  create(input: unknown): Promise<CreatedApiKey>
  delete(key: string): boolean
}

// --- webhooks (issue 4) ---
export interface WebhooksApi {
  list(): WebhookView[]
  /** 404 (ControlError) for an unknown id. */
  get(id: string): WebhookView
  /** Body of `POST /__svc-mock/webhooks`: `{name, dataStructure, learning, secured, options, flow}`. */
  create(input: unknown): Promise<WebhookView>
  delete(id: string): boolean
  /** Part of a flow: `{active, queueCapacity, response, outcome, processingMs}`; activating runs the queue in order. */
  updateFlow(id: string, patch: unknown): Promise<WebhookView>
  /** Every run of the webhook's flow, in the order it ran them (file data as Buffers). */
  executions(id: string): Execution[]
  /** The first execution matching, recorded already or still to come; rejects after `timeout` ms of emulator time (default 30 000). */
  waitForExecution(id: string, predicate?: ExecutionPredicate, options?: { timeout?: number }): Promise<Execution>
}
// --- end webhooks ---

// --- dashboard (issue 6) ---
export interface UsersApi {
  /** The platform's users, each with the OAuth clients it consented to. */
  list(): UserInfo[]
}
// --- end dashboard ---

/** A credential worth printing at start-up (the defaults are public test values). */
export interface CredentialInfo {
  kind: string
  label: string
  value: string
}

export interface Emulator {
  readonly urls: EmulatorUrls
  readonly seed: number
  readonly clock: ClockApi
  readonly scenarios: ScenariosApi
  readonly journal: JournalApi
  readonly elements: ElementsApi
  readonly storages: StoragesApi
  readonly apiKeys: ApiKeysApi
  /** OAuth clients, user consents, and tokens minted without HTTP. */
  readonly oauth: OAuthApi
  readonly webhooks: WebhooksApi
  /** Users with their consents. */
  readonly users: UsersApi
  /**
   * Everything the dashboard shows, in one read: clock, scenarios, webhooks (flow as calls see it
   * now, queue, latest runs), OAuth clients (never secrets), users with their consents.
   */
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
  credentials(): CredentialInfo[]
  /** Back to the fixtures: store, queues, executions, scenarios (the start-up ones stay), clock, journal. */
  reset(): Promise<void>
  close(): Promise<void>
}

/** The emulator plus what only the adapters need. */
export interface EmulatorCore extends Emulator {
  readonly dispatcher: Dispatcher
  readonly logger: Logger
  /** Where each origin kind lives. */
  originOf(kind: OriginKind): string
  handleWith(request: Request, transport: Transport, signal?: AbortSignal): Promise<Response>
  /** Ends every live-event subscription (the server does this first when it closes, so open dashboards let go). */
  disconnect(): void
}
