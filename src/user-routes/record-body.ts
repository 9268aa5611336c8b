/**
 * What a recording keeps of an answer's body, through the redactor's foreign view: a compressed
 * body decoded first (the file must be scanned, and replays it as it is), then JSON with its secret
 * members redacted at any depth (a small JSON answer in the route file itself, anything else in a
 * body file), a urlencoded or query-like text with its secret parameters redacted, an event
 * stream's JSON data lines redacted, and in any text the caller's credentials taken out. Bytes
 * that are not UTF-8 are kept as they are.
 */
import { brotliDecompressSync, gunzipSync, inflateRawSync, inflateSync } from 'node:zlib'
import type { JsonValue } from '../kernel/json.js'
import type { Redactor } from '../kernel/redact.js'
import { RECORD_INLINE_LIMIT, RECORD_LIMIT } from './constants.js'
import { holdsPlaceholder } from './placeholders.js'

export type RecordedBody =
  | { readonly kind: 'inline'; readonly value: JsonValue }
  | { readonly kind: 'file'; readonly bytes: Uint8Array }
  | { readonly kind: 'none'; readonly note?: string }

/** The body to record, and whether its `Content-Encoding` was undone (then the file leaves that header out). */
export function recordedBody(bytes: Uint8Array, type: string, encoding: string | undefined, view: Redactor): { body: RecordedBody; decoded: boolean } {
  if (bytes.byteLength === 0) return { body: { kind: 'none' }, decoded: false }
  let plain = bytes
  const coding = (encoding ?? 'identity').trim().toLowerCase()
  if (coding !== 'identity') {
    const decoded = decode(bytes, coding)
    if (decoded === undefined) return { body: { kind: 'none', note: `the body, encoded as "${coding}", could not be decoded within ${RECORD_LIMIT} bytes, so it was not recorded` }, decoded: true }
    plain = decoded
  }
  return { body: redacted(plain, type, view), decoded: coding !== 'identity' }
}

function redacted(bytes: Uint8Array, type: string, view: Redactor): RecordedBody {
  const text = utf8(bytes)
  if (text === undefined) return { kind: 'file', bytes }
  const isJson = /\bjson\b/i.test(type)
  const json = parseJson(text)
  if (json !== undefined && (isJson || (typeof json === 'object' && json !== null))) {
    const value = view.value(json) as JsonValue
    const same = JSON.stringify(value) === JSON.stringify(json)
    // A JSON string would be sent back as text, and a string with a placeholder would be filled in: those stay in a file.
    if (isJson && typeof value !== 'string' && bytes.byteLength <= RECORD_INLINE_LIMIT && !anyPlaceholder(value)) return { kind: 'inline', value }
    return { kind: 'file', bytes: same ? bytes : encode(JSON.stringify(value)) }
  }
  let shown = text
  if (/x-www-form-urlencoded/i.test(type) || QUERY_LIKE.test(text.trim())) shown = view.query(text.trim()) ?? text
  else if (/text\/event-stream/i.test(type)) shown = text.split('\n').map((line) => dataLine(line, view)).join('\n')
  shown = view.text(shown)
  return { kind: 'file', bytes: shown === text ? bytes : encode(shown) }
}

/** `name=value&…`, as an OAuth token endpoint of old answers in text/plain. */
const QUERY_LIKE = /^[^=&\s]+=[^&\s]*(?:&[^=&\s]+=[^&\s]*)*$/

function dataLine(line: string, view: Redactor): string {
  const data = /^data:\s?(.*)$/.exec(line)?.[1]
  const json = data === undefined ? undefined : parseJson(data)
  return json === undefined ? line : `data: ${JSON.stringify(view.value(json))}`
}

function decode(bytes: Uint8Array, coding: string): Uint8Array | undefined {
  const options = { maxOutputLength: RECORD_LIMIT }
  const attempts: Array<() => Uint8Array> =
    coding === 'gzip' || coding === 'x-gzip' ? [() => gunzipSync(bytes, options)] : coding === 'br' ? [() => brotliDecompressSync(bytes, options)] : coding === 'deflate' ? [() => inflateSync(bytes, options), () => inflateRawSync(bytes, options)] : []
  for (const attempt of attempts) {
    try {
      return attempt()
    } catch {
      // The next way of reading it, or none.
    }
  }
  return undefined
}

function anyPlaceholder(value: JsonValue): boolean {
  if (typeof value === 'string') return holdsPlaceholder(value)
  if (Array.isArray(value)) return value.some(anyPlaceholder)
  if (value !== null && typeof value === 'object') return Object.values(value).some(anyPlaceholder)
  return false
}

function utf8(bytes: Uint8Array): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    return undefined
  }
}

function parseJson(text: string): JsonValue | undefined {
  try {
    return JSON.parse(text) as JsonValue
  } catch {
    return undefined
  }
}

function encode(text: string): Uint8Array {
  return new TextEncoder().encode(text)
}
