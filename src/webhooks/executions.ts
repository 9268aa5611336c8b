/**
 * Executions: every run of a webhook's flow, in the order the flow ran them, with the bundle it
 * received, when the call arrived, when the run started and ended, and how it ended. Tests read
 * them (`emu.webhooks.executions(id)`, `GET /__svc-mock/webhooks/{id}/executions`) or wait for one
 * (`waitForExecution`, with a timeout on the emulator clock).
 */
import type { Clock } from '../kernel/clock.js'
import { SvcMockError } from '../kernel/errors.js'
import type { Bundle, FlowOutcome } from './model.js'

export interface Execution {
  /** The call's place in the order the webhook accepted calls (1, 2, …). */
  readonly seq: number
  readonly webhook: string
  /** What the flow received (file data as Buffers in-process, base64 in JSON). */
  readonly bundle: Bundle
  /** Emulator time the call arrived, ISO 8601. */
  readonly receivedAt: string
  /** When the flow started the run. */
  readonly startedAt: string
  /** When the run ended; null for a run that hung (it never ends). */
  readonly processedAt: string | null
  readonly outcome: FlowOutcome
}

export type ExecutionPredicate = (execution: Execution) => boolean

/** `waitForExecution` found no matching execution in time. */
export class ExecutionTimeoutError extends SvcMockError<'ERR_EXECUTION_TIMEOUT'> {
  readonly code = 'ERR_EXECUTION_TIMEOUT'
  readonly webhook: string
  readonly timeoutMs: number
  constructor(webhook: string, timeoutMs: number) {
    super(`No matching execution of webhook "${webhook}" within ${timeoutMs} ms of emulator time.`)
    this.webhook = webhook
    this.timeoutMs = timeoutMs
  }
}

interface Waiter {
  readonly webhook: string
  readonly predicate: ExecutionPredicate
  readonly resolve: (execution: Execution) => void
}

export class ExecutionLog {
  readonly #clock: Clock
  /** How many executions each webhook keeps (read when recording: the run's settings say). */
  readonly #kept: () => number
  #byWebhook = new Map<string, Execution[]>()
  readonly #waiters = new Set<Waiter>()
  /** The executions a reset returns to (a saved state's; none until one is loaded). */
  #baseline: readonly Execution[] = []

  constructor(clock: Clock, kept: () => number) {
    this.#clock = clock
    this.#kept = kept
  }

  record(execution: Execution): void {
    const list = this.#byWebhook.get(execution.webhook)
    if (!list) this.#byWebhook.set(execution.webhook, [execution])
    else {
      list.push(execution)
      // Trimmed in batches of an eighth of N, so keeping the newest N costs O(1) per run, not a
      // shift of N, and holds at most an eighth more.
      const kept = this.#kept()
      if (list.length >= kept + Math.ceil(kept / 8)) list.splice(0, list.length - kept)
    }
    for (const waiter of this.#waiters) {
      if (waiter.webhook === execution.webhook && waiter.predicate(execution)) {
        this.#waiters.delete(waiter)
        waiter.resolve(execution)
      }
    }
  }

  list(webhook: string): Execution[] {
    const list = this.#byWebhook.get(webhook) ?? []
    return list.slice(Math.max(0, list.length - this.#kept()))
  }

  /**
   * The first execution matching, already recorded or still to come; rejects after `timeoutMs`.
   * The rejection comes while the test is moving the clock, before it has had a chance to await
   * the promise: it is marked handled here, so it never surfaces as an unhandled rejection (the
   * caller's own await or `.rejects` still sees it).
   */
  wait(webhook: string, predicate: ExecutionPredicate, timeoutMs: number): Promise<Execution> {
    const found = this.list(webhook).find(predicate)
    if (found) return Promise.resolve(found)
    const waiting = new Promise<Execution>((resolve, reject) => {
      const timer = new AbortController()
      const waiter: Waiter = {
        webhook,
        predicate,
        resolve: (execution) => {
          timer.abort()
          resolve(execution)
        },
      }
      this.#waiters.add(waiter)
      this.#clock.sleep(timeoutMs, timer.signal).then(
        () => {
          if (!this.#waiters.delete(waiter)) return
          reject(new ExecutionTimeoutError(webhook, timeoutMs))
        },
        () => undefined,
      )
    })
    waiting.catch(() => undefined)
    return waiting
  }

  drop(webhook: string): void {
    this.#byWebhook.delete(webhook)
  }

  /** Every execution kept, webhook by webhook, each webhook's in the order its flow ran them. */
  saved(): Execution[] {
    return [...this.#byWebhook.keys()].flatMap((webhook) => this.list(webhook))
  }

  /** Holds these executions, and a reset returns to them. */
  restore(executions: readonly Execution[]): void {
    this.#baseline = executions
    this.reset()
  }

  /** No executions (or the saved state's). */
  reset(): void {
    this.#byWebhook = new Map()
    for (const execution of this.#baseline) {
      const list = this.#byWebhook.get(execution.webhook)
      if (list) list.push(execution)
      else this.#byWebhook.set(execution.webhook, [execution])
    }
  }
}
