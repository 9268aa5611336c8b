/**
 * Journaling an answered request: the pipeline's last step. It hands the journal the raw parts of
 * the request and its answer and, when logging is on, logs the line read from that record
 * (journal-entry.ts).
 */
import type { Clock } from './clock.js'
import type { Journal, Transport } from './journal.js'
import type { Logger } from './logger.js'
import { type Reply, fixedBody } from './reply.js'
import type { IncomingRequest } from './request.js'
import type { RequestContext, RouteDefinition } from './route.js'
import type { NearMiss } from './unmatched.js'

/** One request and what the pipeline knows of it once it is answered (the answer itself is the `Reply`). */
export interface AnsweredRequest {
  readonly request: IncomingRequest
  readonly transport: Transport
  /** The route's id, or `unmatched`. */
  readonly routeId: string
  readonly receivedAt: number
  readonly scenarios: readonly string[]
  /** The route's context, when a route ran: who made the request, and the body as the route understood it. */
  readonly ctx?: RequestContext | undefined
  readonly definition?: RouteDefinition | undefined
  /** For a request no route answered. */
  readonly nearMiss?: NearMiss | undefined
}

/** Records an answered request in the journal and logs it. */
export function recordAnswered(services: { readonly journal: Journal; readonly logger: Logger; readonly clock: Clock }, reply: Reply, answered: AnsweredRequest): void {
  const { journal, logger, clock } = services
  const { request, definition, ctx } = answered
  const failed = reply.fault !== undefined && reply.fault !== 'cut-body'
  const record = {
    receivedAt: answered.receivedAt,
    route: answered.routeId,
    method: request.method,
    url: request.url.href,
    status: failed ? 0 : reply.status,
    identity: ctx?.identity ?? null,
    scenarios: answered.scenarios,
    durationMs: clock.now() - answered.receivedAt,
    transport: answered.transport,
    requestHeaders: request.headers,
    requestBody: ctx?.journalBody,
    responseHeaders: failed ? undefined : reply.headers,
    responseBody: definition?.control ? undefined : fixedBody(reply),
    secretResponse: definition?.secretResponse === true,
    foreign: definition?.foreign === true,
    requestBytes: request.body?.kept(),
    nearMiss: answered.nearMiss,
  }
  journal.record(record)
  if (logger.format !== 'silent') logger.request(journal.line(record))
}
