/**
 * What a user route answers. A `response` is compiled once, when the route is declared: its
 * status, its headers and body cut into text and placeholders (a body with none is serialized
 * once), a `bodyFile` read once; each request only fills the placeholders in. A `resolve`
 * function gets a Fetch `Request` and the typed context, and its `Response` becomes the answer
 * (`Response.error()` is a network error, as fetch would report it).
 */
import type { Identity } from '../auth/index.js'
import type { Clock } from '../kernel/clock.js'
import type { JsonValue } from '../kernel/json.js'
import type { Logger } from '../kernel/logger.js'
import { type Reply, fault, headersOf, json } from '../kernel/reply.js'
import type { RequestContext } from '../kernel/route.js'
import type { UserRouteResolver } from './context.js'
import { type CompiledJson, type PlaceholderValues, type Rendered, render } from './placeholders.js'
import type { ResourcesApi } from './resources-api.js'

/** A response, compiled. */
export interface CompiledResponse {
  readonly status: number
  readonly headers: ReadonlyArray<readonly [string, Rendered]>
  /**
   * Text made once (a body without placeholders, or a file's bytes) with its type, JSON with
   * placeholders (a string is sent as text), or nothing.
   */
  readonly body: { readonly kind: 'fixed'; readonly bytes: string | Uint8Array; readonly type: string } | { readonly kind: 'json'; readonly value: CompiledJson } | undefined
}

/** The body of a JSON value: a string is text, anything else JSON. */
export function bodyOf(value: JsonValue): { bytes: string; type: string } {
  return typeof value === 'string' ? { bytes: value, type: 'text/plain; charset=utf-8' } : { bytes: JSON.stringify(value), type: 'application/json; charset=utf-8' }
}

/** What an answer reads besides the request. */
export interface AnswerDeps {
  readonly clock: Clock
  readonly uuid: () => string
  readonly resources: ResourcesApi
  readonly logger: Logger
}

function values(ctx: RequestContext, identity: Identity | undefined, deps: AnswerDeps): PlaceholderValues {
  return {
    params: ctx.params,
    query: ctx.url.searchParams,
    identity: identity?.subject ?? '',
    now: () => new Date(ctx.receivedAt).toISOString(),
    uuid: deps.uuid,
  }
}

/** The reply of a compiled response to one request. */
export function respond(response: CompiledResponse, ctx: RequestContext, identity: Identity | undefined, deps: AnswerDeps): Reply {
  let filled: PlaceholderValues | undefined
  const fill = (): PlaceholderValues => (filled ??= values(ctx, identity, deps))
  const headers = headersOf(response.headers.map(([name, value]) => [name, value.length === 1 && typeof value[0] === 'string' ? value[0] : render(value, fill())]))
  const body = response.body
  if (body === undefined) return { status: response.status, headers, body: null }
  const { bytes, type } = body.kind === 'fixed' ? body : bodyOf(body.value.render(fill()))
  if (!headers.has('content-type')) headers.set('content-type', type)
  return { status: response.status, headers, body: bytes }
}

/** The reply of an in-process resolver to one request. */
export async function resolveWith(resolver: UserRouteResolver, routeId: string, ctx: RequestContext, identity: Identity | undefined, deps: AnswerDeps): Promise<Reply> {
  const method = ctx.method
  const hasBody = ctx.body !== null && method !== 'GET' && method !== 'HEAD'
  const bytes = hasBody ? await ctx.body?.bytes() : undefined
  const request = new Request(ctx.url, { method, headers: ctx.headers, ...(bytes === undefined ? {} : { body: bytes as Uint8Array<ArrayBuffer> }), signal: ctx.signal })
  let response: unknown
  try {
    response = await resolver(request, {
      identity,
      params: ctx.params,
      receivedAt: new Date(ctx.receivedAt),
      clock: { now: () => deps.clock.date() },
      resources: deps.resources,
    })
  } catch (error) {
    deps.logger.error(`the resolve() of route ${routeId} threw while answering ${method} ${ctx.url.pathname}`, error)
    return json({ error: 'resolve() threw', route: routeId, message: error instanceof Error ? error.message : String(error) }, { status: 500 })
  }
  if (!(response instanceof Response)) {
    return json({ error: 'resolve() did not return a Response', route: routeId, message: `The resolve() of route ${routeId} must return a Fetch Response (or a promise of one).` }, { status: 500 })
  }
  if (response.type === 'error') return fault('network-error')
  const body = response.body === null ? null : new Uint8Array(await response.arrayBuffer())
  return { status: response.status, headers: headersOf(response.headers), body }
}
