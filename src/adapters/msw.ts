/**
 * The in-process transport, and `svc-mock/msw`: one msw handler per origin the emulator serves,
 * each translating the intercepted Request for `serve()` and its Reply back into what msw hands
 * the caller (a network error for a network fault). Routing, unknown paths (404 with the closest
 * route) and wrong methods (405 with Allow) are the pipeline's, as on the socket. Works with msw 2
 * and msw 3: `unhandled()` gives the `listen()` option the installed major understands.
 */
import { http, HttpResponse, type RequestHandler } from 'msw'
import { setupServer } from 'msw/node'
import type { EmulatorCore } from '../emulator-api.js'
import { isNetworkFault, toFetchResponse } from '../kernel/reply.js'
import { incomingOf } from '../kernel/request.js'
import { type UnhandledCallback, type UnhandledStrategy, unhandledListenOption } from './msw-compat.js'

export { MswMissingError, mswMajor, type MswMajor, type UnhandledCallback, type UnhandledPrint, type UnhandledStrategy } from './msw-compat.js'

export function mswHandlers(emu: Pick<EmulatorCore, 'serve' | 'origins'>): RequestHandler[] {
  return emu.origins().map((origin) =>
    // A RegExp with no groups: msw (2 and 3) then matches without decoding the path, which a
    // malformed escape (`%E2%82`) would make throw before the pipeline could answer it.
    http.all(new RegExp(`^${origin.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/`), async ({ request }) => {
      const reply = await emu.serve(incomingOf(request), 'in-process')
      return isNetworkFault(reply) ? HttpResponse.error() : toFetchResponse(reply, request.method)
    }),
  )
}

export type EmulatorMswServer = ReturnType<typeof setupServer>

/** The options of `server.listen()` for the installed msw. */
export type MswListenOptions = NonNullable<Parameters<EmulatorMswServer['listen']>[0]>

/** Wires an emulator's handlers into a new msw `setupServer` (not yet listening). */
export function setupEmulatorServer(emulator: { readonly handlers: readonly RequestHandler[] }): EmulatorMswServer {
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
