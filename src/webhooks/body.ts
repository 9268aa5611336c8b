/**
 * Reading a webhook call's body: the media type and its parameters, the bytes as a stream with a
 * running count (the dispatcher refuses bodies over the limit by Content-Length before reading and
 * while streaming otherwise; this reader counts too, so nothing past the limit is ever kept), and
 * text decoding that refuses bytes the declared charset cannot read, so a wrong charset is a 400
 * with the reason, never mojibake in the bundle.
 */
import { TextDecoder } from 'node:util'
import { PayloadTooLargeError } from '../kernel/dispatch.js'
import { malformedBody } from './errors.js'

export interface MediaType {
  /** Lower case, without parameters: `application/json`. */
  readonly type: string
  /** Parameter names in lower case; values unquoted. */
  readonly params: ReadonlyMap<string, string>
}

/** Parses `type/subtype; a=b; c="d"` (RFC 9110 section 8.3.1). Undefined for no header. */
export function parseMediaType(header: string | null): MediaType | undefined {
  if (header === null || header.trim() === '') return undefined
  const [head = '', ...rest] = splitParams(header)
  const params = new Map<string, string>()
  for (const part of rest) {
    const eq = part.indexOf('=')
    if (eq <= 0) continue
    const name = part.slice(0, eq).trim().toLowerCase()
    let value = part.slice(eq + 1).trim()
    if (value.startsWith('"') && value.endsWith('"') && value.length >= 2) value = value.slice(1, -1).replace(/\\(.)/g, '$1')
    if (!params.has(name)) params.set(name, value)
  }
  return { type: head.trim().toLowerCase(), params }
}

/** Splits on `;` outside quoted strings. */
export function splitParams(value: string): string[] {
  const out: string[] = []
  let current = ''
  let quoted = false
  for (let i = 0; i < value.length; i++) {
    const ch = value[i] ?? ''
    if (quoted && ch === '\\' && i + 1 < value.length) {
      current += ch + (value[i + 1] ?? '')
      i++
      continue
    }
    if (ch === '"') quoted = !quoted
    if (ch === ';' && !quoted) {
      out.push(current)
      current = ''
      continue
    }
    current += ch
  }
  out.push(current)
  return out
}

/**
 * Calls `onChunk` with each chunk of the body as it arrives; returns the byte count. Throws
 * PayloadTooLargeError as soon as more than `limit` bytes have arrived.
 */
export async function streamBody(body: ReadableStream<Uint8Array> | null, limit: number, onChunk: (chunk: Uint8Array) => void): Promise<number> {
  if (!body) return 0
  const reader = body.getReader()
  let seen = 0
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) return seen
      seen += value.byteLength
      if (seen > limit) throw new PayloadTooLargeError(limit)
      if (value.byteLength > 0) onChunk(value)
    }
  } catch (error) {
    reader.cancel(error).catch(() => undefined)
    throw error
  } finally {
    reader.releaseLock()
  }
}

/** A decoder for a charset label, or a 400 naming the label when the platform cannot read it. */
export function decoderFor(charset: string | undefined, where = 'Content-Type'): TextDecoder {
  const label = charset === undefined || charset === '' ? 'utf-8' : charset
  try {
    return new TextDecoder(label, { fatal: true })
  } catch {
    throw malformedBody(`Unsupported charset '${label}' in ${where}.`)
  }
}

/** Decodes a chunk with a fatal decoder, turning a decoding failure into a 400 naming the charset. */
export function decodeChunk(decoder: TextDecoder, chunk: Uint8Array | undefined, stream: boolean, what: string): string {
  try {
    return decoder.decode(chunk, { stream })
  } catch {
    throw malformedBody(`${what} is not valid ${decoder.encoding} text (wrong charset?).`)
  }
}

/** Bodies announced this small are read in one go (no stream needed); larger ones stream. */
const SMALL_BODY = 64 * 1024

/**
 * Calls `onChunk` with the request's body, chunk by chunk as it streams in, or at once for a small
 * body of known length. Returns the byte count; PayloadTooLargeError past `limit`.
 */
export async function readBody(request: Request, limit: number, onChunk: (chunk: Uint8Array) => void): Promise<number> {
  const length = Number(request.headers.get('content-length') ?? Number.NaN)
  if (!(Number.isFinite(length) && length <= SMALL_BODY)) return streamBody(request.body, limit, onChunk)
  const bytes = new Uint8Array(await request.arrayBuffer())
  if (bytes.byteLength > limit) throw new PayloadTooLargeError(limit)
  if (bytes.byteLength > 0) onChunk(bytes)
  return bytes.byteLength
}

/** Reads the whole body as text in its charset, decoding chunk by chunk as it streams in. */
export async function readText(request: Request, limit: number, charset: string | undefined, what: string): Promise<{ text: string; bytes: number }> {
  const decoder = decoderFor(charset)
  const parts: string[] = []
  const bytes = await readBody(request, limit, (chunk) => {
    parts.push(decodeChunk(decoder, chunk, true, what))
  })
  parts.push(decodeChunk(decoder, undefined, false, what))
  return { text: parts.join(''), bytes }
}
