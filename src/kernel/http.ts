/**
 * Response helpers. Resolvers answer with real Fetch `Response`s; the ones built here keep their
 * body beside the response instead of inside it, so the node:http adapter can write the bytes
 * straight to the socket (building a Response body stream costs more than the rest of a request).
 * Every path that hands a response to anything but that adapter calls `materialize()` first.
 */

const deferredBodies = new WeakMap<Response, string | Uint8Array>()

export type HeadersLike = Record<string, string> | Headers | [string, string][]

export interface ReplyInit {
  status?: number
  statusText?: string
  headers?: HeadersLike
}

/** A response whose body is kept aside until `materialize()` (or the server) needs it. */
export function reply(body: string | Uint8Array | null, init: ReplyInit = {}): Response {
  const response = new Response(null, init)
  if (body !== null && body.length > 0) deferredBodies.set(response, body)
  return response
}

export function json(value: unknown, init: ReplyInit = {}): Response {
  return reply(JSON.stringify(value), withContentType(init, 'application/json; charset=utf-8'))
}

export function text(body: string, init: ReplyInit = {}): Response {
  return reply(body, withContentType(init, 'text/plain; charset=utf-8'))
}

export function html(body: string, init: ReplyInit = {}): Response {
  return reply(body, withContentType(init, 'text/html; charset=utf-8'))
}

/** The body kept aside by `reply()`, if this response was built that way. */
export function deferredBody(response: Response): string | Uint8Array | undefined {
  return deferredBodies.get(response)
}

/** A response anyone can read: a deferred body becomes a real body stream. */
export function materialize(response: Response): Response {
  const body = deferredBodies.get(response)
  if (body === undefined) return response
  // Bytes here are never backed by a SharedArrayBuffer; the cast keeps the DOM library's
  // stricter BodyInit (the dashboard's type check reads this file too) satisfied.
  const real = new Response(body as string | Uint8Array<ArrayBuffer>, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  })
  return real
}

function withContentType(init: ReplyInit, type: string): ReplyInit {
  const headers = new Headers(init.headers)
  if (!headers.has('content-type')) headers.set('content-type', type)
  return { ...init, headers }
}


const faults = new WeakMap<Response, FaultKind>()

export type FaultKind = 'network-error' | 'empty-reply' | 'cut-body'

/**
 * A transport failure. In-process every kind makes `fetch` reject (msw's network error), except
 * `cut-body`, which resolves and then fails while the body is read. Over a socket: `network-error`
 * and `empty-reply` close the connection without a byte; `cut-body` sends the head and part of
 * the body, then closes.
 */
export function faultResponse(kind: FaultKind, partial?: { status: number; headers: Headers; body: string }): Response {
  if (kind === 'cut-body' && partial) {
    const bytes = new TextEncoder().encode(partial.body)
    const half = bytes.slice(0, Math.max(1, Math.floor(bytes.length / 2)))
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(half)
        controller.error(new TypeError('terminated: the connection closed before the body was complete'))
      },
    })
    const headers = new Headers(partial.headers)
    headers.set('content-length', String(bytes.length))
    const response = new Response(stream, { status: partial.status, headers })
    faults.set(response, kind)
    cutBodies.set(response, half)
    return response
  }
  const response = Response.error()
  faults.set(response, kind)
  return response
}

const cutBodies = new WeakMap<Response, Uint8Array>()

export function faultOf(response: Response): FaultKind | undefined {
  return faults.get(response) ?? (response.type === 'error' ? 'network-error' : undefined)
}

/** The bytes a cut-body fault sends before closing. */
export function cutBodyOf(response: Response): Uint8Array | undefined {
  return cutBodies.get(response)
}
