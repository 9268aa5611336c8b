/**
 * The in-process transport: one msw handler per origin the emulator serves, each translating the
 * intercepted Request for `serve()` and its Reply back into what msw hands the caller (a network
 * error for a network fault). Routing, unknown paths (404 with the closest route) and wrong methods
 * (405 with Allow) are the pipeline's, as on the socket.
 */
import { http, HttpResponse, type RequestHandler } from 'msw'
import { setupServer } from 'msw/node'
import type { EmulatorCore } from '../emulator-api.js'
import { isNetworkFault, toFetchResponse } from '../kernel/reply.js'
import { incomingOf } from '../kernel/request.js'

export function mswHandlers(emu: Pick<EmulatorCore, 'serve' | 'origins'>): RequestHandler[] {
  return emu.origins().map((origin) =>
    http.all(`${origin}/*`, async ({ request }) => {
      const reply = await emu.serve(incomingOf(request), 'in-process')
      return isNetworkFault(reply) ? HttpResponse.error() : toFetchResponse(reply, request.method)
    }),
  )
}

export type EmulatorMswServer = ReturnType<typeof setupServer>

/** Wires an emulator's handlers into a new msw `setupServer` (not yet listening). */
export function setupEmulatorServer(emulator: { readonly handlers: readonly RequestHandler[] }): EmulatorMswServer {
  return setupServer(...emulator.handlers)
}
