/**
 * What a route answers: a `Reply`, a plain value (status, headers, body) that every transport
 * translates on its own terms. The node:http adapter writes its bytes straight to the socket, msw
 * and `emu.handle()` turn it into a Fetch `Response` (`toFetchResponse`). A fault is a reply too:
 * the transport fails on purpose instead of answering (`network-error`, `empty-reply`), or cuts the
 * body short (`cut-body`). No side channel: everything a transport needs is in the value. Nothing
 * changes a reply once a route has answered it (the pipeline adds headers on a copy), so a route
 * may answer the same one every time.
 */

import { HeaderFields, isHeaderName } from './headers.js'

export type FaultKind = 'network-error' | 'empty-reply' | 'cut-body'

export type ReplyBody = string | Uint8Array | ReadableStream<Uint8Array> | null

export interface Reply {
  readonly status: number
  readonly headers: Headers
  /** Text or bytes (sent as they are), a stream (sent as it comes), or nothing. */
  readonly body: ReplyBody
  /**
   * The transport fails on purpose: `network-error` and `empty-reply` close the connection without
   * a byte (fetch rejects); `cut-body` sends the head and `body` (the first part of the answer),
   * then closes, so reading the body fails.
   */
  readonly fault?: FaultKind
}

export type HeadersLike = Record<string, string> | Headers | [string, string][]

export interface ReplyInit {
  status?: number
  headers?: HeadersLike
}

export function reply(body: ReplyBody, init: ReplyInit = {}): Reply {
  return { status: init.status ?? 200, headers: headersOf(init.headers), body }
}

export function json(value: unknown, init: ReplyInit = {}): Reply {
  return withType(JSON.stringify(value), init, 'application/json; charset=utf-8')
}

export function text(body: string, init: ReplyInit = {}): Reply {
  return withType(body, init, 'text/plain; charset=utf-8')
}

export function html(body: string, init: ReplyInit = {}): Reply {
  return withType(body, init, 'text/html; charset=utf-8')
}

/** A reply without a body: 204, 304, a redirect. */
export function empty(status: number, headers?: HeadersLike): Reply {
  return { status, headers: headersOf(headers), body: null }
}

const UNSAFE = /[^\t\x20-\x7e]+/g

/**
 * A header value that every transport can send: visible ASCII, spaces and tabs stay; anything
 * else (text from a request in another script, control characters) becomes its UTF-8 bytes,
 * percent-encoded. Never a 500 for a value that cannot go into a header.
 */
export function headerValue(value: string): string {
  return value.replace(UNSAFE, (run) => encodeURIComponent(run.replace(LONE_SURROGATE, '\ufffd')))
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g

/** Headers with every value made safe (`headerValue`); a name that is not an HTTP token is dropped. */
export function headersOf(init?: HeadersLike): Headers {
  const headers = new HeaderFields()
  if (init === undefined) return headers
  const entries: Iterable<[string, string]> = Array.isArray(init) ? init : isHeaders(init) ? init.entries() : Object.entries(init)
  for (const [name, value] of entries) if (isHeaderName(name)) headers.append(name, headerValue(value))
  return headers
}

function isHeaders(init: HeadersLike): init is Headers {
  return typeof (init as Partial<Headers>).entries === 'function'
}

function withType(body: string, init: ReplyInit, type: string): Reply {
  const headers = headersOf(init.headers)
  if (!headers.has('content-type')) headers.set('content-type', type)
  return { status: init.status ?? 200, headers, body }
}

/**
 * A transport failure. `cut-body` needs the answer it cuts short: its head goes out with the full
 * Content-Length and only the first half of its body.
 */
export function fault(kind: FaultKind, whole?: { status: number; headers: Headers; body: string }): Reply {
  if (kind === 'cut-body' && whole) {
    const bytes = new TextEncoder().encode(whole.body)
    const headers = headersOf(whole.headers)
    headers.set('content-length', String(bytes.length))
    return { status: whole.status, headers, body: bytes.slice(0, Math.max(1, Math.floor(bytes.length / 2))), fault: kind }
  }
  return { status: 0, headers: new HeaderFields(), body: null, fault: kind }
}

/** True for faults that make fetch reject (no answer at all). */
export function isNetworkFault(value: Reply): boolean {
  return value.fault === 'network-error' || value.fault === 'empty-reply'
}

/** The body as bytes or text, when it is not a stream (what the journal can keep). */
export function fixedBody(value: Reply): string | Uint8Array | undefined {
  const body = value.body
  return typeof body === 'string' || body instanceof Uint8Array ? body : undefined
}

/**
 * The reply as a Fetch `Response`, as a client would receive it: no body for HEAD, a `cut-body`
 * fault as a body stream that fails half way. A network fault has no Response: check
 * `isNetworkFault()` first.
 */
export function toFetchResponse(value: Reply, method: string): Response {
  const init = { status: value.status, headers: fetchHeaders(value.headers) }
  if (method === 'HEAD' || value.body === null || nullBodyStatus(value.status)) return new Response(null, init)
  if (value.fault === 'cut-body') {
    const part = typeof value.body === 'string' ? new TextEncoder().encode(value.body) : value.body
    let sent = false
    const stream = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (!sent) {
          sent = true
          if (part instanceof Uint8Array) controller.enqueue(part)
          return
        }
        // One turn of the event loop first: msw 3 hands the answer over a mock socket, and a body
        // that fails before the head reached the client would make fetch itself reject.
        await new Promise<void>((resolve) => setTimeout(resolve, 0))
        controller.error(new TypeError('terminated: the connection closed before the body was complete'))
      },
    })
    return new Response(stream, init)
  }
  // Bytes here are never backed by a SharedArrayBuffer; the cast keeps the DOM library's stricter
  // BodyInit (the dashboard's type check reads this file too) satisfied.
  return new Response(value.body as string | Uint8Array<ArrayBuffer> | ReadableStream<Uint8Array>, init)
}

/** What a Fetch `Response` converts fastest: the emulator's own fields as a record when no name repeats. */
function fetchHeaders(headers: Headers): Headers | Record<string, string> {
  return (headers instanceof HeaderFields ? headers.record() : undefined) ?? headers
}

function nullBodyStatus(status: number): boolean {
  return status === 101 || status === 204 || status === 205 || status === 304
}
