/**
 * The standalone server: the emulator behind a node:http server, by default on
 * http://127.0.0.1:4010, one origin for every address; with `https` a node:https server on the
 * same terms, presenting a certificate signed by the user's local CA (or the user's own). Its
 * teams (src/teams/, docs/teams.md) are made there; this module opens their ports, the one place a
 * port is opened, so each is served exactly as the main one. `startServer()` resolves once it
 * listens, with its URL, the emulator (the same object tests use in-process), its teams and `close()`.
 */
import { type Server, type ServerOptions as HttpServerOptions, createServer } from 'node:http'
import type { Socket } from 'node:net'
import type { Emulator, EmulatorCore, EmulatorOptions } from '../emulator-api.js'
import { buildEmulator } from '../emulator.js'
import { wholeNumber } from '../kernel/checks.js'
import { ConfigError, type HttpError } from '../kernel/errors.js'
import { PortInUseError } from './errors.js'
import { normalizeOrigin } from '../emulator-options.js'
import { type Logger, createLogger } from '../kernel/logger.js'
import { readRunInputs } from '../run-inputs.js'
import { ServerClosingError, type ServerTeamsOptions, type TeamsApi, serverTeams, teamCounts } from '../teams/index.js'
import { DEFAULT_HOST, DEFAULT_PORT, REQUEST_TIMEOUT_MS } from './constants.js'
import { withFetch } from './fetch.js'
import { answerClientErrors } from './client-error.js'
import { type RequestListener, connectListener, requestListener } from './node-http.js'
import type { ServerTls, TlsCertificate } from '../tls/index.js'

export { DEFAULT_HOST, DEFAULT_PORT }
export type { RunningTeam, TeamInfo, TeamOptions, TeamsApi } from '../teams/index.js'
export type { TlsCertificate } from '../tls/index.js'

export interface ServerOptions<Custom extends string = string> extends Omit<EmulatorOptions<Custom>, 'origin' | 'authUrl' | 'baseUrl' | 'webhookUrl' | 'name'>, ServerTeamsOptions {
  /** Port to listen on; 0 picks a free one. Default 4010. */
  port?: number
  /** Address to bind. Default 127.0.0.1 (loopback only). */
  host?: string
  /** A request (headers and body) not received within this many milliseconds is answered 408, and a TLS handshake not done within it is closed. Default 30 000. */
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
   * (PEM text) presents a certificate of your own. Teams are served the same way.
   */
  https?: boolean | TlsCertificate
  /**
   * Write a saved state (`emu.exportState()`) to this file when the server closes, atomically
   * (docs/state.md): what the state was when `close()` began. Its folder must exist.
   */
  exportOnExit?: string
}

export interface RunningServer<Custom extends string = never> {
  /** `http://127.0.0.1:4010`: every endpoint and the control plane live here. */
  readonly url: string
  readonly port: number
  readonly host: string
  /** With `https: true`: the path of the local CA's certificate, which clients must trust. */
  readonly caFile?: string
  readonly emulator: Emulator<Custom>
  /** The main team and the others, made at start (`teams`) or since (`POST /__svc-mock/teams`). */
  readonly teams: TeamsApi
  /**
   * Closes every team, stops accepting connections, answers long polls (`journal/wait`) 503
   * `{"error": "server closing"}`, lets requests in flight finish (up to 2 s), then closes.
   */
  close(): Promise<void>
}

export { PortInUseError }

export async function startServer<Custom extends string = never>(options: ServerOptions<Custom> = {}): Promise<RunningServer<Custom>> {
  const port = wholeNumber('port', options.port ?? DEFAULT_PORT, 0, 65535)
  const host = options.host ?? DEFAULT_HOST
  if (options.publicUrl !== undefined) normalizeOrigin(options.publicUrl, 'publicUrl')
  const requestTimeout = wholeNumber('requestTimeoutMs', options.requestTimeoutMs ?? REQUEST_TIMEOUT_MS, 1)
  const counts = teamCounts(options)
  const exportOnExit = options.exportOnExit === undefined ? undefined : await stateFileWriter(options.exportOnExit)

  // Read and checked once: every team is seeded from the same documents and catalogue.
  const run = readRunInputs(options)
  const logger = typeof options.log === 'object' ? options.log : createLogger(options.log ?? 'silent')
  const tls = options.https ? await tlsFor(options.https, host, options.publicUrl) : undefined
  if (tls?.caReplaced === true) logger.warn(`made a new local CA in ${tls.caFile ?? ''}: the one there was made by an older svc-mock and could vouch for any name; clients that trusted it must trust the new one`)
  const listening = await listen(port, host, requestTimeout, tls)
  const origin = options.publicUrl ?? listening.url
  // Teams write no saved state on exit: the server writes the main team's, which holds theirs.
  const { exportOnExit: _file, ...teamsOptions } = options
  const teams = serverTeams(counts, {
    options: teamsOptions,
    run,
    logger,
    host,
    openPort: (teamPort) => listen(teamPort, host, requestTimeout, tls),
    build: async (emulatorOptions, emulatorHost) => withFetch(await buildEmulator(emulatorOptions, emulatorHost)),
  })
  let emulator: EmulatorCore & Emulator
  try {
    emulator = withFetch(await buildEmulator({ ...options, origin, log: logger }, { run, teams }))
  } catch (error) {
    await listening.close(new ServerClosingError())
    throw error
  }
  teams.setMain(emulator, listening.port)
  listening.serve(emulator)

  let closing: Promise<void> | undefined
  const close = (): Promise<void> => {
    closing ??= (async () => {
      const saved = await exportOnExit?.(emulator, logger)
      await teams.closeAll()
      await listening.close(new ServerClosingError())
      if (saved instanceof Error) throw saved
    })()
    return closing
  }
  try {
    await teams.start()
  } catch (error) {
    await close()
    throw error
  }
  return { url: listening.url, port: listening.port, host, ...(tls?.caFile === undefined ? {} : { caFile: tls.caFile }), emulator, teams, close }
}

