/**
 * Flows and their queues. Every accepted call joins its webhook's queue; one worker per webhook
 * takes calls from the head, one at a time, while the flow is active, so calls run exactly once,
 * in the order they were accepted, however many arrive at once. An inactive flow keeps its calls
 * until it is activated; a full queue refuses the call (400 `Queue is full.`).
 *
 * A run takes `processingMs` of emulator time and ends as the flow's `outcome` says: `succeed`
 * (a webhook-response step answers the waiting caller), `fail`, or `hang` (the run never ends: it
 * holds the flow until the response timeout has passed, then is abandoned so later calls can run).
 * Workers run inside `clock.track()`, so `clock.advance()` settles them.
 */
import type { Clock } from '../kernel/clock.js'
import { queueFull } from './errors.js'
import type { ExecutionLog } from './executions.js'
import type { Bundle, FlowConfig, FlowPatch, ResponseStep, WebhookRecord, WebhooksSettings } from './model.js'

/** How a run ended, for a caller waiting on a webhook-response step. */
export type RunResult =
  | { readonly kind: 'response'; readonly response: ResponseStep }
  | { readonly kind: 'no-response' }
  | { readonly kind: 'failed' }
  | { readonly kind: 'hung' }

export interface QueuedCall {
  readonly seq: number
  readonly webhook: string
  readonly bundle: Bundle
  /** Emulator time the call arrived. */
  readonly receivedAt: number
  /** Flow settings the scenarios gave this call when it arrived (outcome, processingMs, response). */
  readonly overrides: FlowPatch
  /** Aborted when the run has ended; `result` then says how. */
  readonly ended: AbortSignal
  result: RunResult | undefined
}

interface Queue {
  readonly calls: Array<QueuedCall & { end: (result: RunResult) => void }>
  running: boolean
  accepted: number
}

export interface FlowDeps {
  readonly clock: Clock
  readonly executions: ExecutionLog
  readonly webhook: (id: string) => WebhookRecord | undefined
  /** The webhooks settings in effect for a webhook outside any request (base + scenarios on now). */
  readonly settings: (id: string) => WebhooksSettings
  readonly onError: (error: unknown) => void
}

export class FlowRunner {
  readonly #deps: FlowDeps
  #queues = new Map<string, Queue>()
  #generation = 0

  constructor(deps: FlowDeps) {
    this.#deps = deps
  }

  /** Calls waiting in the webhook's queue (the one running, if any, not counted). */
  length(id: string): number {
    return this.#queues.get(id)?.calls.length ?? 0
  }

  /**
   * Accepts a call into the queue, or refuses it with 400 `Queue is full.` when `flow.queueCapacity`
   * calls already wait (an active flow with nothing to do takes the call at once, whatever the
   * capacity). Starts the worker when `flow` (as this call saw it) is active.
   */
  admit(id: string, flow: FlowConfig, call: { bundle: Bundle; receivedAt: number; overrides: FlowPatch }): QueuedCall {
    const queue = this.#queue(id)
    const idle = flow.active && !queue.running && queue.calls.length === 0
    if (!idle && queue.calls.length >= flow.queueCapacity) throw queueFull()
    const ended = new AbortController()
    const queued: QueuedCall & { end: (result: RunResult) => void } = {
      seq: ++queue.accepted,
      webhook: id,
      ...call,
      ended: ended.signal,
      result: undefined,
      end(result) {
        if (queued.result !== undefined) return
        queued.result = result
        ended.abort()
      },
    }
    queue.calls.push(queued)
    if (flow.active) this.resume(id)
    return queued
  }

  /** Starts the webhook's worker unless it runs already; it stops when the flow is inactive or the queue empty. */
  resume(id: string): void {
    const queue = this.#queues.get(id)
    if (!queue || queue.running || queue.calls.length === 0) return
    queue.running = true
    const generation = this.#generation
    this.#deps.clock.track(() => this.#drain(id, queue, generation)).catch((error: unknown) => this.#deps.onError(error))
  }

  /** Resumes every webhook with calls waiting (a scenario that made flows inactive went off). */
  resumeAll(): void {
    for (const id of this.#queues.keys()) this.resume(id)
  }

  /** Forgets a deleted webhook's queue; callers still waiting for a response get the failure answer. */
  drop(id: string): void {
    const queue = this.#queues.get(id)
    this.#queues.delete(id)
    for (const call of queue?.calls ?? []) call.end({ kind: 'failed' })
  }

  /** Empties every queue; runs in progress stop without being recorded. */
  reset(): void {
    this.#generation++
    this.#queues = new Map()
  }

  #queue(id: string): Queue {
    let queue = this.#queues.get(id)
    if (!queue) {
      queue = { calls: [], running: false, accepted: 0 }
      this.#queues.set(id, queue)
    }
    return queue
  }

  #active(id: string): boolean {
    const record = this.#deps.webhook(id)
    if (!record) return false
    const settings = this.#deps.settings(id)
    return !settings.gone && (settings.flow.active ?? record.flow.active)
  }

  async #drain(id: string, queue: Queue, generation: number): Promise<void> {
    try {
      for (;;) {
        // The check and `running = false` (finally) happen in one step: no call can slip between.
        if (generation !== this.#generation || this.#queues.get(id) !== queue) return
        const head = queue.calls[0]
        if (!head || !this.#active(id)) return
        queue.calls.shift()
        await this.#run(id, head, generation)
      }
    } finally {
      queue.running = false
    }
  }

  async #run(id: string, call: QueuedCall & { end: (result: RunResult) => void }, generation: number): Promise<void> {
    const { clock, executions } = this.#deps
    const record = this.#deps.webhook(id)
    if (!record) {
      call.end({ kind: 'failed' })
      return
    }
    const flow: FlowConfig = { ...record.flow, ...call.overrides }
    const startedAt = clock.now()
    const base = { seq: call.seq, webhook: id, bundle: call.bundle, receivedAt: iso(call.receivedAt), startedAt: iso(startedAt) }
    if (flow.outcome === 'hang') {
      executions.record({ ...base, processedAt: null, outcome: 'hang' })
      await clock.waitUntil(startedAt + this.#deps.settings(id).responseTimeoutMs)
      call.end({ kind: 'hung' })
      return
    }
    if (flow.processingMs > 0) await clock.waitUntil(startedAt + flow.processingMs)
    if (generation !== this.#generation) return
    executions.record({ ...base, processedAt: iso(clock.now()), outcome: flow.outcome })
    if (flow.outcome === 'fail') call.end({ kind: 'failed' })
    else call.end(flow.response ? { kind: 'response', response: flow.response } : { kind: 'no-response' })
  }
}

function iso(ms: number): string {
  return new Date(ms).toISOString()
}
