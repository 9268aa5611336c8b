/**
 * A call a webhook accepted, as its flow's queue holds it: its place in the webhook's order, the
 * bundle, when it arrived, the flow settings scenarios gave it, and, once its run has ended, how
 * (a caller waiting on a webhook-response step is woken through `ended()`).
 */
import type { Bundle, FlowPatch, ResponseStep } from './model.js'

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

export class Call implements QueuedCall {
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