/** A node:http (or node:https) server that listens: the one place the server and its teams open a port. */
interface Listening {
  /** `http://host:port` (or `https://`) as clients on this machine reach it. */
  readonly url: string
  readonly port: number
  /** Answers with this emulator from now on (requests that arrived before wait for it). */
  serve(emulator: EmulatorCore): void
  /**
   * Stops taking connections at once and answers long polls with `reason`; resolves once the
   * requests in flight are answered (their connections forced shut after 2 s) and the emulator is closed.
   */
  close(reason: HttpError): Promise<void>
}

/** `exportOnExit`'s file, its folder checked now, and what writes it on close: loaded only when a file is given. */
async function stateFileWriter(path: string): Promise<(emulator: EmulatorCore, logger: Logger) => Promise<Error | undefined>> {
  const { checkStateFile, saveOnExit } = await import('./state-file.js')
  const file = checkStateFile(path)
  return (emulator, logger) => saveOnExit(emulator, file, logger)
}

async function listen(port: number, host: string, requestTimeout: number, tls: ServerTls | undefined): Promise<Listening> {
  let listener: RequestListener | undefined
  let continueListener: RequestListener | undefined
  let served: EmulatorCore | undefined
  const pending: Array<() => void> = []
  // A stalled request (slow headers, a body that stops coming) is answered 408 and closed.
  const timeouts: HttpServerOptions = { requestTimeout, headersTimeout: requestTimeout, connectionsCheckingInterval: Math.min(1000, Math.max(10, Math.floor(requestTimeout / 4))) }
  const onRequest: RequestListener = (req, res) => {
    if (listener) listener(req, res)
    else pending.push(() => listener?.(req, res))
  }
  // A TLS handshake that stalls (half a ClientHello) is closed as soon as a stalled request would be.
  const server: Server = tls ? (await import('node:https')).createServer({ ...timeouts, handshakeTimeout: requestTimeout, cert: tls.cert, key: tls.key }, onRequest) : createServer(timeouts, onRequest)
  // `Expect: 100-continue`: Node would send `100 Continue` at once; the listener sends it only when
  // the route reads the body, so a body over the limit by its Content-Length gets the 413 instead.
  server.on('checkContinue', (req, res) => {
    if (continueListener) continueListener(req, res)
    else pending.push(() => continueListener?.(req, res))
  })
  server.keepAliveTimeout = 65_000
  answerClientErrors(server)
  const sockets = new Set<Socket>()
  server.on('connection', (socket) => {
    sockets.add(socket)
    socket.once('close', () => sockets.delete(socket))
  })
  await listening(server, port, host)
  const address = server.address()
  const actualPort = typeof address === 'object' && address ? address.port : port
  const urlHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host
  const url = `${tls ? 'https' : 'http'}://${urlHost}:${actualPort}`

  let closing: Promise<void> | undefined
  return {
    url,
    port: actualPort,
    serve: (emulator) => {
      served = emulator
      const origin = emulator.urls.base
      listener = requestListener(emulator, origin)
      continueListener = requestListener(emulator, origin, true)
      server.on('connect', connectListener(emulator, origin))
      for (const run of pending.splice(0)) run()
    },
    close: (reason) => {
      closing ??= new Promise<void>((resolve) => {
        // Live-event streams (open dashboards) and long polls would hold the close: end them now, the polls answered.
        served?.disconnect(reason)
        // Connections kept alive after their last answer would hold the close: shut each once idle.
        const sweep = setInterval(() => server.closeIdleConnections(), 20)
        const force = setTimeout(() => {
          for (const socket of sockets) socket.destroy()
        }, 2000)
        force.unref()
        server.close(() => {
          clearInterval(sweep)
          clearTimeout(force)
          resolve()
        })
        server.closeIdleConnections()
      }).then(() => served?.close())
      return closing
    },
  }
}

/** What an HTTPS server presents (the TLS module loads only for HTTPS); the local CA vouches for local names only. */
async function tlsFor(https: true | TlsCertificate, host: string, publicUrl: string | undefined): Promise<ServerTls> {
  const { LOCAL_NAMES_TEXT, serverNames, serverTls, unvouchableName } = await import('../tls/index.js')
  const outside = https === true ? unvouchableName(host, publicUrl) : undefined
  if (outside) {
    throw new ConfigError(outside.option, `names ${outside.name}, which svc-mock's local CA cannot vouch for (${LOCAL_NAMES_TEXT} only): serve a certificate of your own for it with {https.cert} and {https.key}`)
  }
  return await serverTls(https, serverNames(host, publicUrl))
}

function listening(server: Server, port: number, host: string): Promise<void> {
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
