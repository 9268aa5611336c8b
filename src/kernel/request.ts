/**
 * What a transport hands the pipeline: the request line, the headers, and the body as a
 * `RequestBody`, so no transport has to build a Fetch `Request` (the socket adapter reads a small
 * body's bytes up front and streams a large one from the socket). The body enforces the route's
 * size limit while it is read, and keeps what it read, so it can be read more than once (a scenario
 * aimed at one client looks at a token request's form before the route reads it).
 */
import { JOURNAL_BODY_LIMIT } from './constants.js'
import { PayloadTooLargeError } from './errors.js'

/** A streamed body up to this size is kept once read (the journal shows bodies up to this size). */
const KEEP_STREAMED = JOURNAL_BODY_LIMIT

/** The signal that aborts when the client goes away, or a function that makes it on first use. */
export type SignalSource = AbortSignal | (() => AbortSignal)

export interface IncomingRequest {
  readonly method: string
  readonly url: URL
  readonly headers: Headers
  readonly body: RequestBody | null
  readonly signal?: SignalSource
}

export type BodySource = Uint8Array | AsyncIterable<Uint8Array>

export class RequestBody {
  /** The length the request announced (Content-Length), if it did. */
  readonly length: number | undefined
  #source: AsyncIterable<Uint8Array> | undefined
  #bytes: Uint8Array | undefined
  #limit = Number.POSITIVE_INFINITY
  /** Why an earlier read failed (too large, client gone): later reads fail the same way. */
  #failure: unknown

  constructor(source: BodySource, length?: number) {
    if (source instanceof Uint8Array) this.#bytes = source
    else this.#source = source
    this.length = length ?? (source instanceof Uint8Array ? source.byteLength : undefined)
  }

  /** The body of a Fetch Request, or null when it has none. */
  static of(request: Request): RequestBody | null {
    if (request.body === null) return null
    const declared = Number(request.headers.get('content-length') ?? Number.NaN)
    return new RequestBody(iterate(request.body), Number.isFinite(declared) ? declared : undefined)
  }

  /** Refuse more than `limit` bytes (PayloadTooLargeError) from here on. */
  limit(limit: number): void {
    this.#limit = limit
  }

  /** Calls `onChunk` with the body as it arrives (once, when it is already in memory); returns the byte count. */
  async each(onChunk: (chunk: Uint8Array) => void): Promise<number> {
    if (this.#bytes !== undefined) {
      if (this.#bytes.byteLength > this.#limit) throw new PayloadTooLargeError(this.#limit)
      if (this.#bytes.byteLength > 0) onChunk(this.#bytes)
      return this.#bytes.byteLength
    }
    const source = this.#take()
    let seen = 0
    // A small body is kept as it streams by, so it can be read again (and journaled as sent).
    let kept: Uint8Array[] | undefined = []
    try {
      for await (const chunk of source) {
        seen += chunk.byteLength
        if (seen > this.#limit) throw new PayloadTooLargeError(this.#limit)
        if (kept !== undefined && seen > KEEP_STREAMED) kept = undefined
        else kept?.push(chunk)
        if (chunk.byteLength > 0) onChunk(chunk)
      }
    } catch (error) {
      this.#failure = error
      throw error
    }
    if (kept !== undefined) this.#bytes = kept.length === 1 && kept[0] ? kept[0] : Buffer.concat(kept)
    return seen
  }

  /** The whole body (kept: later reads answer from memory). */
  async bytes(): Promise<Uint8Array> {
    if (this.#bytes !== undefined) {
      if (this.#bytes.byteLength > this.#limit) throw new PayloadTooLargeError(this.#limit)
      return this.#bytes
    }
    const chunks: Uint8Array[] = []
    await this.each((chunk) => chunks.push(chunk))
    this.#bytes ??= chunks.length === 1 && chunks[0] ? chunks[0] : Buffer.concat(chunks)
    return this.#bytes
  }

  /** The bytes, when they are in memory already (read whole, or handed over whole); never reads. */
  kept(): Uint8Array | undefined {
    return this.#bytes
  }

  /** The body as UTF-8 text (bad bytes become U+FFFD, as `Request.text()` does). */
  async text(): Promise<string> {
    return new TextDecoder().decode(await this.bytes())
  }

  /** The body parsed as the given Content-Type says (`multipart/form-data` or urlencoded). */
  async formData(contentType: string): Promise<FormData> {
    const bytes = await this.bytes()
    return (await new Response(bytes as Uint8Array<ArrayBuffer>, { headers: { 'content-type': contentType } }).formData()) as FormData
  }

  #take(): AsyncIterable<Uint8Array> {
    if (this.#failure !== undefined) throw this.#failure
    const source = this.#source
    if (!source) throw new TypeError('Body is unusable: Body has already been read')
    this.#source = undefined
    return source
  }
}

/** A web stream as an async iterable (without relying on the stream's own iterator typings). */
async function* iterate(stream: ReadableStream<Uint8Array>): AsyncIterable<Uint8Array> {
  const reader = stream.getReader()
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) return
      yield value
    }
  } finally {
    reader.cancel().catch(() => undefined)
    reader.releaseLock()
  }
}

/** A transport-neutral request made from a Fetch Request (msw, `emu.handle()`). */
export function incomingOf(request: Request): IncomingRequest {
  return { method: request.method, url: new URL(request.url), headers: request.headers, body: RequestBody.of(request), signal: request.signal }
}
