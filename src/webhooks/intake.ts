/**
 * The intake: one call to `{webhook_url}` from arrival to answer. In order: the address (410),
 * the credential of a webhook secured for public use (401), a full queue (400 `Queue is full.`,
 * for any call), the body (400 when it cannot be read; 413 past 5 MB, decided by the pipeline and the body),
 * the bundle, learning and validation against the data structure (400; not for a JSON body under
 * JSON pass-through, which is not parsed), then the answer: 200 `Accepted` at once, or,
 * when the flow has a webhook-response step and is active, whatever the run answers, or 500 when
 * it has not answered 40 s (emulator time) after the call arrived.
 */
import type { AccessRequirement, Identity } from '../auth/index.js'
import type { Clock } from '../kernel/clock.js'
import type { Reply } from '../kernel/reply.js'
import type { RequestContext } from '../kernel/route.js'
import { readSection } from '../kernel/settings.js'
import { buildBundle } from './bundle.js'
import {
  AUTHENTICATED_HEADER,
  CALL_METHODS,
  accepted,
  flowFailed,
  methodNotAllowed,
  respond,
  timedOut,
  validationFailed,
  webhookGone,
} from './wire.js'
import type { FlowRunner, RunResult } from './flow.js'
import { type DataStructure, type Field, type FlowConfig, type WebhookRecord, type WebhooksSettings, webhookSchemas } from './model.js'
import { readPayload } from './payload.js'
import type { WebhookStore } from './store.js'
import { learnStructure, validateBundle } from './structure.js'
import { parseUrlencoded } from './urlencoded.js'

export interface IntakeDeps {
  readonly clock: Clock
  readonly store: WebhookStore
  readonly runner: FlowRunner
  readonly onError: (error: unknown) => void
}

/** The webhook a call is addressed to: 405 for a method webhooks do not take, 410 for an address that is gone. */
function addressed(ctx: RequestContext, store: WebhookStore): { webhook: WebhookRecord; settings: WebhooksSettings } {
  if (!(CALL_METHODS as readonly string[]).includes(ctx.method)) throw methodNotAllowed(ctx.method)
  const settings = readSection(ctx.settings, 'webhooks', webhookSchemas().WebhooksSettings)
  const webhook = settings.gone ? undefined : store.get(ctx.params.token ?? '')
  if (!webhook) throw webhookGone()
  return { webhook, settings }
}

/**
 * What a call needs of the gate: any valid credential for a webhook secured for public use (its
 * rate limit included; no permission), nothing for any other. The method (405) and the address
 * (410) are refused before a credential is looked at.
 */
export function callRequirement(store: () => WebhookStore): (ctx: RequestContext) => AccessRequirement | 'none' {
  return (ctx) => (addressed(ctx, store()).webhook.secured ? {} : 'none')
}

/** A call the gate let through (`callRequirement`): `caller` is who called a secured webhook. */
export async function receive(ctx: RequestContext, caller: Identity | undefined, deps: IntakeDeps): Promise<Reply> {
  const method = ctx.method
  const { webhook, settings } = addressed(ctx, deps.store)
  const id = ctx.params.token ?? ''
  if (caller) ctx.responseHeaders.set(AUTHENTICATED_HEADER, 'true')
  // A full queue refuses any call, valid or not, before its body is read.
  deps.runner.checkRoom(id, { ...webhook.flow, ...settings.flow })

  const payload = await readPayload(ctx, webhook.options.jsonPassThrough)
  const query = parseUrlencoded(ctx.url.search.slice(1), undefined, 'The query string')
  let bundle = buildBundle({ method, headers: ctx.headers, query, payload, options: webhook.options, authenticated: caller !== undefined })
  // The journal shows the bundle as the redactor renders it when read (files as their size).
  ctx.journalBody = bundle

  // Read again: the webhook may have learnt its structure, or gone, while the body streamed in.
  let current = deps.store.get(id)
  if (!current) throw webhookGone()
  // JSON pass-through: the body is not parsed, so the data structure is neither learnt nor applied.
  const unparsed = payload.kind === 'json-text'
  // Learning mode: the call teaches the structure, kept only once the call is accepted (a sample
  // its own structure refuses, such as `[1e400]`, teaches nothing).
  const learning = current.learning && !unparsed
  if (learning) current = { ...current, learning: false, dataStructure: learnStructure(bundle) }
  const structure = unparsed ? null : withExtraFields(current.dataStructure, settings.extraFields)
  if (structure) {
    const validation = validateBundle(structure, bundle)
    if (!validation.ok) throw validationFailed(validation.problems)
    bundle = validation.bundle
  }

  const flow: FlowConfig = { ...current.flow, ...settings.flow }
  const call = deps.runner.admit(id, flow, { bundle, receivedAt: ctx.receivedAt, overrides: settings.flow })
  if (learning) learn(deps, current)
  if (!flow.active || flow.response === null) return accepted()

  // A webhook-response step: the caller waits for the run, parked on the clock until it ends.
  try {
    await ctx.delay(settings.responseTimeoutMs, call.ended())
  } catch {
    // the run ended, or the caller went away
  }
  if (call.result === undefined && ctx.signal.aborted) throw new Error('the caller went away while waiting for the flow')
  return answer(call.result)
}

/** Keeps what the call taught; a record the store refuses is logged, and the call stays accepted. */
function learn(deps: IntakeDeps, record: WebhookRecord): void {
  try {
    deps.store.put(record)
  } catch (error) {
    deps.onError(error)
  }
}

function answer(result: RunResult | undefined): Reply {
  switch (result?.kind) {
    case 'response':
      return respond(result.response)
    case 'no-response':
      return accepted()
    case 'failed':
      return flowFailed()
    case 'hung':
    case undefined:
      return timedOut()
  }
}

/** The webhook's structure with the settings' extra fields (which replace fields of the same name). */
function withExtraFields(structure: DataStructure | null, extra: readonly Field[]): DataStructure | null {
  if (extra.length === 0) return structure
  const names = new Set(extra.map((field) => field.name))
  return [...(structure ?? []).filter((field) => !names.has(field.name)), ...extra]
}

