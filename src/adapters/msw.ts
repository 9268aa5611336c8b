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
import { type UnhandledCallback, type UnhandledStrategy, unhandledListenOption } from './msw-compat.js'
import { RequestHandler } from './msw-request-handler.js'

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

/**
 * Wires emulators' handlers into a new msw `setupServer` (not yet listening). Several emulators
 * with origins of their own (teams: docs/teams.md) share one server: each handler takes only its
 * own origin.
 */
export function setupEmulatorServer(...emulators: ReadonlyArray<{ readonly handlers: readonly MswRequestHandler[] }>): EmulatorMswServer {
  return setupServer(...emulators.flatMap((emulator) => emulator.handlers))
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
