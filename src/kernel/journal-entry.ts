/**
 * A journal entry and the record it is built from. The pipeline hands the journal the raw parts of
 * each exchange (a `JournalRecord`); a reader gets a `JournalEntry`, built from the record the
 * first time someone reads it, with every secret redacted (redact.ts): credential headers, secret
 * query parameters, and the secret fields the domains declare. A log line reads the record
 * directly (`requestLineOf`), through the same redaction.
 */
import { JOURNAL_BODY_LIMIT } from './constants.js'
import type { RequestLine } from './logger.js'
import type { Redactor } from './redact.js'
import type { Transport } from './route.js'
import type { NearMiss } from './unmatched.js'

export interface JournalEntry {
  /** Increases by one per entry, across the whole run; use it as `since` to wait for newer ones. */
  readonly seq: number
  /** Emulator time the request arrived, ISO 8601. */
  readonly time: string
  /** Route id (`versions.list`), or `unmatched`. */
  readonly route: string
  readonly method: string
  /** The origin the request was sent to (`http://127.0.0.1:4010`); with `path`, the whole URL. */
  readonly origin: string
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
  readonly request: {
    readonly headers: Readonly<Record<string, string>>
    /** The body as the route understood it (a form's fields, a webhook's bundle), secrets redacted. */
    readonly body?: unknown
    /**
     * The body as it was sent, when it was read whole, is text (JSON, a urlencoded form, plain
     * text, XML) and at most 64 KB; the secret fields of a JSON or form body redacted.
     */
    readonly bodyText?: string
  }
  readonly response: { readonly headers: Readonly<Record<string, string>>; readonly body?: string }
  /** For a request no route answered (`route` is `unmatched`): the closest route and what differed. */
  readonly nearMiss?: NearMiss
}

export type { Transport }

/** What the pipeline hands the journal: the raw parts of one exchange. */
export interface JournalRecord {
  readonly receivedAt: number
  readonly route: string
  readonly method: string
  /** The whole URL (`href`): a string, because the ring keeps every record it holds and a `URL` object is much larger. */
  readonly url: string
  readonly status: number
  readonly identity: string | null
  readonly scenarios: readonly string[]
  readonly durationMs: number
  readonly transport: Transport
  readonly requestHeaders: Headers
  /** The body as the route understood it (redacted when read). */
  readonly requestBody: unknown
  /** Undefined when the connection failed on purpose (a fault). */
  readonly responseHeaders: Headers | undefined
  /** A text answer's bytes, when the route built it with the reply helpers. */
  readonly responseBody: string | Uint8Array | undefined
  /** The answer is JSON holding secrets (tokens): its secret fields are redacted when read. */
  readonly secretResponse: boolean
  /** An exchange with a real service: shown through the redactor's `foreign()` view. */
  readonly foreign?: boolean
  /** The request body's bytes, when they were in memory (redacted and decoded when read). */
  readonly requestBytes?: Uint8Array | undefined
  /** For a request no route answered. */
  readonly nearMiss?: NearMiss | undefined
}

/** The redacted entry of a record. */
export function entryOf(seq: number, record: JournalRecord, journalRule: Redactor): JournalEntry {
  const redact = viewOf(record, journalRule)
  const url = new URL(record.url)
  const responseHeaders = record.responseHeaders
  const body = responseHeaders ? responseBody(record, responseHeaders, redact) : undefined
  const bodyText = requestText(record, redact)
  return {
    seq,
    time: new Date(record.receivedAt).toISOString(),
    route: record.route,
    method: record.method,
    origin: url.origin,
    path: redact.path(url),
    status: record.status,
    identity: record.identity,
    scenarios: record.scenarios,
    durationMs: record.durationMs,
    transport: record.transport,
    request: {
      headers: redact.headers(record.requestHeaders),
      ...(record.requestBody === undefined ? {} : { body: redact.value(record.requestBody) }),
      ...(bodyText === undefined ? {} : { bodyText }),
    },
    response: {
      headers: responseHeaders ? redact.responseHeaders(responseHeaders) : {},
      ...(body === undefined ? {} : { body }),
    },
    ...(record.nearMiss === undefined ? {} : { nearMiss: record.nearMiss }),
  }
}

/** What a log line shows of a record: no headers or bodies, the path redacted as the entry's. */
export function requestLineOf(record: JournalRecord, journalRule: Redactor): RequestLine {
  const redact = viewOf(record, journalRule)
  return {
    time: new Date(record.receivedAt).toISOString(),
    route: record.route,
    method: record.method,
    path: redact.path(new URL(record.url)),
    status: record.status,
    identity: record.identity,
    scenarios: record.scenarios,
    durationMs: record.durationMs,
  }
}

/** The redaction a record is shown through: the foreign view for an exchange with a real service. */
function viewOf(record: JournalRecord, redact: Redactor): Redactor {
  return record.foreign === true ? redact.foreign(record.requestHeaders) : redact
}

/** Request bodies the journal keeps as text. */
const TEXT_TYPES = /json|text\/|xml|x-www-form-urlencoded|javascript/i

/** The request body as sent, when it is text; a JSON or form body's secret fields redacted. */
function requestText(record: JournalRecord, redact: Redactor): string | undefined {
  const bytes = record.requestBytes
  if (bytes === undefined || bytes.byteLength === 0) return undefined
  const type = record.requestHeaders.get('content-type') ?? ''
  if (!TEXT_TYPES.test(type)) return undefined
  const text = new TextDecoder().decode(bytes)
  if (/x-www-form-urlencoded/i.test(type)) return redact.query(text) ?? text
  if (!/json/i.test(type)) return text
  try {
    const parsed: unknown = JSON.parse(text)
    const redacted = redact.value(parsed)
    return JSON.stringify(redacted) === JSON.stringify(parsed) ? text : JSON.stringify(redacted)
  } catch {
    return text
  }
}

/** The answer's body, when it is text and not too large to show; a secret answer's fields redacted. */
function responseBody(record: JournalRecord, headers: Headers, redact: Redactor): string | undefined {
  const body = record.responseBody
  if (body === undefined || body.length > JOURNAL_BODY_LIMIT) return undefined
  if (!/json|text|xml|html|form/.test(headers.get('content-type') ?? '')) return undefined
  const text = typeof body === 'string' ? body : Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8')
  if (!record.secretResponse && record.foreign !== true) return text
  try {
    return JSON.stringify(redact.value(JSON.parse(text)))
  } catch {
    return record.secretResponse ? undefined : redact.text(text)
  }
}
