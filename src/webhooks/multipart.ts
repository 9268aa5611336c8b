/**
 * A streaming `multipart/form-data` parser (RFC 7578 over RFC 2046): fed chunk by chunk as the body
 * arrives, it never holds more than one chunk plus a delimiter's length of unparsed bytes (the
 * parts themselves are kept: the flow receives them). Text fields are decoded in their part's
 * charset (or `_charset_`, or UTF-8) with a decoder that refuses bad bytes; files keep their bytes.
 *
 * Hand-written rather than busboy: busboy decodes text fields leniently (bad bytes become U+FFFD,
 * so a wrong charset cannot be refused), cuts fields over 1 MB short unless told, and is a
 * Node-stream API while bodies here are web streams. Errors name what is wrong with the body.
 */
import { decodeChunk, decoderFor, parseMediaType, splitParams } from './body.js'
import { malformedBody } from './wire.js'

export interface TextPart {
  readonly kind: 'field'
  readonly name: string
  readonly value: string
}

export interface FilePart {
  readonly kind: 'file'
  readonly name: string
  readonly filename: string
  readonly mime: string
  readonly data: Uint8Array
}

export type Part = TextPart | FilePart

interface RawPart {
  name: string
  filename: string | undefined
  contentType: string | undefined
  chunks: Buffer[]
}

const CRLF = Buffer.from('\r\n')
const MAX_HEADER_BYTES = 16 * 1024

type State = 'preamble' | 'after-delimiter' | 'headers' | 'body' | 'done'

/** The boundary of a multipart Content-Type, or a 400 when there is none or it is not valid. */
export function boundaryOf(params: ReadonlyMap<string, string>): string {
  const boundary = params.get('boundary')
  if (boundary === undefined || boundary === '') {
    throw malformedBody('The multipart/form-data body cannot be read: the Content-Type has no boundary parameter.')
  }
  if (boundary.length > 70) throw malformedBody('The multipart/form-data body cannot be read: the boundary is longer than 70 characters.')
  return boundary
}

export class MultipartParser {
  readonly #delimiter: Buffer
  #pending: Buffer = CRLF
  #state: State = 'preamble'
  #current: RawPart | undefined
  #raw: RawPart[] = []

  constructor(boundary: string) {
    // Every delimiter is CRLF "--" boundary; a leading CRLF lets the first one match the same way.
    this.#delimiter = Buffer.from(`\r\n--${boundary}`, 'latin1')
  }

  push(chunk: Uint8Array): void {
    if (this.#state === 'done') return
    const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)
    this.#pending = this.#pending.length === 0 ? bytes : Buffer.concat([this.#pending, bytes])
    this.#scan()
  }

