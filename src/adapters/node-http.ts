/**
 * The socket transport: a node:http request listener that translates IncomingMessage for
 * `serve()` (a small body announced by Content-Length is read up front; anything else streams from
 * the socket as the route reads it) and writes the Reply back: bytes straight to the socket, a
 * stream as it comes, a network fault as a destroyed socket, `cut-body` as half a body. A client
 * that sent `Expect: 100-continue` gets `100 Continue` only once the route reads the body, so a
 * body refused from its Content-Length (413) is answered without it. A 413 to an upload still
 * coming is written at once and ends once the rest has been read and discarded (bounded), so a
 * client still sending reads it, whether the connection then stays open or closes.
 */
import { type IncomingMessage, STATUS_CODES, type ServerResponse } from 'node:http'
import type { Duplex } from 'node:stream'
import type { EmulatorCore } from '../emulator-api.js'
import { HeaderFields } from '../kernel/headers.js'
import type { Reply } from '../kernel/reply.js'
import { type IncomingRequest, RequestBody } from '../kernel/request.js'
import { DRAIN_LIMIT_BYTES, DRAIN_LIMIT_MS, SMALL_BODY_BYTES } from './constants.js'

export type RequestListener = (req: IncomingMessage, res: ServerResponse) => void

/** `expectsContinue`: the listener of Node's `checkContinue` (requests with `Expect: 100-continue`), which sends no `100 Continue` itself. */
export function requestListener(emu: Pick<EmulatorCore, 'serve' | 'logger'>, origin: string, expectsContinue = false): RequestListener {
  return (req, res) => {
    handle(emu, origin, req, res, expectsContinue).catch((error: unknown) => {
      emu.logger.error('the server failed to answer a request', error)
      if (!res.headersSent) {
        res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' })
        res.end('svc-mock internal error: the server failed to answer this request (see its log).')
      } else {
        res.destroy()
      }
    })
  }
}

/**
 * A CONNECT request (node:http hands it over apart from the others): answered by the pipeline like
 * any method no route takes (501), written to the socket, which is then closed.
 */
export function connectListener(emu: Pick<EmulatorCore, 'serve' | 'logger'>, origin: string): (req: IncomingMessage, socket: Duplex) => void {
  return (req, socket) => {
    const request: IncomingRequest = { method: req.method ?? 'CONNECT', url: new URL(`${origin}/`), headers: toHeaders(req.rawHeaders), body: null }
    emu.serve(request, 'server').then(
      (reply) => {
        const body = typeof reply.body === 'string' || reply.body instanceof Uint8Array ? Buffer.from(reply.body) : Buffer.alloc(0)
        const lines = [`HTTP/1.1 ${reply.status} ${STATUS_CODES[reply.status] ?? ''}`]
        reply.headers.forEach((value, name) => lines.push(`${name}: ${value}`))
        lines.push(`content-length: ${body.byteLength}`, 'connection: close', '', '')
        socket.end(Buffer.concat([Buffer.from(lines.join('\r\n'), 'latin1'), body]))
      },
      (error: unknown) => {
        emu.logger.error('the server failed to answer a CONNECT request', error)
        socket.destroy()
      },
    )
  }
}

async function handle(emu: Pick<EmulatorCore, 'serve'>, origin: string, req: IncomingMessage, res: ServerResponse, expectsContinue: boolean): Promise<void> {
  const method = req.method ?? 'GET'
  const target = req.url ?? '/'
  let url: URL
  let headers: Headers
  try {
    url = new URL(target.startsWith('/') ? `${origin}${target}` : target)
    headers = toHeaders(req.rawHeaders)
  } catch {
    res.writeHead(400, { 'content-type': 'text/plain; charset=utf-8', connection: 'close' })
    res.end('Bad Request: the request line or a header could not be read.')
    return
  }
  // Made on first use: most requests never wait on anything the client could abandon.
  let aborter: AbortController | undefined
  const signal = (): AbortSignal => {
    if (!aborter) {
      const controller = new AbortController()
      aborter = controller
      if (res.closed && !res.writableFinished) controller.abort(new Error('the client closed the connection'))
      else {
        res.once('close', () => {
          if (!res.writableFinished) controller.abort(new Error('the client closed the connection'))
        })
      }
    }
    return aborter.signal
  }
  const request: IncomingRequest = { method, url, headers, body: await bodyOf(req, method, expectsContinue ? () => res.writeContinue() : undefined), signal }
  const reply = await emu.serve(request, 'server')
  const body = reply.body
  if (reply.status === 413 && !req.complete && reply.fault === undefined && !(body instanceof ReadableStream)) {
    // Closing on an unread upload makes most clients report a broken pipe instead of the 413
    // (Python's urllib reads nothing until it has sent everything): the answer goes out at once,
    // and ends (closing the connection when it closes) only once the rest has been discarded.
    const headers = nodeHeaders(reply.headers)
    if (body !== null) setHeader(headers, 'content-length', String(typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength))
    res.writeHead(reply.status, headers)
    if (body !== null && method !== 'HEAD') res.write(body)
    drain(req, () => res.end())
    return
  }
  write(req, res, reply, method === 'HEAD')
}

/**
 * Reads and discards what is left of an upload, then calls `done`; past the bounds (bytes, time)
 * it calls `done` and closes the connection. Never buffers: memory stays flat however large the
 * upload. A client that goes away ends it too.
 */
