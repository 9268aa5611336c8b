/**
 * The webhooks' part of the emulator's state (what the dashboard shows): every webhook with its
 * flow as calls meet it now (the scenarios that are on applied), its queue and its latest runs,
 * with bundles as the journal shows them (file bytes counted, credentials and secret fields
 * redacted).
 */
import type { Redactor } from '../kernel/redact.js'
import type { Execution } from './executions.js'
import type { FlowConfig } from './model.js'
import type { WebhookView } from './service.js'

/** How many of a webhook's runs the state shows (the newest); all of them are at `…/executions`. */
export const RECENT_EXECUTIONS = 10

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

export interface WebhooksState {
  webhooks: WebhookState[]
}

/** `redact` is the emulator's one redaction list: a bundle's secret fields are shown as the journal shows them. */
export function webhookState(view: WebhookView, effective: WebhookEffect, runs: readonly Execution[], redact: Redactor): WebhookState {
  return {
    ...view,
    effective,
    executions: {
      count: runs.length,
      recent: runs
        .slice(-RECENT_EXECUTIONS)
        .reverse()
        .map((run) => ({ ...run, bundle: redact.value(run.bundle) })),
    },
  }
}
