/**
 * The socket transport: a node:http request listener that turns IncomingMessage into a Fetch
 * Request (body streamed, only when there is one), routes with the route table (never msw's
 * matching), lets the shared dispatcher answer, and writes the Response back. A network-error
 * fault destroys the socket; a body kept aside by the reply helpers is written as bytes.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { Readable } from 'node:stream'
import type { EmulatorCore } from '../emulator.js'
import { cutBodyOf, deferredBody, faultOf } from '../kernel/http.js'
import { PrereadRequest } from './preread-request.js'

export type RequestListener = (req: IncomingMessage, res: ServerResponse) => void

export function requestListener(emu: Pick<EmulatorCore, 'dispatcher' | 'logger'>, origin: string): RequestListener {
  const dispatcher = emu.dispatcher
  return (req, res) => {
    handle(dispatcher, origin, req, res).catch((error: unknown) => {
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

async function handle(dispatcher: EmulatorCore['dispatcher'], origin: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
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
      if (res.closed && !res.writableFinished) controller.abort(new Error('client closed the connection'))
      else {
        res.once('close', () => {
          if (!res.writableFinished) controller.abort(new Error('client closed the connection'))
        })
      }
    }
    return aborter.signal
  }
  const hasBody = method !== 'GET' && method !== 'HEAD' && (req.headers['content-length'] !== undefined ? req.headers['content-length'] !== '0' : req.headers['transfer-encoding'] !== undefined)
  // A small body announced by Content-Length is read first and kept as bytes (PrereadRequest):
  // a web-stream body costs more than the rest of such a request. Anything larger, or of unknown
  // length, streams (the dispatcher enforces route limits on it).
  const length = Number(req.headers['content-length'])
  const init: RequestInit = { method, headers }
  const request = !hasBody
    ? new Request(url, init)
    : length <= SMALL_BODY
      ? new PrereadRequest(url, init, await readSmall(req))
      : new Request(url, { ...init, body: Readable.toWeb(req) as ReadableStream<Uint8Array>, duplex: 'half' } as RequestInit)

  const match = dispatcher.table.match(method, url.pathname)
  const response =
    match.kind === 'match'
      ? await dispatcher.dispatch(match.route, match.params, request, url, 'server', signal)
      : dispatcher.unmatched(request, url, 'server', match.kind === 'method-not-allowed' ? match.allowed : undefined)
  await write(req, res, response, method === 'HEAD')
}

/** Bodies up to this many bytes (by Content-Length) are read before dispatch. */
const SMALL_BODY = 64 * 1024

function readSmall(req: IncomingMessage): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.once('end', () => resolve(chunks.length === 1 && chunks[0] ? chunks[0] : Buffer.concat(chunks)))
    req.once('error', reject)
    req.once('close', () => {
      if (!req.complete) reject(new Error('client closed the connection before sending the body'))
    })
  })
}

function toHeaders(raw: readonly string[]): Headers {
  const headers = new Headers()
  for (let i = 0; i + 1 < raw.length; i += 2) headers.append(raw[i] as string, raw[i + 1] as string)
  return headers
}

function nodeHeaders(response: Response): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {}
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie') out[name] = value
  })
  const cookies = response.headers.getSetCookie()
  if (cookies.length > 0) out['set-cookie'] = cookies
  return out
}

async function write(req: IncomingMessage, res: ServerResponse, response: Response, head: boolean): Promise<void> {
  const fault = faultOf(response)
  if (fault === 'network-error' || fault === 'empty-reply') {
    req.socket.destroy()
    return
  }
  if (fault === 'cut-body') {
    res.writeHead(response.status, nodeHeaders(response))
    res.write(cutBodyOf(response) ?? new Uint8Array())
    setImmediate(() => req.socket.destroy())
    return
  }
  const headers = nodeHeaders(response)
  const deferred = deferredBody(response)
  if (deferred !== undefined) {
    headers['content-length'] = String(typeof deferred === 'string' ? Buffer.byteLength(deferred) : deferred.byteLength)
    res.writeHead(response.status, response.statusText || undefined, headers)
    res.end(head ? undefined : deferred)
    return
  }
  res.writeHead(response.status, response.statusText || undefined, headers)
  if (!response.body || head) {
    res.end()
    return
  }
  const reader = response.body.getReader()
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
  if (res.destroyed) return Promise.reject(new Error('client closed the connection'))
  return new Promise<void>((resolve, reject) => {
    const onDrain = (): void => {
      res.off('close', onClose)
      resolve()
    }
    const onClose = (): void => {
      res.off('drain', onDrain)
      reject(new Error('client closed the connection'))
    }
    res.once('drain', onDrain)
    res.once('close', onClose)
  })
}