function drain(req: IncomingMessage, done: () => void): void {
  let seen = 0
  const stop = (): void => {
    clearTimeout(timer)
    req.off('data', onData)
    req.off('end', finish)
    req.off('close', finish)
  }
  const finish = (): void => {
    stop()
    done()
  }
  const cut = (): void => {
    finish()
    req.socket.destroy()
  }
  const onData = (chunk: Buffer): void => {
    seen += chunk.byteLength
    if (seen > DRAIN_LIMIT_BYTES) cut()
  }
  const timer = setTimeout(cut, DRAIN_LIMIT_MS)
  timer.unref()
  req.on('data', onData)
  req.once('end', finish)
  req.once('close', finish)
  req.resume()
}

/**
 * The body: read up front when small and announced, streamed from the socket otherwise, null when
 * there is none. `proceed` (a client waiting for `100 Continue`) runs before the first byte is read.
 */
async function bodyOf(req: IncomingMessage, method: string, proceed: (() => void) | undefined): Promise<RequestBody | null> {
  const declared = req.headers['content-length']
  const chunked = req.headers['transfer-encoding'] !== undefined
  if (method === 'GET' || method === 'HEAD' || (declared === undefined ? !chunked : declared === '0')) return null
  const length = Number(declared)
  if (Number.isFinite(length) && length <= SMALL_BODY_BYTES) {
    proceed?.()
    return new RequestBody(await readSmall(req), length)
  }
  // A route that stops reading (a body over its limit) leaves the socket open: the rest is drained.
  const source = req.iterator({ destroyOnReturn: false })
  return new RequestBody(proceed ? afterContinue(source, proceed) : source, Number.isFinite(length) ? length : undefined)
}

/** The body, once `proceed` has told the client to send it (on the first read, so a body refused unread never is). */
async function* afterContinue(source: AsyncIterable<Uint8Array>, proceed: () => void): AsyncIterable<Uint8Array> {
  proceed()
  yield* source
}

function readSmall(req: IncomingMessage): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.once('end', () => resolve(chunks.length === 1 && chunks[0] ? chunks[0] : Buffer.concat(chunks)))
    req.once('error', reject)
    req.once('close', () => {
      if (!req.complete) reject(new Error('the client closed the connection before sending the body'))
    })
  })
}

function toHeaders(raw: readonly string[]): Headers {
  return HeaderFields.fromRaw(raw)
}

/** The headers for `writeHead()`: straight from the emulator's own fields when no name repeats. */
function nodeHeaders(headers: Headers): string[] | Record<string, string | string[]> {
  const flat = headers instanceof HeaderFields ? headers.flat() : undefined
  if (flat !== undefined) return flat
  const out: Record<string, string | string[]> = {}
  headers.forEach((value, name) => {
    if (name !== 'set-cookie') out[name] = value
  })
  const cookies = headers.getSetCookie()
  if (cookies.length > 0) out['set-cookie'] = cookies
  return out
}

function write(req: IncomingMessage, res: ServerResponse, reply: Reply, head: boolean): void {
  if (reply.fault === 'network-error' || reply.fault === 'empty-reply') {
    req.socket.destroy()
    return
  }
  const headers = nodeHeaders(reply.headers)
  const body = reply.body
  if (reply.fault === 'cut-body') {
    res.writeHead(reply.status, headers)
    if (body !== null && !(body instanceof ReadableStream)) res.write(body)
    setImmediate(() => req.socket.destroy())
    return
  }
  if (body === null || typeof body === 'string' || body instanceof Uint8Array) {
    if (body !== null) setHeader(headers, 'content-length', String(typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength))
    res.writeHead(reply.status, headers)
    res.end(head || body === null ? undefined : body)
    return
  }
  res.writeHead(reply.status, headers)
  if (head) {
    body.cancel().catch(() => undefined)
    res.end()
    return
  }
  // The head goes out now, not with the first chunk: a stream may be quiet for a while.
  res.flushHeaders()
  void pipe(body, res)
}

function setHeader(headers: string[] | Record<string, string | string[]>, name: string, value: string): void {
  if (!Array.isArray(headers)) {
    headers[name] = value
    return
  }
  for (let i = 0; i < headers.length; i += 2) {
    if (headers[i] === name) {
      headers[i + 1] = value
      return
    }
  }
  headers.push(name, value)
}

async function pipe(body: ReadableStream<Uint8Array>, res: ServerResponse): Promise<void> {
  const reader = body.getReader()
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      if (!res.write(value)) await drained(res)
    }
    res.end()
  } catch {
    // The stream's own clean-up (a live-event subscription) runs on cancel.
    reader.cancel().catch(() => undefined)
    res.destroy()
  }
}

/** Resolves when the socket takes more, or when the client has gone (a long stream must not wait forever). */
function drained(res: ServerResponse): Promise<void> {
  if (res.destroyed) return Promise.reject(new Error('the client closed the connection'))
  return new Promise<void>((resolve, reject) => {
    const onDrain = (): void => {
      res.off('close', onClose)
      resolve()
    }
    const onClose = (): void => {
      res.off('drain', onDrain)
      reject(new Error('the client closed the connection'))
    }
    res.once('drain', onDrain)
    res.once('close', onClose)
  })
}
