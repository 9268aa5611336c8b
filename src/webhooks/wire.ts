/**
 * The webhook gateway's wire format, in one place: every status, body text and header the
 * platform answers at `{webhook_url}`. Plain text throughout (`text/plain; charset=utf-8`), as the
 * gateway answers; the texts of the service description are kept byte for byte (`Accepted`,
 * `Queue is full.`, `Action Flow failed to complete.`), the rest are svc-mock's decisions
 * (docs/assumptions.md, "Webhooks").
 */
import { ApiAccessError } from '../auth/index.js'
import { REASON_HEADER } from '../kernel/constants.js'
import { HttpError, PayloadTooLargeError } from '../kernel/errors.js'
import { headersOf, type Reply, reply, text } from '../kernel/reply.js'
import type { ResponseStep } from './model.js'

export const ACCEPTED_TEXT = 'Accepted'
export const GONE_TEXT = 'Webhook not found.'
export const QUEUE_FULL_TEXT = 'Queue is full.'
export const FLOW_FAILED_TEXT = 'Action Flow failed to complete.'
export const TIMED_OUT_TEXT = 'Action Flow did not respond in time.'
export const UNAUTHORIZED_TEXT = 'Unauthorized'
export const TOO_LARGE_TEXT = 'Payload Too Large'

/** Methods the gateway accepts a call with (OPTIONS is answered on its own). */
export const CALL_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'] as const
export const CORS_METHODS = 'GET, PUT, POST, PATCH, DELETE, HEAD, OPTIONS'

/** The gateway's mark on a call to a webhook secured for public use that carried a good credential: on the call the flow receives, and on the answer. */
export const AUTHENTICATED_HEADER = 'x-service-authenticated'

export type WebhookProblem = 'gone' | 'unauthorized' | 'malformed' | 'invalid' | 'queue-full' | 'method'

/** A refusal of a webhook call: status and the gateway's text. */
export class WebhookError extends HttpError<'ERR_WEBHOOK'> {
  readonly code = 'ERR_WEBHOOK'
  readonly status: number
  readonly problem: WebhookProblem
  readonly body: string
  readonly reason: string | undefined
  constructor(problem: WebhookProblem, status: number, body: string, reason?: string) {
    super(reason ?? body)
    this.problem = problem
    this.status = status
    this.body = body
    this.reason = reason
  }
  toReply(): Reply {
    const headers: Record<string, string> = {}
    if (this.reason !== undefined) headers[REASON_HEADER] = this.reason
    if (this.problem === 'method') headers.allow = `${CALL_METHODS.join(', ')}, OPTIONS`
    return text(this.body, { status: this.status, headers })
  }
}

export const webhookGone = (): WebhookError => new WebhookError('gone', 410, GONE_TEXT)
export const queueFull = (): WebhookError => new WebhookError('queue-full', 400, QUEUE_FULL_TEXT)
export const unauthorized = (reason: string): WebhookError => new WebhookError('unauthorized', 401, UNAUTHORIZED_TEXT, reason)
/** A body that cannot be read as its Content-Type says: 400 with the reason as the body. */
export const malformedBody = (reason: string): WebhookError => new WebhookError('malformed', 400, reason)
export const methodNotAllowed = (method: string): WebhookError =>
  new WebhookError('method', 405, `Method ${method} is not accepted by webhooks.`)

/** `Validation failed for N parameter(s). <one sentence per failing field>` */
export function validationFailed(problems: readonly string[]): WebhookError {
  return new WebhookError('invalid', 400, `Validation failed for ${problems.length} parameter(s). ${problems.join(' ')}`)
}

/** One reply for every accepted call: a reply is a value, never changed once made. */
const ACCEPTED = text(ACCEPTED_TEXT, { status: 200 })

export function accepted(): Reply {
  return ACCEPTED
}

/** The webhook-response step's answer: its status, its headers, its body (JSON unless text). */
export function respond(step: ResponseStep): Reply {
  const headers = headersOf(step.headers)
  const noBody = step.status === 204 || step.status === 205 || step.status === 304
  let body: string | null = null
  if (!noBody && typeof step.body === 'string') {
    body = step.body
    if (!headers.has('content-type')) headers.set('content-type', 'text/plain; charset=utf-8')
  } else if (!noBody && step.body !== undefined && step.body !== null) {
    body = JSON.stringify(step.body)
    if (!headers.has('content-type')) headers.set('content-type', 'application/json; charset=utf-8')
  }
  return reply(body, { status: step.status, headers })
}

export function flowFailed(): Reply {
  return text(FLOW_FAILED_TEXT, { status: 500 })
}

export function timedOut(): Reply {
  return text(TIMED_OUT_TEXT, { status: 500 })
}

/** 413. Over a socket the server reads the rest of the upload (bounded) before it closes the connection or keeps it (adapters/node-http.ts). */
export function tooLarge(): Reply {
  return text(TOO_LARGE_TEXT, { status: 413 })
}

/** A refused call in the gateway's words: the gate's refusal of a secured webhook is its plain 401, a body past the limit its 413. */
export function renderCallError(error: HttpError): Reply {
  if (error instanceof ApiAccessError) return unauthorized(error.message).toReply()
  if (error instanceof PayloadTooLargeError) return tooLarge()
  return error.toReply()
}

/** CORS preflight: 200 `ok`. */
export function preflight(headers: Headers): Reply {
  return text('ok', {
    status: 200,
    headers: {
      'access-control-allow-origin': '*',
      'access-control-allow-methods': CORS_METHODS,
      'access-control-allow-headers': headers.get('access-control-request-headers') ?? '*',
      'access-control-max-age': '86400',
    },
  })
}
