/**
 * The contract harness: one set of behaviour tests, run against every way in — in-process (msw
 * `setupServer` with the emulator's handlers, no socket), the real node:http server on a free
 * port, and `emu.handle()` with no transport at all — so they can never drift apart. A suite
 * declares where else it runs: `{ tls: true }` also over the same server with HTTPS (its
 * certificate signed by the local CA, which the client trusts), for the suites whose subject the
 * TLS socket changes (the transport, streamed answers, OAuth, teams' addresses); behind either
 * socket the same HTTP parser and routes read every other request, so over TLS the rest would
 * only repeat themselves. `{ team: true }` (the OAuth, webhooks and versions suites) also runs it
 * against a team made at run time (`POST /__svc-mock/teams` on a server), so a team is the whole
 * emulator. The suites of one file with equal options share each way in's emulator (reset before
 * every test, as a suite's own was), so a file makes its emulators and their signing keys once.
 */
import { readFileSync } from 'node:fs'
import { Agent, fetch as fetchWith } from 'undici'
import { TestRunner, afterAll, beforeAll, beforeEach, describe } from 'vitest'
import { setupEmulatorServer, unhandled } from '../../src/adapters/msw.js'
import { startServer, type RunningServer } from '../../src/adapters/server.js'
import { createEmulator, type Emulator, type EmulatorOptions, type InProcessEmulator } from '../../src/index.js'

/** `in-process`: msw; `server`: a socket; `server-https`: a socket with TLS; `handle`: `emu.handle(request)`; `team`: a socket to a team made at run time. */
export type TransportKind = 'in-process' | 'server' | 'server-https' | 'handle' | 'team'

/** The ways in every suite runs over. */
export const TRANSPORTS: readonly TransportKind[] = ['in-process', 'server', 'handle']

/** Over a real socket (`server`, `server-https`, `team`), where an in-process boundary does not reach the server's requests. */
export function overSocket(kind: TransportKind): boolean {
  return kind === 'server' || kind === 'server-https' || kind === 'team'
}

/** What a suite declares about the ways in it runs over, beyond the three every suite runs over. */
export interface Ways {
  /** Also over HTTPS (`server-https`): the suites whose subject TLS changes (the transport, streamed answers, OAuth, teams' addresses). */
  readonly tls?: boolean
  /** Also against a team made at run time: the suites of the emulated API (OAuth, webhooks, versions), which show a team is the whole emulator. */
  readonly team?: boolean
}

/** The tests of a suite, registered with `it()` against the harness of one way in. */
export type SuiteBody = (h: Harness) => void

export interface Harness {
  readonly kind: TransportKind
  readonly emu: Emulator
  /** The origin requests go to (`https://acme.svc-mock.test` in-process, `http://127.0.0.1:PORT` over a socket). */
  readonly origin: string
  /** fetch relative to the origin (or an absolute URL). */
  fetch(path: string, init?: RequestInit): Promise<Response>
  /** JSON body of a control-plane call. */
  control<T = unknown>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }>
}

/** What a way in serves a suite from: the emulator, the origin requests go to, and how to close it. */
interface Served {
  readonly emu: Emulator
  readonly origin: string
  /** For `server-https`: a client that trusts the local CA (and only it). */
  readonly tls?: Agent
  /** In-process and `handle`: the emulator with its msw handlers. */
  readonly inProcess?: InProcessEmulator
  stop(): Promise<void>
}

/** Makes the emulator of one way in (in-process: only the emulator; each suite listens with msw of its own). */
async function serve(kind: TransportKind, options: EmulatorOptions): Promise<Served> {
  if (kind === 'handle' || kind === 'in-process') {
    const emu = await createEmulator(options)
    return { emu, origin: emu.urls.base, inProcess: emu, stop: () => emu.close() }
  }
  if (kind !== 'team') {
    const running: RunningServer = await startServer({ ...options, port: 0, log: options.log ?? 'silent', ...(kind === 'server-https' ? { https: true } : {}) })
    const tls = running.caFile === undefined ? undefined : new Agent({ connect: { ca: readFileSync(running.caFile, 'utf8') } })
    return {
      emu: running.emulator,
      origin: running.url,
      ...(tls ? { tls } : {}),
      stop: async () => {
        await running.close()
        await tls?.close()
      },
    }
  }
  // The team is made over the control plane, as a test worker makes its own; it inherits the run's options.
  const running: RunningServer = await startServer({ ...options, port: 0, log: options.log ?? 'silent' })
  const made = await fetch(`${running.url}/__svc-mock/teams`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })
  const { name } = (await made.json()) as { name: string }
  const team = running.teams.get(name)
  if (made.status !== 201 || !team) throw new Error(`POST /__svc-mock/teams answered ${made.status}`)
  return { emu: team.emulator, origin: team.url, stop: () => running.close() }
}

class LiveHarness implements Harness {
  readonly kind: TransportKind
  readonly #served: () => Promise<Served>
  #current: Served | undefined
  #msw: ReturnType<typeof setupEmulatorServer> | undefined

  constructor(kind: TransportKind, served: () => Promise<Served>) {
    this.kind = kind
    this.#served = served
  }