  /** The parts, once the whole body has been pushed; a 400 when it ended too soon. */
  end(): Part[] {
    if (this.#state !== 'done') {
      const where = this.#state === 'preamble' ? 'it has no boundary line' : 'it ends before the closing boundary'
      throw malformedBody(`The multipart/form-data body is malformed: ${where} ("${this.#delimiter.toString('latin1').slice(2)}--").`)
    }
    return decodeParts(this.#raw)
  }

  #scan(): void {
    for (;;) {
      switch (this.#state) {
        case 'preamble': {
          const at = this.#pending.indexOf(this.#delimiter)
          if (at === -1) {
            this.#keepTail()
            return
          }
          this.#pending = this.#pending.subarray(at + this.#delimiter.length)
          this.#state = 'after-delimiter'
          break
        }
        case 'after-delimiter': {
          // `--` closes the body; otherwise optional whitespace (transport padding), then CRLF.
          if (this.#pending.length < 2) return
          if (this.#pending[0] === 0x2d && this.#pending[1] === 0x2d) {
            this.#state = 'done'
            this.#pending = Buffer.alloc(0)
            return
          }
          let i = 0
          while (i < this.#pending.length && (this.#pending[i] === 0x20 || this.#pending[i] === 0x09)) i++
          if (this.#pending.length < i + 2) return
          if (this.#pending[i] !== 0x0d || this.#pending[i + 1] !== 0x0a) {
            throw malformedBody('The multipart/form-data body is malformed: a boundary line is followed by something other than a line break.')
          }
          this.#pending = this.#pending.subarray(i + 2)
          this.#state = 'headers'
          break
        }
        case 'headers': {
          const empty = this.#pending.length >= 2 && this.#pending[0] === 0x0d && this.#pending[1] === 0x0a
          const end = empty ? 0 : this.#pending.indexOf('\r\n\r\n')
          if (end === -1) {
            if (this.#pending.length > MAX_HEADER_BYTES) throw malformedBody(`The multipart/form-data body is malformed: part ${this.#raw.length + 1} has headers longer than ${MAX_HEADER_BYTES} bytes.`)
            return
          }
          const block = empty ? '' : this.#pending.subarray(0, end).toString('utf8')
          this.#pending = this.#pending.subarray(empty ? 2 : end + 4)
          this.#current = startPart(block, this.#raw.length + 1)
          this.#state = 'body'
          break
        }
        case 'body': {
          const part = this.#current
          if (!part) return
          const at = this.#pending.indexOf(this.#delimiter)
          if (at === -1) {
            // Everything but a possible partial delimiter at the end belongs to the part.
            const keep = Math.min(this.#pending.length, this.#delimiter.length - 1)
            const safe = this.#pending.length - keep
            if (safe > 0) {
              part.chunks.push(this.#pending.subarray(0, safe))
              this.#pending = this.#pending.subarray(safe)
            }
            return
          }
          if (at > 0) part.chunks.push(this.#pending.subarray(0, at))
          this.#raw.push(part)
          this.#current = undefined
          this.#pending = this.#pending.subarray(at + this.#delimiter.length)
          this.#state = 'after-delimiter'
          break
        }
        case 'done':
          return
      }
    }
  }

  #keepTail(): void {
    const keep = Math.min(this.#pending.length, this.#delimiter.length - 1)
    this.#pending = this.#pending.subarray(this.#pending.length - keep)
  }
}

function startPart(block: string, index: number): RawPart {
  const headers = new Map<string, string>()
  for (const line of block.split('\r\n')) {
    const colon = line.indexOf(':')
    if (colon <= 0) throw malformedBody(`The multipart/form-data body is malformed: part ${index} has a header line without a name ("${line.slice(0, 40)}").`)
    headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim())
  }
  const disposition = headers.get('content-disposition')
  const params = disposition === undefined ? undefined : dispositionParams(disposition)
  const name = params?.get('name')
  if (params === undefined || name === undefined) {
    throw malformedBody(`The multipart/form-data body is malformed: part ${index} has no Content-Disposition with a name.`)
  }
  return { name, filename: params.get('filename*') ?? params.get('filename'), contentType: headers.get('content-type'), chunks: [] }
}

/** `form-data; name="a"; filename="b.png"`, with RFC 5987 `filename*=UTF-8''…` decoded. */
function dispositionParams(value: string): Map<string, string> {
  const params = new Map<string, string>()
  const [, ...rest] = splitParams(value)
  for (const part of rest) {
    const eq = part.indexOf('=')
    if (eq <= 0) continue
    const key = part.slice(0, eq).trim().toLowerCase()
    let raw = part.slice(eq + 1).trim()
    if (raw.startsWith('"') && raw.endsWith('"') && raw.length >= 2) raw = raw.slice(1, -1).replace(/\\(.)/g, '$1')
    if (key.endsWith('*')) {
      const match = /^([^']*)'[^']*'(.*)$/.exec(raw)
      try {
        raw = match ? decodeURIComponent(match[2] ?? '') : raw
      } catch {
        // keep the raw text of a badly escaped extended value
      }
    }
    params.set(key, raw)
  }
  return params
}

function decodeParts(raw: readonly RawPart[]): Part[] {
  const fallback = raw.find((p) => p.name === '_charset_' && p.filename === undefined)
  const defaultCharset = fallback ? Buffer.concat(fallback.chunks).toString('latin1').trim() : undefined
  return raw.map((part, index): Part => {
    const data = Buffer.concat(part.chunks)
    const media = parseMediaType(part.contentType ?? null)
    if (part.filename !== undefined) {
      return { kind: 'file', name: part.name, filename: part.filename, mime: media?.type ?? 'application/octet-stream', data }
    }
    const charset = media?.params.get('charset') ?? defaultCharset
    const decoder = decoderFor(charset, `part ${index + 1} of the multipart body`)
    return { kind: 'field', name: part.name, value: decodeChunk(decoder, data, false, `Field '${part.name}' of the multipart body`) }
  })
}
