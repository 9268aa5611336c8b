/**
 * The platform API's wire format for access, in one place: the who-am-I answer (the team), and
 * its common error catalogue: 401
 * `{"error":"Unauthorized"}` with `WWW-Authenticate: Bearer`, the documented 401 text for a
 * malformed header, 403 `ADMIN_ACCESS_ERROR`, 429 `LIMIT_RATE_EXCEEDED` with the rate-limit
 * headers. Routes with their own error body (the versions operation) render the access errors
 * and the 429 their way from `status` and `message`, with the same headers.
 */
import { REASON_HEADER } from '../kernel/constants.js'
import { HttpError } from '../kernel/errors.js'
import { headerValue, headersOf, json, type Reply, text } from '../kernel/reply.js'

export type ApiAccessProblem =
  | 'missing-credential'
  | 'malformed-header'
  | 'unknown-credential'
  | 'static-keys-rejected'
  | 'invalid-token'
  | 'expired-token'
  | 'insufficient-scope'
  | 'missing-permission'

/** The exact text the platform answers for an Authorization header with an unknown scheme. */
export const MALFORMED_HEADER_TEXT =
  'Invalid "Authorization" header format. Should start either with "Bearer " or "AppKey " (case insensitive).'

export class ApiAccessError extends HttpError<'ERR_API_ACCESS'> {
  readonly code = 'ERR_API_ACCESS'
  readonly status: 401 | 403
  readonly problem: ApiAccessProblem
  constructor(problem: ApiAccessProblem, message: string) {
    super(message)
    this.problem = problem
    this.status = problem === 'insufficient-scope' || problem === 'missing-permission' ? 403 : 401
  }

  /**
   * Headers every rendering of this error carries: the reason (for test authors), and on a 401 a
   * challenge (RFC 9110: every 401 carries one), `invalid_token` with a description for a token
   * that is expired or not valid (RFC 6750 section 3; its characters kept to what the RFC allows).
   */
  headers(): Headers {
    const headers = headersOf({ [REASON_HEADER]: this.message })
    if (this.status === 401) {
      const tokenProblem = this.problem === 'invalid-token' || this.problem === 'expired-token'
      const description = headerValue(this.message).replace(/["\\]/g, "'")
      headers.set('www-authenticate', tokenProblem ? `Bearer error="invalid_token", error_description="${description}"` : 'Bearer')
    }
    return headers
  }

  /**
   * What the platform's own body says of this refusal: its documented texts (a malformed header,
   * discontinued static keys), otherwise only `Unauthorized` or `Access is denied`. The reason
   * svc-mock knows goes in `x-svc-mock-reason`, never in the body.
   */
  platformText(): string {
    if (this.problem === 'malformed-header') return MALFORMED_HEADER_TEXT
    if (this.problem === 'static-keys-rejected') return this.message
    return this.status === 403 ? 'Access is denied' : 'Unauthorized'
  }

  toReply(): Reply {
    const headers = this.headers()
    if (this.problem === 'malformed-header') return text(MALFORMED_HEADER_TEXT, { status: 401, headers })
    if (this.status === 403) {
      return json({ title: 'Access Denied.', status: 403, detail: 'Access is denied', errorCode: 'ADMIN_ACCESS_ERROR' }, { status: 403, headers })
    }
    if (this.problem === 'static-keys-rejected') return json({ error: 'Unauthorized', message: this.message }, { status: 401, headers })
    return json({ error: 'Unauthorized' }, { status: 401, headers })
  }
}

/** 200 from the who-am-I probe `GET /api/cloud/team`: the team the credential belongs to. */
export function platformTeamBody(team: { id: string; name: string; domain: string }): Reply {
  return json(team)
}

/** The rate-limit headers of the platform: on every answer while a limit is set, and on the 429. */
export function rateLimitHeaders(limit: number, remaining: number, resetSeconds?: number): Record<string, string> {
  return {
    'x-ratelimit-limit': String(limit),
    'x-ratelimit-remaining': String(remaining),
    ...(resetSeconds === undefined ? {} : { 'x-ratelimit-reset': String(resetSeconds) }),
  }
}

/** 429 from the platform's rate limit: the same headers on every route, the gateway's body unless the route has its own error body. */
export class RateLimitError extends HttpError<'ERR_RATE_LIMIT'> {
  readonly code = 'ERR_RATE_LIMIT'
  readonly status = 429
  readonly limit: number
  readonly resetSeconds: number
  constructor(message: string, limit: number, resetSeconds: number) {
    super(message)
    this.limit = limit
    this.resetSeconds = resetSeconds
  }

  /** The rate-limit headers (with `x-ratelimit-reset`) and the reason: every rendering of a 429 carries them. */
  headers(): Headers {
    return headersOf({ ...rateLimitHeaders(this.limit, 0, this.resetSeconds), [REASON_HEADER]: this.message })
  }

  toReply(): Reply {
    return json({ title: 'Rate limit exceeded', status: 429, detail: this.message, errorCode: 'LIMIT_RATE_EXCEEDED' }, { status: 429, headers: this.headers() })
  }
}