  get emu(): Emulator {
    if (!this.#current) throw new Error('harness not started')
    return this.#current.emu
  }

  get origin(): string {
    if (!this.#current) throw new Error('harness not started')
    return this.#current.origin
  }

  async start(): Promise<void> {
    this.#current = await this.#served()
    const inProcess = this.#current.inProcess
    if (this.kind === 'in-process' && inProcess) {
      // One msw server listening at a time: two at the same origin would take each other's requests.
      this.#msw = setupEmulatorServer(inProcess)
      // onUnhandledRequest under msw 2, onUnhandledFrame under msw 3 (the CI runs both).
      this.#msw.listen(unhandled('error'))
    }
  }

  stop(): void {
    this.#msw?.close()
    this.#msw = undefined
  }

  fetch(path: string, init?: RequestInit): Promise<Response> {
    const url = path.startsWith('http') ? path : `${this.origin}${path}`
    if (this.kind === 'handle') return this.emu.handle(new Request(url, { ...init, ...(init?.body ? { duplex: 'half' } : {}) } as RequestInit))
    // undici's own fetch, which takes a dispatcher of its own version on every Node.js the CI runs.
    const tls = this.#current?.tls
    if (tls) return fetchWith(url, { ...init, dispatcher: tls } as Parameters<typeof fetchWith>[1]) as unknown as Promise<Response>
    return fetch(url, init)
  }

  async control<T = unknown>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
    // A body is JSON; a change without one needs no Content-Type.
    const response = await this.fetch(`/__svc-mock${path}`, {
      method,
      ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    })
    const text = await response.text()
    return { status: response.status, body: (text === '' ? undefined : JSON.parse(text)) as T }
  }
}

/**
 * The emulators of the suites declared in one file (or one describe), by way in and options: the
 * suites there with equal options share one, reset before every test as each suite's own was, and
 * it is closed after the last of them. A new one per suite only made its signing keys again.
 */
const SHARED = new WeakMap<object, WeakMap<object, Map<string, Promise<Served>>>>()
let unshared = 0

/** The options as a key when they are plain data (equal keys, equal emulators); otherwise a key of their own. */
function optionsKey(options: EmulatorOptions): string {
  const plain = (value: unknown): boolean =>
    value === null ||
    ['string', 'number', 'boolean', 'undefined'].includes(typeof value) ||
    (Array.isArray(value) && value.every(plain)) ||
    (typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype && Object.values(value).every(plain))
  return plain(options) ? JSON.stringify(options) : `unshared ${++unshared}`
}

function sharedServed(kind: TransportKind, options: EmulatorOptions): () => Promise<Served> {
  // The runner's collector of a file's top level is one object for every file: the file tells them apart.
  const scope = TestRunner.getCurrentSuite()
  const inFile = SHARED.get(scope.file) ?? new WeakMap<object, Map<string, Promise<Served>>>()
  SHARED.set(scope.file, inFile)
  let served = inFile.get(scope)
  if (!served) {
    const own = new Map<string, Promise<Served>>()
    served = own
    inFile.set(scope, own)
    afterAll(async () => {
      for (const made of own.values()) await (await made).stop()
      own.clear()
    })
  }
  const all = served
  const key = `${kind} ${optionsKey(options)}`
  return () => {
    let made = all.get(key)
    if (!made) {
      made = serve(kind, options)
      all.set(key, made)
    }
    return made
  }
}

/**
 * Declares a suite whose tests run once per way in: in-process, over a socket and through
 * `emu.handle()`, and over HTTPS or on a team too when it declares so (`ways`, given before the
 * body). `body` registers tests with `it()`, using the harness it is given; the emulator is reset
 * before every test (the suites of a file with equal options share it, see SHARED).
 */
export function contract(title: string, body: SuiteBody, options?: EmulatorOptions): void
export function contract(title: string, ways: Ways, body: SuiteBody, options?: EmulatorOptions): void
export function contract(title: string, ...rest: [SuiteBody, EmulatorOptions?] | [Ways, SuiteBody, EmulatorOptions?]): void {
  const [ways, body, options = {}] = typeof rest[0] === 'function' ? [{}, ...(rest as [SuiteBody, EmulatorOptions?])] : (rest as [Ways, SuiteBody, EmulatorOptions?])
  const kinds: TransportKind[] = [...TRANSPORTS, ...(ways.tls === true ? ['server-https' as const] : []), ...(ways.team === true ? ['team' as const] : [])]
  for (const kind of kinds) {
    const served = sharedServed(kind, options)
    describe(`${title} [${kind}]`, () => {
      const harness = new LiveHarness(kind, served)
      beforeAll(() => harness.start())
      afterAll(() => harness.stop())
      beforeEach(() => harness.emu.reset())
      body(harness)
    })
  }
}

export const SEED_ELEMENT = '0f8fad5b-d9cb-469f-a165-70867728950e'
export const VERSIONS = (elementId = SEED_ELEMENT, facet = 'processes', view = 'default', storage = 'acme-collection/acme-tenant'): string =>
  `/${storage}/_api/rest/facets/${facet}/views/${view}/elements/${elementId}/versions`
export const APP_KEY = { authorization: 'AppKey svcmock-app-key' }
export const ALICE_KEY = { authorization: 'Bearer svcmock-user-key-alice' }
export const BOB_KEY = { authorization: 'Bearer svcmock-user-key-bob' }
