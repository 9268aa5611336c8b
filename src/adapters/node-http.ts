/**
 * The socket transport: a node:http request listener that translates IncomingMessage for
 * `serve()` (a small body announced by Content-Length is read up front; anything else streams from
 * the socket as the route reads it) and writes the Reply back: bytes straight to the socket, a
 * stream as it comes, a network fault as a destroyed socket, `cut-body` as half a body.
 */
import { type IncomingMessage, STATUS_CODES, type ServerResponse } from 'node:http'
import type { Duplex } from 'node:stream'
import type { EmulatorCore } from '../emulator-api.js'
import { HeaderFields } from '../kernel/headers.js'
import type { Reply } from '../kernel/reply.js'
import { type IncomingRequest, RequestBody } from '../kernel/request.js'
import { DRAIN_LIMIT_BYTES, DRAIN_LIMIT_MS, SMALL_BODY_BYTES } from './constants.js'

export type RequestListener = (req: IncomingMessage, res: ServerResponse) => void

export function requestListener(emu: Pick<EmulatorCore, 'serve' | 'logger'>, origin: string): RequestListener {
  return (req, res) => {
    handle(emu, origin, req, res).catch((error: unknown) => {
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

/**
 * What Node's HTTP parser refuses before any request exists. Node's own answers are kept (400 for
 * a malformed request, 408 for a stalled one, 413 for oversized chunk extensions, 431 for
 * oversized headers), except that a method the parser does not know (`FOO /oauth2/token`) gets
 * the pipeline's 501 rather than a bare 400.
 */
const CLIENT_ERROR_STATUS: Readonly<Record<string, number>> = {
  HPE_INVALID_METHOD: 501,
  HPE_HEADER_OVERFLOW: 431,
  HPE_CHUNK_EXTENSIONS_OVERFLOW: 413,
  ERR_HTTP_REQUEST_TIMEOUT: 408,
}

export function clientErrorListener(): (error: Error & { code?: string }, socket: Duplex) => void {
  return (error, socket) => {
    const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } | null })._httpMessage
    if (error.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent === true) {
      socket.destroy()
      return
    }
    const status = CLIENT_ERROR_STATUS[error.code ?? ''] ?? 400
    const body = status === 501 ? JSON.stringify({ error: 'Not Implemented', message: 'svc-mock implements no route for this method.' }) : ''
    const head = [`HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}`, 'connection: close']
    if (body !== '') head.push('content-type: application/json', `content-length: ${Buffer.byteLength(body)}`)
    socket.end(`${head.join('\r\n')}\r\n\r\n${body}`)
  }
}

async function handle(emu: Pick<EmulatorCore, 'serve'>, origin: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
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
  const request: IncomingRequest = { method, url, headers, body: await bodyOf(req, method), signal }
  const reply = await emu.serve(request, 'server')
  if (reply.status === 413 && !req.complete) {
    // Closing on an unread upload makes most clients report a broken pipe instead of the 413:
    // the answer goes out at once and the connection stays open while the rest is discarded.
    reply.headers.delete('connection')
    drain(req)
  }
  write(req, res, reply, method === 'HEAD')
}

/**
 * Reads and discards what is left of an upload, up to the bounds (bytes, time); past either, the
 * connection is closed. Never buffers: memory stays flat however large the upload.
 */
function drain(req: IncomingMessage): void {
  let seen = 0
  const stop = (): void => {
    clearTimeout(timer)
    req.off('data', onData)
    req.off('end', stop)
    req.off('close', stop)
  }
  const cut = (): void => {
    stop()
    req.socket.destroy()
  }
  const onData = (chunk: Buffer): void => {
    seen += chunk.byteLength
    if (seen > DRAIN_LIMIT_BYTES) cut()
  }
  const timer = setTimeout(cut, DRAIN_LIMIT_MS)
  timer.unref()
  req.on('data', onData)
  req.once('end', stop)
  req.once('close', stop)
  req.resume()
}

/** The body: read up front when small and announced, streamed from the socket otherwise, null when there is none. */
async function bodyOf(req: IncomingMessage, method: string): Promise<RequestBody | null> {
  const declared = req.headers['content-length']
  const chunked = req.headers['transfer-encoding'] !== undefined
  if (method === 'GET' || method === 'HEAD' || (declared === undefined ? !chunked : declared === '0')) return null
  const length = Number(declared)
  if (Number.isFinite(length) && length <= SMALL_BODY_BYTES) return new RequestBody(await readSmall(req), length)
  // A route that stops reading (a body over its limit) leaves the socket open: the rest is drained.
  return new RequestBody(req.iterator({ destroyOnReturn: false }), Number.isFinite(length) ? length : undefined)
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
