/**
 * The msw handler `useEmulator()` puts after the emulator's own: it takes every request to an
 * origin the test did not allow and answers it with a network error (msw's `error` behaviour for
 * unhandled requests, the same under msw 2 and 3), so a stray request never reaches the real
 * network, however the test treats the failure. Requests to allowed origins (the user's own app
 * server) are left to msw, which lets them through.
 */
import { RequestHandler } from './msw-request-handler.js'

export interface StrayRequestsInfo {
  /** What msw prints for this handler (`server.listHandlers()`). */
  readonly header: string
}

export class StrayRequestsHandler extends RequestHandler<StrayRequestsInfo, Record<string, never>, Record<string, never>> {
  readonly #allowed: ReadonlySet<string>

  /** `allowed`: origins (`http://localhost:3000`) whose requests go out; `onStray` hears of each blocked request. */
  constructor(allowed: ReadonlySet<string>, onStray: (request: Request) => void) {
    super({
      info: { header: 'svc-mock: requests to other origins (blocked)' },
      resolver: ({ request }) => {
        onStray(request)
        return Response.error()
      },
    })
    this.#allowed = allowed
  }

  /** Every request but those to an allowed origin (CONNECT names an authority, not a URL: a proxy tunnel). */
  predicate({ request }: { request: Request }): boolean {
    return request.method !== 'CONNECT' && !this.#allowed.has(new URL(request.url).origin)
  }

  /** Blocked requests are reported by `onStray`, not in msw's log. */
  log(): void {}
}

/** The origins of `otherOrigins` entries (`http://localhost:3000/any/path` allows `http://localhost:3000`). */
export function originsOf(entries: readonly string[]): Set<string> {
  if (!Array.isArray(entries)) {
    throw new TypeError(`useEmulator({ otherOrigins }) takes a list of origins to let through, such as ['http://localhost:3000']; got ${JSON.stringify(entries)}.`)
  }
  return new Set(
    entries.map((entry) => {
      try {
        return new URL(entry).origin
      } catch {
        throw new TypeError(`useEmulator({ otherOrigins }): "${entry}" is not an origin; write it as a URL, such as http://localhost:3000.`)
      }
    }),
  )
}
