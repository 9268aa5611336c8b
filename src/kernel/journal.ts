/**
 * The request journal: every request the emulator answered, newest last, in a bounded ring (the
 * oldest entries drop out). It keeps each exchange's record as the pipeline handed it and builds
 * the redacted entry (journal-entry.ts) the first time someone reads it, so recording costs a
 * request little and secrets never leave it.
 */
import type { Clock } from './clock.js'
import { DEFAULT_WAIT_MS, JOURNAL_BODY_LIMIT } from './constants.js'
import { type JournalEntry, type JournalRecord, entryOf, requestLineOf } from './journal-entry.js'
import type { RequestLine } from './logger.js'
import type { Redactor } from './redact.js'
import { Ring } from './ring.js'
import { routeMatches } from './route.js'

export type { JournalEntry, JournalRecord, Transport } from './journal-entry.js'

export interface JournalFilter {
  /** A route id, or a prefix ending in `*` (`webhooks.*`). */
  route?: string
  method?: string
  status?: number
  /** Only entries with a `seq` above this. */
  since?: number
  /** At most this many, the newest. */
  limit?: number
}

export interface JournalWaitOptions {
  /** Emulator milliseconds to wait before giving up (resolves undefined). Default 30 000. */
  timeoutMs?: number
  signal?: AbortSignal
}

/** Told of every entry as it is recorded (already redacted), and when the journal is emptied. */
export interface JournalListener {
  entry(entry: JournalEntry): void
  cleared(): void
}

interface Stored {
  readonly seq: number
  readonly record: JournalRecord
  entry: JournalEntry | undefined
}

interface Waiter {
  filter: JournalFilter
  resolve: (entry: JournalEntry) => void
  reject: (reason: Error) => void
}

export class Journal {
  readonly capacity: number
  readonly #ring: Ring<Stored>
  #seq = 0
  #waiters = new Set<Waiter>()
  /** Why waits end at once from now on (the emulator is closing), once `endWaits()` has said. */
  #ended: Error | undefined
  #listeners = new Set<JournalListener>()
  readonly #clock: Clock
  readonly #redact: Redactor

  constructor(clock: Clock, redact: Redactor, capacity: number) {
    this.#clock = clock
    this.#redact = redact
    this.capacity = capacity
    this.#ring = new Ring(capacity)
  }

  /** Stores one exchange; returns its sequence number. */
  record(record: JournalRecord): number {
    // A large body is not kept (the entry would not show it), so the ring holds no uploads.
    const bytes = record.requestBytes
    const kept = bytes !== undefined && bytes.byteLength > JOURNAL_BODY_LIMIT ? { ...record, requestBytes: undefined } : record
    const stored: Stored = { seq: ++this.#seq, record: kept, entry: undefined }
    this.#ring.push(stored)
    for (const waiter of this.#waiters) {
      if (matches(stored, waiter.filter)) {
        this.#waiters.delete(waiter)
        waiter.resolve(this.#entry(stored))
      }
    }
    if (this.#listeners.size > 0) {
      const entry = this.#entry(stored)
      for (const listener of this.#listeners) listener.entry(entry)
    }
    return stored.seq
  }

  /** A record's log line, redacted as its entry would be, without building the entry. */
  line(record: JournalRecord): RequestLine {
    return requestLineOf(record, this.#redact)
  }

  /**
   * Tells `listener` of each entry recorded from now on, and of `clear()`; returns the function
   * that stops it. Entries are built (and redacted) only while someone listens.
   */
  subscribe(listener: JournalListener): () => void {
    this.#listeners.add(listener)
    return () => {
      this.#listeners.delete(listener)
    }
  }

  /** The entry with this sequence number, if the ring still holds it. */
  get(seq: number): JournalEntry | undefined {
    const first = this.#ring.at(0)
    const stored = first ? this.#ring.at(seq - first.seq) : undefined
    return stored?.seq === seq ? this.#entry(stored) : undefined
  }

  list(filter: JournalFilter = {}): JournalEntry[] {
    const found = this.#ring.filter((stored) => matches(stored, filter))
    const newest = filter.limit === undefined ? found : found.slice(Math.max(0, found.length - filter.limit))
    return newest.map((stored) => this.#entry(stored))
  }

  /**
   * Resolves with the first entry matching `filter`: one already recorded when `filter.since` is
   * given, otherwise the next one to arrive. Resolves undefined after `timeoutMs` of emulator time
   * (waited with `sleep`: a tracked caller passes its task's wait, so the wait counts as parked).
   * Rejects with the reason `endWaits()` was given, at once, once the emulator is closing.
   */
  async wait(filter: JournalFilter = {}, options: JournalWaitOptions = {}, sleep: (ms: number, signal: AbortSignal) => Promise<void> = (ms, signal) => this.#clock.sleep(ms, signal)): Promise<JournalEntry | undefined> {
    if (filter.since !== undefined) {
      const first = this.#ring.find((stored) => matches(stored, filter))
      if (first) return this.#entry(first)
    }
    if (this.#ended) throw this.#ended
    const timeout = new AbortController()
    const onAbort = (): void => timeout.abort()
    options.signal?.addEventListener('abort', onAbort, { once: true })
    try {
      return await new Promise<JournalEntry | undefined>((resolve, reject) => {
        const waiter: Waiter = {
          filter,
          resolve: (entry) => {
            timeout.abort()
            resolve(entry)
          },
          reject: (reason) => {
            timeout.abort()
            reject(reason)
          },
        }
        this.#waiters.add(waiter)
        sleep(options.timeoutMs ?? DEFAULT_WAIT_MS, timeout.signal).then(
          () => {
            this.#waiters.delete(waiter)
            resolve(undefined)
          },
          () => {
            this.#waiters.delete(waiter)
            resolve(undefined)
          },
        )
      })
    } finally {
      options.signal?.removeEventListener('abort', onAbort)
    }
  }

  /**
   * Ends every pending wait, and every wait to come, with `reason` (the emulator is closing: a
   * long poll gets that answer at once instead of holding its connection open).
   */
  endWaits(reason: Error): void {
    this.#ended = reason
    for (const waiter of [...this.#waiters]) {
      this.#waiters.delete(waiter)
      waiter.reject(reason)
    }
  }

  /** Empties the journal (sequence numbers keep counting). */
  clear(): void {
    this.#ring.clear()
    for (const listener of this.#listeners) listener.cleared()
  }

  /** The redacted entry of a stored exchange, built once. */
  #entry(stored: Stored): JournalEntry {
    return (stored.entry ??= entryOf(stored.seq, stored.record, this.#redact))
  }
}

function matches(stored: Stored, filter: JournalFilter): boolean {
  const { record } = stored
  if (filter.since !== undefined && stored.seq <= filter.since) return false
  if (filter.method !== undefined && record.method !== filter.method.toUpperCase()) return false
  if (filter.status !== undefined && record.status !== filter.status) return false
  if (filter.route !== undefined && !routeMatches(filter.route, record.route)) return false
  return true
}
