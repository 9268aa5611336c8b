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
import { Call, type QueuedCall } from './call.js'
import type { ExecutionLog } from './executions.js'
import type { Bundle, FlowConfig, FlowPatch, WebhookRecord, WebhooksSettings } from './model.js'

export type { QueuedCall, RunResult } from './call.js'

/** A call as a saved state holds it. */
export interface SavedCall {
  readonly seq: number
  readonly bundle: Bundle
  /** Emulator time it arrived, epoch ms. */
  readonly receivedAt: number
  readonly overrides: FlowPatch
}

/** A run going on: its call, when it started (emulator time, epoch ms) and the flow it runs with. */
export interface Running<C = Call> {
  readonly call: C
  readonly startedAt: number
  readonly flow: FlowConfig
}

/** A webhook's queue as a saved state holds it. */
export interface SavedQueue {
  readonly webhook: string
  /** Calls accepted so far (the next one is numbered after them). */
  readonly accepted: number
  /** Calls waiting, in order. */
  readonly calls: readonly SavedCall[]
  /** The run going on when saved: it goes on from where it was (a hang still holds the flow). */
  readonly running: Running<SavedCall> | null
}

interface Queue {
  readonly calls: Call[]
  running: boolean
  accepted: number
  /** The run going on. */
  current: Running | undefined
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
  /** The queues a reset returns to (a saved state's; none until one is loaded). */
  #baseline: readonly SavedQueue[] = []

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

  /** Empties every queue (or returns to the saved state's queues); runs in progress stop without being recorded. */
  reset(): void {
    this.#generation++
    this.#queues = new Map()
    for (const saved of this.#baseline) {
      const call = (c: SavedCall): Call => new Call(c.seq, saved.webhook, c)
      this.#queues.set(saved.webhook, { calls: saved.calls.map(call), running: false, accepted: saved.accepted, current: undefined })
    }
    for (const saved of this.#baseline) {
      const queue = this.#queues.get(saved.webhook)
      if (queue && saved.running) {
        queue.running = true
        const running = { ...saved.running, call: new Call(saved.running.call.seq, saved.webhook, saved.running.call) }
        const generation = this.#generation
        this.#deps.clock.track((task) => this.#drain(saved.webhook, queue, generation, task, running)).catch((error: unknown) => this.#deps.onError(error))
      } else this.resume(saved.webhook)
    }
    this.#deps.onChange?.()
  }

  /** Every queue that holds something, as a saved state holds it. */
  saved(): SavedQueue[] {
    const out: SavedQueue[] = []
    for (const [webhook, queue] of this.#queues) {
      if (queue.accepted === 0 && queue.calls.length === 0 && queue.current === undefined) continue
      const current = queue.current
      out.push({ webhook, accepted: queue.accepted, calls: queue.calls.map(savedCall), running: current === undefined ? null : { ...current, call: savedCall(current.call) } })
    }
    return out
  }

  /** Holds these queues (their runs going on from where they were), and a reset returns to them. */
  restore(queues: readonly SavedQueue[]): void {
    this.#baseline = queues
    this.reset()
  }

  #queue(id: string): Queue {
    let queue = this.#queues.get(id)
    if (!queue) {
      queue = { calls: [], running: false, accepted: 0, current: undefined }
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

  async #drain(id: string, queue: Queue, generation: number, task: Task, resumed?: Running): Promise<void> {
    try {
      if (resumed) await this.#run(id, queue, resumed.call, generation, task, resumed)
      for (;;) {
        // The check and `running = false` (finally) happen in one step: no call can slip between.
        if (generation !== this.#generation || this.#queues.get(id) !== queue) return
        const head = queue.calls[0]
        if (!head || !this.#active(id)) return
        queue.calls.shift()
        this.#deps.onChange?.()
        await this.#run(id, queue, head, generation, task)
      }
    } finally {
      queue.running = false
    }
  }

  /** Runs a call; `resumed`: a run a saved state held, going on from where it was. */
  async #run(id: string, queue: Queue, call: Call, generation: number, task: Task, resumed?: Running): Promise<void> {
    try {
      await this.#runCall(id, queue, call, generation, task, resumed)
    } finally {
      if (queue.current?.call === call) queue.current = undefined
    }
  }

  async #runCall(id: string, queue: Queue, call: Call, generation: number, task: Task, resumed: Running | undefined): Promise<void> {
    const { clock, executions } = this.#deps
    const record = this.#deps.webhook(id)
    if (!record) {
      call.end({ kind: 'failed' })
      return
    }
    const flow: FlowConfig = resumed?.flow ?? { ...record.flow, ...call.overrides }
    const startedAt = resumed?.startedAt ?? clock.now()
    queue.current = { call, startedAt, flow }
    if (flow.outcome === 'hang') {
      // A resumed hang was recorded when it began.
      if (!resumed) executions.record({ seq: call.seq, webhook: id, bundle: call.bundle, receivedAt: iso(call.receivedAt), startedAt: iso(startedAt), processedAt: null, outcome: 'hang' })
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

function savedCall(call: Call): SavedCall {
  return { seq: call.seq, bundle: call.bundle, receivedAt: call.receivedAt, overrides: call.overrides }
}
