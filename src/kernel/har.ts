/**
 * The journal as an HTTP Archive (HAR 1.2, http://www.softwareishard.com/blog/har-12-spec/), so a
 * session opens in a browser's network panel or goes with a bug report. Built from journal
 * entries, so it is redacted exactly as the journal is. Times are emulator time. What HAR has no
 * field for (the route, the scenarios that shaped an answer, a near miss) goes in `_`-prefixed
 * custom fields, as the format allows.
 */
import { STATUS_CODES } from 'node:http'
import type { JournalEntry } from './journal.js'
import type { NearMiss } from './unmatched.js'

export interface HarNameValue {
  name: string
  value: string
}

export interface HarEntry {
  startedDateTime: string
  /** Emulator milliseconds from arrival to answer. */
  time: number
  request: {
    method: string
    url: string
    httpVersion: string
    cookies: HarNameValue[]
    headers: HarNameValue[]
    queryString: HarNameValue[]
    postData?: { mimeType: string; text: string; params?: HarNameValue[] }
    headersSize: number
    bodySize: number
  }
  response: {
    status: number
    statusText: string
    httpVersion: string
    cookies: HarNameValue[]
    headers: HarNameValue[]
    content: { size: number; mimeType: string; text?: string; comment?: string }
    redirectURL: string
    headersSize: number
    bodySize: number
    /** Why there is no answer (a scenario's network fault), as Chromium writes it. */
    _error?: string
  }
  cache: Record<string, never>
  timings: { blocked: number; dns: number; connect: number; ssl: number; send: number; wait: number; receive: number }
  /** svc-mock's own: the journal's sequence number, route, scenarios, identity and near miss. */
  _seq: number
  _route: string
  _scenarios: readonly string[]
  _identity: string | null
  _transport: string
  _nearMiss?: NearMiss
}

export interface Har {
  log: {
    version: '1.2'
    creator: { name: string; version: string }
    entries: HarEntry[]
    comment: string
  }
}

const HTTP = 'HTTP/1.1'

/** The entries (oldest first) as a HAR document. */
export function toHar(entries: readonly JournalEntry[], creator: { name: string; version: string }): Har {
  return {
    log: {
      version: '1.2',
      creator,
      entries: entries.map(harEntry),
      comment: 'Recorded by svc-mock. Times are emulator time; credentials and secret fields are redacted as in the journal.',
    },
  }
}

function harEntry(entry: JournalEntry): HarEntry {
  // Appended, never resolved: a path such as //other-host/x is a path of this origin.
  const url = new URL(`${entry.origin}${entry.path}`)
  const requestType = entry.request.headers['content-type'] ?? ''
  const bodyText = entry.request.bodyText
  const responseType = entry.response.headers['content-type'] ?? ''
  const responseBody = entry.response.body
  const answered = entry.status !== 0
  const responseLength = Number(entry.response.headers['content-length'] ?? Number.NaN)
  const responseSize = responseBody === undefined ? (Number.isFinite(responseLength) ? responseLength : -1) : Buffer.byteLength(responseBody)
  const requestLength = Number(entry.request.headers['content-length'] ?? Number.NaN)
  return {
    startedDateTime: entry.time,
    time: entry.durationMs,
    request: {
      method: entry.method,
      url: url.href,
      httpVersion: HTTP,
      cookies: [],
      headers: pairs(entry.request.headers),
      queryString: [...url.searchParams].map(([name, value]) => ({ name, value })),
      ...(bodyText === undefined
        ? {}
        : {
            postData: {
              mimeType: requestType,
              text: bodyText,
              ...(/x-www-form-urlencoded/i.test(requestType) ? { params: [...new URLSearchParams(bodyText)].map(([name, value]) => ({ name, value })) } : {}),
            },
          }),
      headersSize: -1,
      bodySize: bodyText !== undefined ? Buffer.byteLength(bodyText) : Number.isFinite(requestLength) ? requestLength : entry.method === 'GET' || entry.method === 'HEAD' ? 0 : -1,
    },
    response: {
      status: entry.status,
      statusText: answered ? (STATUS_CODES[entry.status] ?? '') : '',
      httpVersion: answered ? HTTP : '',
      cookies: [],
      headers: pairs(entry.response.headers),
      content: {
        size: Math.max(responseSize, 0),
        mimeType: responseType || 'x-unknown',
        ...(responseBody === undefined ? (answered ? { comment: 'The journal keeps text bodies up to 64 KB only.' } : {}) : { text: responseBody }),
      },
      redirectURL: entry.response.headers.location ?? '',
      headersSize: -1,
      bodySize: answered ? responseSize : 0,
      ...(answered ? {} : { _error: 'No answer: a scenario closed the connection (network fault).' }),
    },
    cache: {},
    timings: { blocked: -1, dns: -1, connect: -1, ssl: -1, send: 0, wait: entry.durationMs, receive: 0 },
    _seq: entry.seq,
    _route: entry.route,
    _scenarios: entry.scenarios,
    _identity: entry.identity,
    _transport: entry.transport,
    ...(entry.nearMiss === undefined ? {} : { _nearMiss: entry.nearMiss }),
  }
}

function pairs(headers: Readonly<Record<string, string>>): HarNameValue[] {
  return Object.entries(headers).map(([name, value]) => ({ name, value }))
}
