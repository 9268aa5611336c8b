/**
 * The emulator's state at a glance: the clock, the scenario catalogue with what is on, every
 * webhook with its flow as calls see it now (scenarios applied), its queue and its latest runs,
 * the OAuth clients (never their secrets) and the users with their consents. It is what the
 * dashboard shows, read in one call (`emu.state()`, `GET /__svc-mock/state`) or pushed whenever
 * it changes (`emu.subscribe()`, `GET /__svc-mock/events`). Bundles appear as the journal shows
 * them: file bytes counted, credentials redacted.
 */
import type { ClientInfo } from './auth/oauth/clients.js'
import type { ConsentInfo } from './auth/oauth/consents.js'
import type { Permission } from './auth/permissions.js'
import type { ClockState } from './kernel/clock.js'
import type { ScenarioListing } from './kernel/scenarios/engine.js'
import { summarizeBundle } from './webhooks/bundle.js'
import type { WebhookView } from './webhooks/domain.js'
import type { Execution } from './webhooks/executions.js'
import type { FlowConfig } from './webhooks/model.js'

/** How many of a webhook's runs the state shows (the newest); all of them are at `…/executions`. */
export const RECENT_EXECUTIONS = 10

export interface UserInfo {
  id: string
  name: string
  email?: string
  permissions: Permission[]
  /** The OAuth clients this user consented to. */
  consents: ConsentInfo[]
}

/** A run of a flow as the state shows it: the bundle with file bytes counted and credentials redacted. */
export interface ExecutionSummary extends Omit<Execution, 'bundle'> {
  readonly bundle: unknown
}

/** What calls to a webhook meet right now, once the scenarios that are on have been applied. */
export interface WebhookEffect {
  /** The flow as a call arriving now sees it. */
  flow: FlowConfig
  /** A scenario makes the address answer 410 `Webhook not found.`. */
  gone: boolean
  /** The scenarios on that touch calls to this webhook. */
  scenarios: string[]
}

export interface WebhookState extends WebhookView {
  effective: WebhookEffect
  /** `count`: runs kept; `recent`: the newest runs, newest first. */
  executions: { count: number; recent: ExecutionSummary[] }
}

export interface EmulatorState {
  version: string
  clock: ClockState
  /** How many requests the journal keeps (the newest). */
  journalCapacity: number
  scenarios: ScenarioListing[]
  webhooks: WebhookState[]
  /** Never their secrets. */
  oauthClients: ClientInfo[]
  users: UserInfo[]
}

export interface StateSources {
  readonly version: string
  readonly journalCapacity: number
  clock(): ClockState
  scenarios(): ScenarioListing[]
  webhooks(): WebhookView[]
  executions(webhookId: string): Execution[]
  /** What calls to this webhook meet now, with the scenarios that are on. */
  effect(webhook: WebhookView): WebhookEffect
  oauthClients(): ClientInfo[]
  users(): UserInfo[]
}

export function buildState(sources: StateSources): EmulatorState {
  return {
    version: sources.version,
    clock: sources.clock(),
    journalCapacity: sources.journalCapacity,
    scenarios: sources.scenarios(),
    webhooks: sources.webhooks().map((view) => {
      const runs = sources.executions(view.id)
      return {
        ...view,
        effective: sources.effect(view),
        executions: { count: runs.length, recent: runs.slice(-RECENT_EXECUTIONS).reverse().map(summarize) },
      }
    }),
    oauthClients: sources.oauthClients(),
    users: sources.users(),
  }
}

function summarize(execution: Execution): ExecutionSummary {
  return { ...execution, bundle: summarizeBundle(execution.bundle) }
}
