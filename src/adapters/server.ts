/**
 * The standalone server: the emulator behind a node:http server, by default on
 * http://127.0.0.1:4010, one origin for every address; with `https` a node:https server on the
 * same terms, presenting a certificate signed by the user's local CA (or the user's own).
 * `startServer()` resolves once it listens, with its URL, the emulator (the same object tests use
 * in-process) and `close()`.
 */
import { type Server, type ServerOptions as HttpServerOptions, createServer } from 'node:http'
import type { Socket } from 'node:net'
import type { Emulator, EmulatorCore, EmulatorOptions } from '../emulator-api.js'
import { buildEmulator } from '../emulator.js'
import { ConfigError, SvcMockError } from '../kernel/errors.js'
import { DEFAULT_HOST, DEFAULT_PORT, REQUEST_TIMEOUT_MS } from './constants.js'
import { withFetch } from './fetch.js'
import { clientErrorListener } from './client-error.js'
import { type RequestListener, connectListener, requestListener } from './node-http.js'
import type { ServerTls, TlsCertificate } from '../tls/index.js'

export { DEFAULT_HOST, DEFAULT_PORT }
export type { TlsCertificate } from '../tls/index.js'

export interface ServerOptions extends Omit<EmulatorOptions, 'origin' | 'authUrl' | 'baseUrl' | 'webhookUrl'> {
  /** Port to listen on; 0 picks a free one. Default 4010. */
  port?: number
  /** Address to bind. Default 127.0.0.1 (loopback only). */
  host?: string
  /** A request (headers and body) not received within this many milliseconds is answered 408. Default 30 000. */
  requestTimeoutMs?: number
  /**
   * The address clients use, when it is not `http://host:port` (behind a proxy, or a container's
   * published port). It appears in links the emulator writes (expandUri, token issuer).
   */
  publicUrl?: string
  /**
   * Serve HTTPS: `true` presents a certificate for localhost, 127.0.0.1, ::1, the bound address
   * and the public URL's host, signed by svc-mock's local CA (made once per user, in the user's
   * data folder or `SVC_MOCK_CA_DIR`; `RunningServer.caFile` is its path); `{ cert, key }`
   * (PEM text) presents a certificate of your own.
   */
  https?: boolean | TlsCertificate
}

export interface RunningServer {
  /** `http://127.0.0.1:4010`: every endpoint and the control plane live here. */
  readonly url: string
  readonly port: number
  readonly host: string
  /** With `https: true`: the path of the local CA's certificate, which clients must trust. */
  readonly caFile?: string
  readonly emulator: Emulator
  /** Stops accepting connections, lets requests in flight finish (up to 2 s), then closes. */
  close(): Promise<void>
}

export class PortInUseError extends SvcMockError<'ERR_PORT_IN_USE'> {
  readonly code = 'ERR_PORT_IN_USE'
  readonly port: number
  readonly host: string
  constructor(host: string, port: number) {
    super(`Port ${port} on ${host} is already in use. Stop what uses it, or choose another port with --port (0 picks a free one).`)
    this.port = port
    this.host = host
  }
}

export async function startServer(options: ServerOptions = {}): Promise<RunningServer> {
  const port = options.port ?? DEFAULT_PORT
  const host = options.host ?? DEFAULT_HOST
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new ConfigError('port', `must be 0-65535, got ${String(port)}`)

  const requestTimeout = options.requestTimeoutMs ?? REQUEST_TIMEOUT_MS
  if (!Number.isInteger(requestTimeout) || requestTimeout < 1) throw new ConfigError('requestTimeoutMs', `must be a whole number of milliseconds >= 1, got ${String(requestTimeout)}`)

  const tls = options.https ? await tlsFor(options.https, host, options.publicUrl) : undefined
  let listener: RequestListener | undefined
  let continueListener: RequestListener | undefined
  const pending: Array<() => void> = []
  // A stalled request (slow headers, a body that stops coming) is answered 408 and closed.
  const timeouts: HttpServerOptions = { requestTimeout, headersTimeout: requestTimeout, connectionsCheckingInterval: Math.min(1000, Math.max(10, Math.floor(requestTimeout / 4))) }
  const onRequest: RequestListener = (req, res) => {
    if (listener) listener(req, res)
    else pending.push(() => listener?.(req, res))
  }
  const server: Server = tls ? (await import('node:https')).createServer({ ...timeouts, cert: tls.cert, key: tls.key }, onRequest) : createServer(timeouts, onRequest)
  // `Expect: 100-continue`: Node would send `100 Continue` at once; the listener sends it only when
  // the route reads the body, so a body over the limit by its Content-Length gets the 413 instead.
  server.on('checkContinue', (req, res) => {
    if (continueListener) continueListener(req, res)
    else pending.push(() => continueListener?.(req, res))
  })
  server.keepAliveTimeout = 65_000
  const sockets = new Set<Socket>()
  server.on('connection', (socket) => {
    sockets.add(socket)
    socket.once('close', () => sockets.delete(socket))
  })

  await listen(server, port, host)
  const address = server.address()
  const actualPort = typeof address === 'object' && address ? address.port : port
  const urlHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host
  const url = `${tls ? 'https' : 'http'}://${urlHost}:${actualPort}`
  let emulator: EmulatorCore & Emulator
  try {
    emulator = withFetch(await buildEmulator({ ...options, origin: options.publicUrl ?? url }))
  } catch (error) {
    server.close()
    throw error
  }
  listener = requestListener(emulator, options.publicUrl ?? url)
  continueListener = requestListener(emulator, options.publicUrl ?? url, true)
  server.on('connect', connectListener(emulator, options.publicUrl ?? url))
  server.on('clientError', clientErrorListener())
  for (const run of pending.splice(0)) run()

  let closing: Promise<void> | undefined
  return {
    url,
    port: actualPort,
    host,
    ...(tls?.caFile === undefined ? {} : { caFile: tls.caFile }),
    emulator,
    close: () => {
      closing ??= new Promise<void>((resolve) => {
        // Live-event streams (open dashboards) never end by themselves: end them, so they do not hold the close.
        emulator.disconnect()
        server.close(() => resolve())
        server.closeIdleConnections()
        const force = setTimeout(() => {
          for (const socket of sockets) socket.destroy()
        }, 2000)
        force.unref()
      }).then(() => emulator.close())
      return closing
    },
  }
}

/** What an HTTPS server presents (the TLS module loads only for HTTPS). */
async function tlsFor(https: true | TlsCertificate, host: string, publicUrl: string | undefined): Promise<ServerTls> {
  const { serverNames, serverTls } = await import('../tls/index.js')
  return await serverTls(https, serverNames(host, publicUrl))
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException): void => {
      server.off('listening', onListening)
      reject(error.code === 'EADDRINUSE' ? new PortInUseError(host, port) : error)
    }
    const onListening = (): void => {
      server.off('error', onError)
      resolve()
    }
    server.once('error', onError)
    server.once('listening', onListening)
    server.listen(port, host)
  })
}
