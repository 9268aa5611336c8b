/**
 * The request journal: every request the emulator answered, newest last, in a bounded ring (the
 * oldest entries drop out). Secrets never enter it: Authorization values, client secrets, codes
 * and tokens are redacted before an entry is stored.
 */
import type { Clock } from './clock.js'

export interface JournalEntry {
  /** Increases by one per entry, across the whole run; use it as `since` to wait for newer ones. */
  readonly seq: number
  /** Emulator time the request arrived, ISO 8601. */
  readonly time: string
  /** Route id (`versions.list`), or `unmatched`. */
  readonly route: string
  readonly method: string
  /** Path and query string, secrets redacted. */
  readonly path: string
  /** Status answered; 0 when the scenario made it a network error. */
  readonly status: number
  /** Who made the request (never a secret), or null when nobody was authenticated. */
  readonly identity: string | null
  /** Scenarios that shaped this answer. */
  readonly scenarios: readonly string[]
  /** Emulator milliseconds from arrival to answer. */
  readonly durationMs: number
  readonly transport: Transport
  readonly request: { readonly headers: Readonly<Record<string, string>>; readonly body?: unknown }
  readonly response: { readonly headers: Readonly<Record<string, string>>; readonly body?: string }
}

export type Transport = 'in-process' | 'server'

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

interface Waiter {
  filter: JournalFilter
  resolve: (entry: JournalEntry) => void
}

export const DEFAULT_JOURNAL_CAPACITY = 1000

export class Journal {
  readonly capacity: number
  #ring: JournalEntry[] = []
  #seq = 0
  #waiters = new Set<Waiter>()
  readonly #clock: Clock

  constructor(clock: Clock, capacity = DEFAULT_JOURNAL_CAPACITY) {
    this.#clock = clock
    this.capacity = capacity
  }

  record(entry: Omit<JournalEntry, 'seq'>): JournalEntry {
    const stored: JournalEntry = { seq: ++this.#seq, ...entry }
    this.#ring.push(stored)
    if (this.#ring.length > this.capacity) this.#ring.splice(0, this.#ring.length - this.capacity)
    for (const waiter of this.#waiters) {
      if (matches(stored, waiter.filter)) {
        this.#waiters.delete(waiter)
        waiter.resolve(stored)
      }
    }
    return stored
  }

  list(filter: JournalFilter = {}): JournalEntry[] {
    const found = this.#ring.filter((entry) => matches(entry, filter))
    return filter.limit === undefined ? found : found.slice(Math.max(0, found.length - filter.limit))
  }

  /** The newest seq recorded so far (0 before the first request). */
  lastSeq(): number {
    return this.#seq
  }

  /**
   * Resolves with the first entry matching `filter`: one already recorded when `filter.since` is
   * given, otherwise the next one to arrive. Resolves undefined after `timeoutMs` of emulator time.
   */
  async wait(filter: JournalFilter = {}, options: JournalWaitOptions = {}): Promise<JournalEntry | undefined> {
    if (filter.since !== undefined) {
      const [first] = this.#ring.filter((entry) => matches(entry, filter))
      if (first) return first
    }
    const timeout = new AbortController()
    const onAbort = (): void => timeout.abort()
    options.signal?.addEventListener('abort', onAbort, { once: true })
    try {
      return await new Promise<JournalEntry | undefined>((resolve) => {
        const waiter: Waiter = {
          filter,
          resolve: (entry) => {
            timeout.abort()
            resolve(entry)
          },
        }
        this.#waiters.add(waiter)
        this.#clock.sleep(options.timeoutMs ?? 30_000, timeout.signal).then(
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

  /** Empties the journal (sequence numbers keep counting). */
  clear(): void {
    this.#ring = []
  }
}

function matches(entry: JournalEntry, filter: JournalFilter): boolean {
  if (filter.since !== undefined && entry.seq <= filter.since) return false
  if (filter.method !== undefined && entry.method !== filter.method.toUpperCase()) return false
  if (filter.status !== undefined && entry.status !== filter.status) return false
  if (filter.route !== undefined && !routeMatches(filter.route, entry.route)) return false
  return true
}

/** `versions.list` matches itself; `versions.*` or `versions` match every versions route; `*` all. */
export function routeMatches(pattern: string, routeId: string): boolean {
  if (pattern === '*' || pattern === routeId) return true
  if (pattern.endsWith('*')) return routeId.startsWith(pattern.slice(0, -1))
  return routeId.startsWith(`${pattern}.`)
}

const SECRET_KEYS = new Set([
  'client_secret',
  'clientsecret',
  'refresh_token',
  'access_token',
  'code',
  'code_verifier',
  'password',
  'client_assertion',
  'id_token',
])

const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'x-api-key'])

export const REDACTED = '[redacted]'

/** Headers as a plain object with credential values replaced (the scheme of Authorization stays). */
export function redactHeaders(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {}
  headers.forEach((value, name) => {
    if (!SECRET_HEADERS.has(name)) {
      out[name] = value
      return
    }
    const scheme = name.endsWith('authorization') ? /^\s*(\S+)\s/.exec(value)?.[1] : undefined
    out[name] = scheme ? `${scheme} ${REDACTED}` : REDACTED
  })
  return out
}

/**
 * Response headers as a plain object, with secrets out: a redirect's `Location` keeps its address
 * but not the values of secret parameters (an authorization code), and `Set-Cookie` is redacted.
 */
export function redactResponseHeaders(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {}
  headers.forEach((value, name) => {
    if (name === 'set-cookie') out[name] = REDACTED
    else if (name === 'location') out[name] = redactLocation(value)
    else out[name] = value
  })
  return out
}

function redactLocation(value: string): string {
  const q = value.indexOf('?')
  if (q < 0) return value
  const h = value.indexOf('#', q)
  const params = new URLSearchParams(value.slice(q + 1, h < 0 ? undefined : h))
  let changed = false
  for (const key of new Set(params.keys())) {
    if (isSecretKey(key)) {
      params.set(key, REDACTED)
      changed = true
    }
  }
  return changed ? `${value.slice(0, q)}?${params.toString()}${h < 0 ? '' : value.slice(h)}` : value
}

export function isSecretKey(key: string): boolean {
  return SECRET_KEYS.has(key.toLowerCase())
}

/** A path with the values of secret query parameters redacted. */
export function redactPath(url: URL): string {
  if (!url.search) return url.pathname
  const params = new URLSearchParams(url.search)
  let changed = false
  for (const key of new Set(params.keys())) {
    if (isSecretKey(key)) {
      params.set(key, REDACTED)
      changed = true
    }
  }
  return `${url.pathname}${changed ? `?${params.toString()}` : url.search}`
}

/** A copy of a parsed body (form fields, JSON) with secret fields redacted, to any depth. */
export function redactValue(value: unknown, depth = 0): unknown {
  if (depth > 20) return REDACTED
  if (Array.isArray(value)) return value.map((item) => redactValue(item, depth + 1))
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {}
    for (const [key, item] of Object.entries(value)) {
      out[key] = isSecretKey(key) ? REDACTED : redactValue(item, depth + 1)
    }
    return out
  }
  return value
}
