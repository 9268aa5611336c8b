/**
 * The emulator object a kernel is: its own part (addresses, clock, scenarios, journal, state, live
 * events, the route list, reset, close) merged with each domain's `api`, and what only the
 * adapters use (`serve`, `origins`, `disconnect`). kernel.ts makes it last, from the services and
 * the domains it has made.
 */
import { type ClockApi, type JournalApi, type ScenariosApi, clockApi, journalApi, scenariosApi } from './api.js'
import type { ChangeFeed } from './changes.js'
import type { Clock } from './clock.js'
import type { CredentialInfo, ExampleRequest } from './domain.js'
import type { Assembly } from './assembly.js'
import type { HttpError } from './errors.js'
import { type EmulatorEventListener, EventHub, type SubscribeOptions, type WatchedState } from './events.js'
import type { SeededIds } from './ids.js'
import type { Journal, Transport } from './journal.js'
import type { JsonObject } from './json.js'
import type { Logger } from './logger.js'
import type { Reply } from './reply.js'
import type { IncomingRequest } from './request.js'
import type { RouteDefinition, RouteDoc } from './route.js'
import type { ImportSummary, SavedStateDocument } from './saved.js'
import type { StateHost } from './saved-state/index.js'
import type { ScenarioEngine, ScenarioListing } from './scenarios/engine.js'
import type { Pipeline } from './serve.js'

/** The emulator's named addresses: each name's origin. */
export type Addresses = Readonly<Record<string, string>>

/** What the product is called in HAR files and the health answer. */
export interface Product {
  readonly name: string
  readonly version: string
}

/** Every route with its documentation, from which a document (OpenAPI) is made. */
export interface Documented {
  readonly routes: RouteDefinition[]
  readonly docs: Record<string, RouteDoc>
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
  /** Requests worth trying first, as the domains suggest them from what they loaded (the start-up banner's Try lines). */
  examples(): ExampleRequest[]
  /** The OpenAPI 3.1 document of every route, generated from the route registry (`GET /__svc-mock/openapi.json`). */
  openapi(): Promise<JsonObject>
  /**
   * Everything a reset would not give back, as one JSON document (docs/state.md): ids, clock,
   * scenarios on, and each domain's changes against the fixtures. One snapshot between two requests.
   */
  exportState(): Promise<SavedStateDocument>
  /**
   * Replaces the state with a saved one (a document, or its JSON text) in one step, and makes it
   * what a reset returns to. A document that cannot be loaded changes nothing: SavedStateError
   * names the member, SavedStateVersionError the svc-mock that wrote a newer format.
   */
  importState(document: SavedStateDocument | string): Promise<ImportSummary>
  /** Back to the fixtures (or to the state loaded last): store, queues, executions, scenarios (the start-up ones stay), clock, journal. */
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
  /**
   * Loads the writer of saved states, and answers what takes one, synchronously (a server writes
   * its teams' states inside its own document's snapshot).
   */
  stateSnapshotter(): Promise<() => SavedStateDocument>
}

/** A kernel: the emulator object, serving from the moment it exists. */
export type Kernel<State extends WatchedState, Targets extends object, Urls extends Addresses, Apis extends object> = KernelApi<State, Targets, Urls> & KernelTransport & Apis

/** What the emulator object is made from. */
export interface KernelParts<Urls extends Addresses> {
  readonly urls: Urls
  readonly seed: number
  readonly clock: Clock
  readonly logger: Logger
  readonly product: Product
  readonly journal: Journal
  readonly scenarios: ScenarioEngine
  readonly targetNames: ReadonlySet<string>
  readonly changes: ChangeFeed
  readonly ids: SeededIds
  readonly domains: Assembly
  /** The route table as it is now (built again when a domain's routes change). */
  readonly served: () => Pipeline
  /** Switches the scenarios a reset returns to on again (the start-up ones, or those of the state loaded last). */
  readonly restoreScenarios: () => void
  /** Makes the scenarios on now the ones `restoreScenarios` switches on. */
  readonly keepScenarios: () => void
  /** Every route served now, the fallback's included. */
  readonly allRoutes: () => readonly RouteDefinition[]
  /** Makes the OpenAPI document (loaded only when one is asked for). */
  readonly document: (documented: Documented) => Promise<JsonObject>
}

/** The emulator object: the kernel's part merged with each domain's `api`. */
export function kernelObject<State extends KernelState, Targets extends object, Urls extends Addresses, Apis extends object>(parts: KernelParts<Urls>): Kernel<State, Targets, Urls, Apis> {
  const { clock, urls, seed, logger, product, journal, scenarios, domains, served, changes, ids } = parts
  const changed = (): void => changes.notify()
  const state = (): State => ({ version: product.version, clock: clock.state(), journalCapacity: journal.capacity, scenarios: scenarios.list(), ...domains.state() }) as State
  const hub = new EventHub({ journal, changes, state })
  const routes = (): RouteDefinition[] => served().routes.map((r) => r.definition)
  const host: StateHost = {
    version: product.version,
    seed,
    urls,
    clock,
    ids,
    scenarios,
    journal,
    domains,
    routes: parts.allRoutes,
    scenarioBaseline: parts.keepScenarios,
    changed,
  }
  const kernel: KernelApi<State, Targets, Urls> & KernelTransport = {
    urls,
    seed,
    logger,
    clock: clockApi(clock, changed),
    scenarios: scenariosApi<Targets>(scenarios, parts.targetNames),
    journal: journalApi(journal, clock, () => served().routeIds(), product),
    state,
    subscribe: (listener, options) => hub.subscribe(listener, options),
    disconnect: (reason) => {
      hub.close()
      journal.endWaits(reason)
    },
    serve: (request, transport) => served().serve(request, transport),
    origins: () => served().origins(),
    health: () => ({ status: 'ok', version: product.version }),
    routes: () => routes().map(({ id, method, path, origin, summary }) => ({ id, method, path, origin, summary })),
    credentials: () => domains.credentials(),
    examples: () => domains.examples(),
    openapi: async () => parts.document({ routes: routes(), docs: await domains.docs() }),
    // The reader and writer of saved states load on first use.
    exportState: async () => (await import('./saved-state/index.js')).exportState(host),
    stateSnapshotter: async () => await (await import('./saved-state/index.js')).snapshotter(host),
    importState: async (document) => await (await import('./saved-state/index.js')).importState(host, document),
    reset: async () => {
      clock.reset()
      journal.clear()
      // Each domain's reset starts at once (a flow's queue empties synchronously), before the
      // scenarios go off: a scenario going off lets flows take up their queues again.
      const reset = domains.reset()
      parts.restoreScenarios()
      ids.reset()
      await reset
      changed()
    },
    close: async () => {
      await domains.close()
      hub.close()
      clock.close()
    },
  }
  return Object.assign(kernel, ...domains.apis()) as Kernel<State, Targets, Urls, Apis>
}
