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
import type { Clock, Task } from '../kernel/clock.js'
import { queueFull } from './wire.js'
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
  /** How the run ended; undefined until it has. */
  readonly result: RunResult | undefined
  /** A signal aborted once the run has ended (made on demand: most callers never wait). */
  ended(): AbortSignal
}

/** The reason `ended()` aborts with: a constant, so ending a run creates no DOMException. */
const RUN_ENDED = Object.freeze({ ended: true })

class Call implements QueuedCall {
  readonly seq: number
  readonly webhook: string
  readonly bundle: Bundle
  readonly receivedAt: number
  readonly overrides: FlowPatch
  result: RunResult | undefined
  #controller: AbortController | undefined

  constructor(seq: number, webhook: string, call: { bundle: Bundle; receivedAt: number; overrides: FlowPatch }) {
    this.seq = seq
    this.webhook = webhook
    this.bundle = call.bundle
    this.receivedAt = call.receivedAt
    this.overrides = call.overrides
  }

  ended(): AbortSignal {
    if (this.result !== undefined) return AbortSignal.abort(RUN_ENDED)
    this.#controller ??= new AbortController()
    return this.#controller.signal
  }

  end(result: RunResult): void {
    if (this.result !== undefined) return
    this.result = result
    this.#controller?.abort(RUN_ENDED)
  }
}

interface Queue {
  readonly calls: Call[]
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
  /** Told when a queue grows or shrinks, or a run is recorded (for watchers such as the dashboard). */
  readonly onChange?: () => void
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
    this.checkRoom(id, flow)
    const queue = this.#queue(id)
    const idle = flow.active && !queue.running && queue.calls.length === 0
    const queued = new Call(++queue.accepted, id, call)
    const effective: FlowConfig = { ...flow, ...call.overrides }
    if (idle && effective.processingMs === 0 && effective.outcome !== 'hang') {
      // Nothing waits and the run takes no time: run it now, without a worker.
      this.#finish(id, queued, effective, this.#deps.clock.now())
      return queued
    }
    queue.calls.push(queued)
    this.#deps.onChange?.()
    if (flow.active) this.resume(id)
    return queued
  }

  /** Throws 400 `Queue is full.` when a call could not join the queue now (any call: valid or not). */
  checkRoom(id: string, flow: FlowConfig): void {
    const queue = this.#queues.get(id)
    const waiting = queue?.calls.length ?? 0
    const idle = flow.active && !queue?.running && waiting === 0
    if (!idle && waiting >= flow.queueCapacity) throw queueFull()
  }

  /** Starts the webhook's worker unless it runs already; it stops when the flow is inactive or the queue empty. */
  resume(id: string): void {
    const queue = this.#queues.get(id)
    if (!queue || queue.running || queue.calls.length === 0) return
    queue.running = true
    const generation = this.#generation
    this.#deps.clock.track((task) => this.#drain(id, queue, generation, task)).catch((error: unknown) => this.#deps.onError(error))
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
    this.#deps.onChange?.()
  }

  /** Empties every queue; runs in progress stop without being recorded. */
  reset(): void {
    this.#generation++
    this.#queues = new Map()
    this.#deps.onChange?.()
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

  async #drain(id: string, queue: Queue, generation: number, task: Task): Promise<void> {
    try {
      for (;;) {
        // The check and `running = false` (finally) happen in one step: no call can slip between.
        if (generation !== this.#generation || this.#queues.get(id) !== queue) return
        const head = queue.calls[0]
        if (!head || !this.#active(id)) return
        queue.calls.shift()
        this.#deps.onChange?.()
        await this.#run(id, head, generation, task)
      }
    } finally {
      queue.running = false
    }
  }

  async #run(id: string, call: Call, generation: number, task: Task): Promise<void> {
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
      this.#deps.onChange?.()
      await task.waitUntil(startedAt + this.#deps.settings(id).responseTimeoutMs)
      call.end({ kind: 'hung' })
      return
    }
    if (flow.processingMs > 0) await task.waitUntil(startedAt + flow.processingMs)
    if (generation !== this.#generation) return
    if (!this.#deps.webhook(id)) {
      // Deleted while the run was going on: nothing to record; a waiting caller gets the failure.
      call.end({ kind: 'failed' })
      return
    }
    this.#finish(id, call, flow, startedAt)
  }

  /** Records a run that ended now (succeed or fail) and answers a caller waiting for it. */
  #finish(id: string, call: Call, flow: FlowConfig, startedAt: number): void {
    const now = this.#deps.clock.now()
    const ended = iso(now)
    this.#deps.executions.record({
      seq: call.seq,
      webhook: id,
      bundle: call.bundle,
      receivedAt: call.receivedAt === now ? ended : iso(call.receivedAt),
      startedAt: startedAt === now ? ended : iso(startedAt),
      processedAt: ended,
      outcome: flow.outcome,
    })
    this.#deps.onChange?.()
    if (flow.outcome === 'fail') call.end({ kind: 'failed' })
    else call.end(flow.response ? { kind: 'response', response: flow.response } : { kind: 'no-response' })
  }
}

/** The last time formatted: runs in a row mostly share their millisecond. */
let lastIso = { ms: Number.NaN, text: '' }

function iso(ms: number): string {
  if (lastIso.ms !== ms) lastIso = { ms, text: new Date(ms).toISOString() }
  return lastIso.text
}
