/**
 * The in-process transport: msw request handlers derived from the route registry, one per route
 * on its origin, plus a catch-all per origin that answers unknown paths as the server does (404
 * with the closest route, 405 with Allow). Each handler only translates: the shared dispatcher
 * answers.
 */
import { http, HttpResponse, type RequestHandler } from 'msw'
import { setupServer } from 'msw/node'
import type { EmulatorCore } from '../emulator.js'
import { faultOf, materialize } from '../kernel/http.js'

const METHODS = {
  GET: http.get,
  HEAD: http.head,
  POST: http.post,
  PUT: http.put,
  PATCH: http.patch,
  DELETE: http.delete,
  OPTIONS: http.options,
  '*': http.all,
} as const

/** Turns a dispatcher answer into what msw hands to the caller (HEAD answers carry no body). */
export function toMswResponse(response: Response, method: string): Response {
  const fault = faultOf(response)
  if (fault === 'network-error' || fault === 'empty-reply') return HttpResponse.error()
  if (method === 'HEAD') return new Response(null, { status: response.status, statusText: response.statusText, headers: response.headers })
  return materialize(response)
}

export function mswHandlers(emu: EmulatorCore): RequestHandler[] {
  const handlers: RequestHandler[] = []
  for (const route of emu.dispatcher.routes) {
    const { definition, pattern } = route
    const origin = emu.originOf(definition.origin)
    handlers.push(
      METHODS[definition.method](`${origin}${definition.path}`, async ({ request }) => {
        const url = new URL(request.url)
        const params = pattern.match(url.pathname)
        if (!params) return undefined
        return toMswResponse(await emu.dispatcher.dispatch(route, params, request, url, 'in-process'), request.method)
      }),
    )
  }
  for (const origin of new Set(Object.values(emu.urls))) {
    handlers.push(http.all(`${origin}/*`, async ({ request }) => toMswResponse(await emu.handleWith(request, 'in-process'), request.method)))
  }
  return handlers
}

export type EmulatorMswServer = ReturnType<typeof setupServer>

/** Wires an emulator's handlers into a new msw `setupServer` (not yet listening). */
export function setupEmulatorServer(emulator: { readonly handlers: readonly RequestHandler[] }): EmulatorMswServer {
  return setupServer(...emulator.handlers)
}
