/**
 * msw's `RequestHandler` class, the base of svc-mock's own msw handlers (msw's documented
 * extension point, the same in msw 2 and 3). msw 2's main entry (`msw`) also loads its GraphQL
 * support and the whole `graphql` package in every test file that imports it
 * (docs/decisions/speed-mechanisms.md has the cost), and no other entry of msw 2 exports the class. `msw/core/http` loads without GraphQL
 * and its handlers extend the class, so where that entry exists (msw 2; msw 3 has none) the class
 * is taken from one of them (checked by name; failing that, from the main entry). msw 3's main
 * entry loads GraphQL only when it is used.
 */
import type { RequestHandler as MswRequestHandler } from 'msw'

/** msw 2's entry for `http` alone (a name in a variable: msw 3 has no such entry, and src/ type-checks against both). */
const MSW2_HTTP_ENTRY = 'msw/core/http'

async function requestHandlerClass(): Promise<typeof MswRequestHandler> {
  try {
    const { http } = (await import(MSW2_HTTP_ENTRY)) as { http: { all: (path: string, resolver: () => undefined) => object } }
    const base: unknown = Object.getPrototypeOf(http.all('*', () => undefined).constructor)
    if (typeof base === 'function' && base.name === 'RequestHandler') return base as typeof MswRequestHandler
  } catch {
    // msw 3, or an msw 2 without that entry (the peer range starts at 2.10, which has it): the main entry.
  }
  return (await import('msw')).RequestHandler
}

export const RequestHandler = await requestHandlerClass()
