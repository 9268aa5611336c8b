/**
 * What a route is: an id, a method, a path pattern on one of the emulator's origins, and a
 * resolver from the request context to a Fetch Response. Every route is declared once; the msw
 * handlers and the node:http route table are both derived from the same declarations.
 */
import type { HttpError } from './errors.js'
import type { SettingsTree } from './settings.js'

export type HttpMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS'

/** Which of the emulator's addresses serves the route: `{auth_url}`, `{base_url}`, `{webhook_url}`. */
export type OriginKind = 'auth' | 'base' | 'webhook'

export interface RequestContext {
  readonly request: Request
  readonly url: URL
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
  /** Who made the request, once the access gate knows (recorded in the journal, never a secret). */
  identity: string | undefined
  /** The request body as the route understood it, redacted, for the journal. */
  journalBody: unknown
  /** Waits on the emulator clock until `ms` after the request arrived. */
  delay(ms: number): Promise<void>
}

export interface RouteDefinition {
  /** Stable id, `domain.operation`: `versions.list`, `auth.token`, `webhooks.receive`. */
  readonly id: string
  /** HTTP method, or `*` for any. A GET route also answers HEAD. */
  readonly method: HttpMethod | '*'
  /** Path pattern with `:param` segments. */
  readonly path: string
  readonly origin: OriginKind
  /** A short description, shown in the route list and in "closest route" hints. */
  readonly summary: string
  /** Largest request body in bytes; a larger body is refused before or while it is read. */
  readonly bodyLimit?: number
  /** The emulator's own routes: no scenario ever shapes them. */
  readonly control?: boolean
  /** Not recorded in the journal (the journal's own routes, health, the dashboard's files). */
  readonly unjournaled?: boolean
  /** The JSON answer carries secrets (tokens): the journal keeps it with secret fields redacted. */
  readonly secretResponse?: boolean
  resolve(ctx: RequestContext): Promise<Response> | Response
  /** Renders an error thrown while resolving, in this route's wire format. */
  renderError?(error: HttpError, ctx: RequestContext): Response
  /** Names of the domain errors a scenario rule may ask this route for. */
  readonly scenarioErrors?: readonly string[]
  /** Renders a domain error named by a scenario rule (`not-found`, `server-error`, …). */
  scenarioError?(code: string, ctx: RequestContext, message: string | undefined): Response | undefined
  /** The answer to a body over `bodyLimit`. */
  tooLarge?(ctx: RequestContext): Response
}

/** Declares a route; the identity function keeps literal types and reads well at the call site. */
export function defineRoute(route: RouteDefinition): RouteDefinition {
  return route
}
