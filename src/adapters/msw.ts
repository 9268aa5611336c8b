/**
 * The in-process transport, and `svc-mock/msw`: one msw handler per origin the emulator serves,
 * each translating the intercepted Request for `serve()` and its Reply back into what msw hands
 * the caller (a network error for a network fault). Routing, unknown paths (404 with the closest
 * route) and wrong methods (405 with Allow) are the pipeline's, as on the socket. Works with msw 2
 * and msw 3: `unhandled()` gives the `listen()` option the installed major understands.
 */
import type { RequestHandler as MswRequestHandler } from 'msw'
import { setupServer } from 'msw/node'
import type { EmulatorCore } from '../emulator-api.js'
import { isNetworkFault, toFetchResponse } from '../kernel/reply.js'
import { incomingOf } from '../kernel/request.js'
import { type UnhandledCallback, type UnhandledStrategy, mswMajor, unhandledListenOption } from './msw-compat.js'

/** msw 2's entry for `http` alone (a name in a variable: msw 3 has no such entry, and src/ type-checks against both). */
const MSW2_HTTP_ENTRY = 'msw/core/http'

/**
 * msw's `RequestHandler` class, which `EmulatorHandler` extends. msw 2's main entry (`msw`) also
 * loads its GraphQL support and the whole `graphql` package in every test file that imports it
 * (bench/README.md has the cost), and no other entry of msw 2 exports the class. `msw/core/http` loads without GraphQL and its handlers
 * extend the class, so under msw 2 the class is taken from one of them (checked by name; failing
 * that, or where that entry cannot load, from the main entry). msw 3's main entry loads GraphQL
 * only when it is used.
 */
async function requestHandlerClass(): Promise<typeof MswRequestHandler> {
  if (mswMajor() === 2) {
    try {
      const { http } = (await import(MSW2_HTTP_ENTRY)) as { http: { all: (path: string, resolver: () => undefined) => object } }
      const base: unknown = Object.getPrototypeOf(http.all('*', () => undefined).constructor)
      if (typeof base === 'function' && base.name === 'RequestHandler') return base as typeof MswRequestHandler
    } catch {
      // An msw 2 without that entry (the peer range starts at 2.10, which has it): the main entry.
    }
  }
  return (await import('msw')).RequestHandler
}

const RequestHandler = await requestHandlerClass()

export { MswMissingError, mswMajor, type MswMajor, type UnhandledCallback, type UnhandledPrint, type UnhandledStrategy } from './msw-compat.js'

/**
 * One handler per origin: a request is the emulator's when its URL starts with `origin/`. A
 * custom msw handler (msw's documented `RequestHandler` extension point, the same in msw 2 and 3)
 * rather than `http.all()`: the emulator routes, reads no cookies and needs no path parameters, so
 * it skips what `http.*` handlers do for every request they are offered (a `URL` parse, msw's
 * cookie store lookup, a path-to-regexp match). A malformed escape (`%E2%82`) is never decoded
 * here, so it reaches the pipeline, which answers it.
 */
export class EmulatorHandler extends RequestHandler<EmulatorHandlerInfo, Record<string, never>, Record<string, never>> {
  readonly #prefix: string

  constructor(origin: string, serve: EmulatorCore['serve']) {
    super({
      info: { header: `svc-mock ${origin}/*`, origin },
      resolver: async ({ request }) => {
        const reply = await serve(incomingOf(request), 'in-process')
        return isNetworkFault(reply) ? Response.error() : toFetchResponse(reply, request.method)
      },
    })
    this.#prefix = `${origin}/`
  }

  /** The emulator takes every method on its origin (CONNECT names an authority, not a URL). */
  predicate({ request }: { request: Request }): boolean {
    return request.url.startsWith(this.#prefix) && request.method !== 'CONNECT'
  }

  /** msw's one-line report of a handled request (printed by `setupWorker` unless quiet). */
  log({ request, response }: { request: Request; response: Response }): void {
    console.log(`[MSW] ${request.method} ${request.url} (${response.status} ${response.statusText}) by ${this.info.header}`)
  }
}

export interface EmulatorHandlerInfo {
  /** What msw prints for this handler (`server.listHandlers()`). */
  readonly header: string
  /** The origin whose every path the handler takes. */
  readonly origin: string
}

export function mswHandlers(emu: Pick<EmulatorCore, 'serve' | 'origins'>): MswRequestHandler[] {
  const serve = emu.serve.bind(emu)
  return emu.origins().map((origin) => new EmulatorHandler(origin, serve))
}

export type EmulatorMswServer = ReturnType<typeof setupServer>

/** The options of `server.listen()` for the installed msw. */
export type MswListenOptions = NonNullable<Parameters<EmulatorMswServer['listen']>[0]>

/** Wires an emulator's handlers into a new msw `setupServer` (not yet listening). */
export function setupEmulatorServer(emulator: { readonly handlers: readonly MswRequestHandler[] }): EmulatorMswServer {
  return setupServer(...emulator.handlers)
}

/**
 * `server.listen(unhandled('error'))`: the option for requests no handler takes, under the name
 * the installed msw reads (`onUnhandledRequest` in msw 2, `onUnhandledFrame` in msw 3), so the
 * same test code fails a stray request under both. A callback receives the request and msw's
 * printers under both majors.
 */
export function unhandled(handle: UnhandledStrategy | UnhandledCallback): MswListenOptions {
  return unhandledListenOption(handle) as MswListenOptions
}
