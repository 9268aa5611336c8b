/**
 * What a route is: an id, a method, a path pattern on one of the emulator's named addresses, and a
 * resolver from the request context to a `Reply`. Every route is declared once, by the domain that
 * owns it; the pipeline (`serve`) is the only thing that matches and runs them, for every
 * transport.
 */
import type { z } from 'zod'
import type { HttpError } from './errors.js'
import type { Reply } from './reply.js'
import type { RequestBody } from './request.js'
import type { CompiledPattern } from './router.js'
import type { SettingsTree } from './settings.js'

/** How a request came in: `in-process` (msw, `emu.handle()`) or `server` (a socket). */
export type Transport = 'in-process' | 'server'

export type HttpMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS'

export interface RequestContext {
  readonly method: string
  readonly transport: Transport
  readonly url: URL
  readonly headers: Headers
  /** The body, or null when the request has none; reads are bounded by the route's `bodyLimit`. */
  readonly body: RequestBody | null
  readonly routeId: string
  readonly params: Readonly<Record<string, string>>
  /** Emulator time (epoch ms) when the request arrived. */
  readonly receivedAt: number
  /** Settings in effect for this request: the run's settings with its active scenarios applied. */
  readonly settings: SettingsTree
  /** Names of the scenarios active for this request. */
  readonly scenarios: readonly string[]
  /** Aborted when the client goes away. */
  readonly signal: AbortSignal
  /** Headers added to whatever the route answers (e.g. `Deprecation: true` on static-key calls). */
  readonly responseHeaders: Headers
  /** Who made the request, once known (recorded in the journal, never a secret). */
  identity: string | undefined
  /** The request body as the route understood it, for the journal (redacted when read). */
  journalBody: unknown
  /**
   * Waits on the emulator clock until `ms` after the request arrived (the request counts as parked
   * meanwhile: `advance()` does not wait for it). Rejects when the client goes away, or `until` aborts.
   */
  delay(ms: number, until?: AbortSignal): Promise<void>
}

/** A response of a route, for the OpenAPI document. */
export interface ResponseDoc {
  /** A name, for a response many routes share: documents then say it once and refer to it. */
  readonly name?: string
  readonly description: string
  /** Body schemas by media type (`application/json`, `text/plain`, `text/html`). */
  readonly content?: Readonly<Record<string, z.ZodType>>
  /** Response headers worth knowing, by name: what each one says. */
  readonly headers?: Readonly<Record<string, string>>
}

/**
 * What the OpenAPI document says of a route, beside its method, path and summary: the zod schemas
 * of its query, headers, body and answers (the schemas that check them, where there is one), so
 * the document is generated, never written by hand.
 */
export interface RouteDoc {
  /** More than the summary: behaviour, defaults, what each error means. */
  readonly description?: string
  /** Groups in the document. */
  readonly tags?: readonly string[]
  /** What each `:param` of the path is. */
  readonly params?: Readonly<Record<string, string>>
  /** Query parameters: one per property. */
  readonly query?: z.ZodObject
  /** Request headers, one per property (lower-case names). */
  readonly headers?: z.ZodObject
  /** Body schemas by media type; the body is optional unless `bodyRequired`. */
  readonly body?: Readonly<Record<string, z.ZodType>>
  readonly bodyRequired?: boolean
  /** Answers by status code (`200`, `4XX`, `default`). */
  readonly responses: Readonly<Record<string, ResponseDoc>>
  /** Names of the document's security schemes, any one of which the route accepts; `[]`: none needed. */
  readonly security?: readonly string[]
}

export interface RouteDefinition {
  /** Stable id, `domain.operation`: `versions.list`, `auth.token`, `webhooks.receive`. */
  readonly id: string
  /** HTTP method, or `*` for any. A GET route also answers HEAD. */
  readonly method: HttpMethod | '*'
  /** Path pattern with `:param` segments. */
  readonly path: string
  /** The name of the address that serves the route (the composition root maps names to origins). */
  readonly origin: string
  /** A short description, shown in the route list and in "closest route" hints. */
  readonly summary: string
  /** Largest request body in bytes; a larger body is refused before or while it is read. */
  readonly bodyLimit?: number
  /**
   * The emulator's own routes: no scenario ever shapes them, and the first segment of their paths
   * is reserved (matched before any other route; no other route answers a path under it).
   */
  readonly control?: boolean
  /** Not recorded in the journal (the journal's own routes, health, the dashboard's files). */
  readonly unjournaled?: boolean
  /** The JSON answer carries secrets (tokens): the journal keeps it with secret fields redacted. */
  readonly secretResponse?: boolean
  /**
   * An exchange with a real service (a proxy): the journal and the logs show it through the
   * redactor's `foreign()` view, whose names and credentials svc-mock cannot know in advance.
   */
  readonly foreign?: boolean
  /**
   * Groups the route belongs to, which a scenario selects as `@tag` (the auth domain tags every
   * route its gate guards `gated`, so a gate scenario reaches each of them).
   */
  readonly tags?: readonly string[]
  resolve(ctx: RequestContext): Promise<Reply> | Reply
  /**
   * Renders an error thrown while resolving, in this route's wire format: a domain's error, the
   * gate's refusal, a body over `bodyLimit` (`PayloadTooLargeError`). Without it, `error.toReply()`.
   */
  renderError?(error: HttpError, ctx: RequestContext): Reply
  /** Names of the domain errors a scenario rule may ask this route for. */
  readonly scenarioErrors?: readonly string[]
  /** Renders a domain error named by a scenario rule (`not-found`, `server-error`, …). */
  scenarioError?(code: string, ctx: RequestContext, message: string | undefined): Reply | undefined
}

/** A route with its path pattern compiled, as the pipeline matches it. */
export interface CompiledRoute {
  readonly definition: RouteDefinition
  readonly pattern: CompiledPattern
}

/** A route as a scenario selects it: its id and its tags. */
export interface RouteRef {
  readonly id: string
  readonly tags?: readonly string[] | undefined
}

/** `routeMatches()` for a route id, and `@tag` for every route that carries the tag. */
export function routeSelected(pattern: string, route: RouteRef): boolean {
  if (pattern.startsWith('@')) return route.tags?.includes(pattern.slice(1)) ?? false
  return routeMatches(pattern, route.id)
}

/** `versions.list` matches itself; `versions.*` or `versions` match every versions route; `*` all. */
export function routeMatches(pattern: string, routeId: string): boolean {
  if (pattern === '*' || pattern === routeId) return true
  if (pattern.endsWith('*')) return routeId.startsWith(pattern.slice(0, -1))
  return routeId.startsWith(`${pattern}.`)
}
