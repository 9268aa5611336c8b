/**
 * Live events for watchers such as the dashboard (`emu.subscribe()`, `GET /__svc-mock/events`).
 * A subscriber first gets the whole state and the newest journal entries, then, as things happen:
 * each new journal entry, the state again whenever it differs from the last one it got, and
 * `journal-cleared` when the journal is emptied (a reset).
 *
 * Changes are coalesced per turn of the event loop, so a burst of 200 webhook calls costs one
 * state read and a few events, not 200. Nothing is read or built while nobody listens. Time
 * passing on a real clock is not a change: the state carries `clock.now` and `timeScale`, and a
 * watcher moves its own display forward.
 */
import type { ChangeFeed } from './changes.js'
import type { ClockState } from './clock.js'
import { ConfigError } from './errors.js'
import type { Journal, JournalEntry } from './journal.js'

/** What every state carries: a real clock's `now` moves by itself, so it is not a change. */
export interface WatchedState {
  readonly clock: ClockState
}

export type EmulatorEvent<State extends WatchedState = WatchedState> =
  | { type: 'state'; state: State }
  /** New journal entries, oldest first (the first event carries the backlog, possibly empty). */
  | { type: 'journal'; entries: JournalEntry[] }
  | { type: 'journal-cleared' }
  /** The emulator is closing: no more events. */
  | { type: 'closed' }

export type EmulatorEventListener<State extends WatchedState = WatchedState> = (event: EmulatorEvent<State>) => void

export interface SubscribeOptions {
  /** How many of the newest journal entries the first `journal` event carries. Default 200; 0 for none. */
  journal?: number
}

export const DEFAULT_JOURNAL_BACKLOG = 200

interface Subscriber<State extends WatchedState> {
  readonly listener: EmulatorEventListener<State>
  pending: JournalEntry[]
  cleared: boolean
  /** The last state it was sent, as compared (see `compareKey`). */
  lastKey: string
}

export interface EventHubDeps<State extends WatchedState> {
  readonly journal: Journal
  readonly changes: ChangeFeed
  readonly state: () => State
}

export class EventHub<State extends WatchedState> {
  readonly #deps: EventHubDeps<State>
  #subscribers = new Set<Subscriber<State>>()
  #stop: Array<() => void> = []
  #dirty = false
  #scheduled = false

  constructor(deps: EventHubDeps<State>) {
    this.#deps = deps
  }

  /**
   * Calls `listener` with every event from now on; the first two (`state`, then `journal` unless
   * `journal: 0`) arrive before this returns. Returns the function that stops it. A listener that
   * throws is unsubscribed.
   */
  subscribe(listener: EmulatorEventListener<State>, options: SubscribeOptions = {}): () => void {
    const backlog = options.journal ?? DEFAULT_JOURNAL_BACKLOG
    if (!Number.isInteger(backlog) || backlog < 0) throw new ConfigError('journal', `must be a whole number of entries >= 0, got ${String(backlog)}`)
    if (this.#subscribers.size === 0) this.#start()
    const state = this.#deps.state()
    const subscriber: Subscriber<State> = { listener, pending: [], cleared: false, lastKey: compareKey(state) }
    this.#subscribers.add(subscriber)
    this.#send(subscriber, { type: 'state', state })
    if (backlog > 0) this.#send(subscriber, { type: 'journal', entries: this.#deps.journal.list({ limit: backlog }) })
    return () => this.#remove(subscriber)
  }

  /** How many subscribers listen now. */
  get size(): number {
    return this.#subscribers.size
  }

  /** Ends every subscription with a `closed` event. */
  close(): void {
    for (const subscriber of [...this.#subscribers]) {
      this.#remove(subscriber)
      try {
        subscriber.listener({ type: 'closed' })
      } catch {
        // It is gone either way.
      }
    }
  }

  #start(): void {
    this.#stop = [
      this.#deps.journal.subscribe({
        entry: (entry) => {
          for (const subscriber of this.#subscribers) subscriber.pending.push(entry)
          // A request may have changed what the state shows (a consent, a queue, a scenario's `times`).
          this.#dirty = true
          this.#schedule()
        },
        cleared: () => {
          for (const subscriber of this.#subscribers) {
            subscriber.pending = []
            subscriber.cleared = true
          }
          this.#schedule()
        },
      }),
      this.#deps.changes.subscribe(() => {
        this.#dirty = true
        this.#schedule()
      }),
    ]
  }

  #remove(subscriber: Subscriber<State>): void {
    if (!this.#subscribers.delete(subscriber)) return
    if (this.#subscribers.size > 0) return
    for (const stop of this.#stop) stop()
    this.#stop = []
    this.#dirty = false
  }

  #schedule(): void {
    if (this.#scheduled) return
    this.#scheduled = true
    setImmediate(() => this.#flush())
  }

  #flush(): void {
    this.#scheduled = false
    const state = this.#dirty && this.#subscribers.size > 0 ? this.#deps.state() : undefined
    this.#dirty = false
    const key = state === undefined ? undefined : compareKey(state)
    for (const subscriber of [...this.#subscribers]) {
      if (subscriber.cleared) {
        subscriber.cleared = false
        this.#send(subscriber, { type: 'journal-cleared' })
      }
      if (subscriber.pending.length > 0) {
        const entries = subscriber.pending
        subscriber.pending = []
        this.#send(subscriber, { type: 'journal', entries })
      }
      if (state !== undefined && key !== undefined && key !== subscriber.lastKey) {
        subscriber.lastKey = key
        this.#send(subscriber, { type: 'state', state })
      }
    }
  }

  #send(subscriber: Subscriber<State>, event: EmulatorEvent<State>): void {
    if (!this.#subscribers.has(subscriber)) return
    try {
      subscriber.listener(event)
    } catch {
      this.#remove(subscriber)
    }
  }
}

/** The state as compared for changes: on a real clock `now` moves by itself, so it does not count. */
function compareKey(state: WatchedState): string {
  if (state.clock.mode !== 'real') return JSON.stringify(state)
  return JSON.stringify({ ...state, clock: { ...state.clock, now: '' } })
}
