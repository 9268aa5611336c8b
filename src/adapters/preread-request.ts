/**
 * A Fetch Request whose small body the node:http adapter has already read. The bytes stay aside:
 * `text()`, `json()`, `arrayBuffer()`, `bytes()`, `formData()` and `blob()` answer from them, and
 * a body stream is built only if something asks for `body`. Building a Request with a body stream
 * (undici's extractBody, transferable web streams on Node 20) costs more than everything else a
 * small webhook call or token request does; this keeps a small POST near the cost of a GET.
 */
import { TextDecoder } from 'node:util'

export class PrereadRequest extends Request {
  readonly #bytes: Uint8Array
  #stream: ReadableStream<Uint8Array> | undefined
  #used = false

  /** `init` must not carry a body: the bytes are the body. */
  constructor(input: string | URL, init: RequestInit, bytes: Uint8Array) {
    super(input, init)
    this.#bytes = bytes
  }

  /** The bytes, once (a body can be read once). */
  takeBytes(): Uint8Array {
    if (this.#used) throw new TypeError('Body is unusable: Body has already been read')
    this.#used = true
    return this.#bytes
  }

  /** The body as a stream, made on first use; the bytes are taken when the stream is first read. */
  bodyStream(): ReadableStream<Uint8Array> {
    if (!this.#stream) {
      this.#stream = new ReadableStream<Uint8Array>({
        pull: (controller) => {
          const bytes = this.takeBytes()
          if (bytes.byteLength > 0) controller.enqueue(bytes)
          controller.close()
        },
        // No pull before the first read: looking at `body` must not consume it.
      }, { highWaterMark: 0 })
    }
    return this.#stream
  }

  wasUsed(): boolean {
    return this.#used
  }

  copy(): PrereadRequest {
    if (this.#used) throw new TypeError('Body is unusable: Body has already been read')
    return new PrereadRequest(this.url, { method: this.method, headers: this.headers, signal: this.signal }, this.#bytes)
  }
}

function arrayBufferOf(request: PrereadRequest): ArrayBuffer {
  const bytes = request.takeBytes()
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer
}

// The Request typings declare these as data properties, so they are replaced on the prototype.
Object.defineProperties(PrereadRequest.prototype, {
  body: {
    get(this: PrereadRequest): ReadableStream<Uint8Array> {
      return this.bodyStream()
    },
  },
  bodyUsed: {
    get(this: PrereadRequest): boolean {
      return this.wasUsed()
    },
  },
  arrayBuffer: {
    value: async function arrayBuffer(this: PrereadRequest): Promise<ArrayBuffer> {
      return arrayBufferOf(this)
    },
  },
  bytes: {
    value: async function bytes(this: PrereadRequest): Promise<Uint8Array> {
      return new Uint8Array(arrayBufferOf(this))
    },
  },
  text: {
    value: async function text(this: PrereadRequest): Promise<string> {
      return new TextDecoder().decode(this.takeBytes())
    },
  },
  json: {
    value: async function json(this: PrereadRequest): Promise<unknown> {
      return JSON.parse(new TextDecoder().decode(this.takeBytes()))
    },
  },
  blob: {
    value: async function blob(this: PrereadRequest): Promise<Blob> {
      return new Blob([arrayBufferOf(this)], { type: this.headers.get('content-type') ?? '' })
    },
  },
  formData: {
    value: async function formData(this: PrereadRequest): Promise<FormData> {
      return (await new Response(arrayBufferOf(this), { headers: this.headers }).formData()) as FormData
    },
  },
  clone: {
    value: function clone(this: PrereadRequest): Request {
      return this.copy()
    },
  },
})
