/**
 * Reading a webhook call's body: the media type and its parameters, and text decoding that refuses
 * bytes the declared charset cannot read, so a wrong charset is a 400 with the reason, never
 * mojibake in the bundle. (The pipeline refuses a body over the limit by Content-Length before it
 * is read, and the body refuses it while it streams otherwise, so nothing past the limit is ever
 * kept; text is decoded only once the last byte is in, so reading a body up to the limit costs the
 * same whatever its type.)
 */
import { TextDecoder } from 'node:util'
import type { RequestBody } from '../kernel/request.js'
import { malformedBody } from './wire.js'

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

/** Decoders for text decoded in one call, by charset: such a call keeps no state, so one serves every request. */
const wholeDecoders = new Map<string, TextDecoder>()

/** A decoder for text decoded in one call (`decodeChunk(…, false, …)`), or a 400 as `decoderFor` says. */
export function wholeDecoder(charset: string | undefined): TextDecoder {
  // Labels are case-insensitive and trimmed (WHATWG Encoding), so this holds at most one decoder per known label.
  const label = (charset ?? '').trim().toLowerCase()
  let decoder = wholeDecoders.get(label)
  if (!decoder) {
    decoder = decoderFor(charset)
    wholeDecoders.set(label, decoder)
  }
  return decoder
}

/**
 * Reads the whole body as text in its charset. While it streams a chunk is only kept, so the socket
 * is read as fast for text as for any other body and one over the limit is refused as soon as its
 * count passes it; the chunks are decoded once the last is in, each let go once decoded.
 */
export async function readText(body: RequestBody, charset: string | undefined, what: string): Promise<{ text: string; bytes: number }> {
  if (body.kept() !== undefined) {
    const decoder = wholeDecoder(charset)
    const bytes = await body.bytes()
    return { text: decodeChunk(decoder, bytes, false, what), bytes: bytes.byteLength }
  }
  const decoder = decoderFor(charset)
  const chunks: Uint8Array[] = []
  const bytes = await body.each((chunk) => {
    chunks.push(chunk)
  })
  const parts: string[] = []
  for (let chunk = chunks.shift(); chunk !== undefined; chunk = chunks.shift()) parts.push(decodeChunk(decoder, chunk, true, what))
  parts.push(decodeChunk(decoder, undefined, false, what))
  return { text: parts.join(''), bytes }
}
