/**
 * `emu.handle(request)`: the emulator answering a Fetch `Request` with a Fetch `Response` and no
 * transport at all, as fetch would (a network fault rejects with a TypeError).
 */
import type { Emulator, EmulatorCore } from '../emulator-api.js'
import { isNetworkFault, toFetchResponse } from '../kernel/reply.js'
import { incomingOf } from '../kernel/request.js'

/** The emulator with `handle()` added. */
export function withFetch(core: EmulatorCore): EmulatorCore & Emulator {
  return Object.assign(core, {
    handle: async (request: Request): Promise<Response> => {
      const reply = await core.serve(incomingOf(request), 'in-process')
      // Like fetch: a connection that failed on purpose is a rejection, not a response.
      if (isNetworkFault(reply)) {
        throw new TypeError('fetch failed', { cause: new Error(`svc-mock closed the connection without answering (fault "${reply.fault ?? ''}")`) })
      }
      return toFetchResponse(reply, request.method)
    },
  })
}
