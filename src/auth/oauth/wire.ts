/**
 * The OAuth server's wire format, in one place. The token endpoint: the token response
 * `{access_token, scope, token_type: "Bearer", expires_in}` (+ `refresh_token`), RFC 6749 section 5.2 errors
 * `{"error": "...", "error_description": "..."}`, 400 except `invalid_client` (401, with
 * `WWW-Authenticate: Basic` when the client tried the Authorization header, RFC 6749 section 5.2),
 * and `Cache-Control: no-store` on every answer. The factories
 * (`invalidGrant`, `invalidRequest`, …) keep call sites short and each description says what to fix.
 * Also the authorize step's two kinds of error: a redirect to the client with `error`,
 * `error_description` and `state` (RFC 6749 section 4.1.2.1), or an HTML page when the client or
 * its redirect URI cannot be trusted (never a redirect then).
 */
import { HttpError } from '../../kernel/errors.js'
import { empty, json, type Reply } from '../../kernel/reply.js'
import { errorPage } from './pages.js'
import { redirectTo } from './redirect-uris.js'

export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'invalid_scope'
  | 'server_error'
  | 'authorization_pending'
  | 'slow_down'
  | 'access_denied'
  | 'expired_token'

/** The token endpoint's answer, the same for every grant. */
export interface TokenResponse {
  access_token: string
  scope: string
  token_type: 'Bearer'
  expires_in: number
  refresh_token?: string
}

/** Headers of every token endpoint answer: tokens must never be cached. */
export const NO_STORE = { 'cache-control': 'no-store', pragma: 'no-cache' } as const

/** The realm named in `WWW-Authenticate: Basic` on `invalid_client`. */
export const BASIC_CHALLENGE = 'Basic realm="oauth2/token", charset="UTF-8"'

export class OAuthError extends HttpError<'ERR_OAUTH'> {
  readonly code = 'ERR_OAUTH'
  readonly status: number
  readonly error: OAuthErrorCode
  readonly description: string
  constructor(error: OAuthErrorCode, description: string) {
    super(`${error}: ${description}`)
    this.error = error
    this.description = description
    this.status = error === 'invalid_client' ? 401 : error === 'server_error' ? 500 : 400
  }

  toReply(): Reply {
    return json({ error: this.error, error_description: this.description }, { status: this.status, headers: NO_STORE })
  }

  /**
   * The answer to a request: `invalid_client` carries the Basic challenge only when the client
   * tried the Authorization header, so clients that authenticate in the body (Client secret post)
   * see the body's error, as openid-client and oauth4webapi expect.
   */
  replyTo(headers: Headers): Reply {
    const reply = this.toReply()
    if (this.error === 'invalid_client' && headers.has('authorization')) reply.headers.set('www-authenticate', BASIC_CHALLENGE)
    return reply
  }
}

export const invalidRequest = (description: string): OAuthError => new OAuthError('invalid_request', description)
export const invalidClient = (description: string): OAuthError => new OAuthError('invalid_client', description)
export const invalidGrant = (description: string): OAuthError => new OAuthError('invalid_grant', description)
export const unauthorizedClient = (description: string): OAuthError => new OAuthError('unauthorized_client', description)
export const unsupportedGrantType = (description: string): OAuthError => new OAuthError('unsupported_grant_type', description)
export const invalidScope = (description: string): OAuthError => new OAuthError('invalid_scope', description)
export const serverError = (description: string): OAuthError => new OAuthError('server_error', description)
/** The device code grant's answers while a person decides (RFC 8628 section 3.5). */
export const authorizationPending = (description: string): OAuthError => new OAuthError('authorization_pending', description)
export const slowDown = (description: string): OAuthError => new OAuthError('slow_down', description)
export const accessDenied = (description: string): OAuthError => new OAuthError('access_denied', description)
export const expiredToken = (description: string): OAuthError => new OAuthError('expired_token', description)

/** Errors a scenario rule may ask the token endpoint for (`"error": "server-error"`). */
export const TOKEN_SCENARIO_ERRORS = ['server-error', 'invalid-client', 'temporarily-unavailable'] as const

export function tokenScenarioError(code: string, headers: Headers, message: string | undefined): Reply | undefined {
  switch (code) {
    case 'server-error':
      return serverError(message ?? 'The authorization server failed while issuing the token. Retry later.').toReply()
    case 'invalid-client':
      return invalidClient(message ?? 'Client authentication failed.').replyTo(headers)
    case 'temporarily-unavailable':
      return json(
        { error: 'temporarily_unavailable', error_description: message ?? 'The authorization server is temporarily unavailable. Retry later.' },
        { status: 503, headers: { ...NO_STORE, 'retry-after': '1' } },
      )
    default:
      return undefined
  }
}

export type AuthorizeErrorCode =
  | 'invalid_request'
  | 'unauthorized_client'
  | 'access_denied'
  | 'unsupported_response_type'
  | 'invalid_scope'

/** An authorize error answered by redirecting to the (already verified) redirect URI. */
export class AuthorizeRedirectError extends HttpError<'ERR_AUTHORIZE_REDIRECT'> {
  readonly code = 'ERR_AUTHORIZE_REDIRECT'
  readonly status = 302
  readonly error: AuthorizeErrorCode
  readonly description: string
  readonly redirectUri: string
  readonly state: string | undefined
  constructor(error: AuthorizeErrorCode, description: string, redirectUri: string, state: string | undefined) {
    super(`${error}: ${description}`)
    this.error = error
    this.description = description
    this.redirectUri = redirectUri
    this.state = state
  }

  toReply(): Reply {
    const location = redirectTo(this.redirectUri, { error: this.error, error_description: this.description, state: this.state })
    return empty(302, { location, 'cache-control': 'no-store' })
  }
}

/** An authorize error shown as an HTML page: nothing proves the redirect URI is the client's. */
export class AuthorizePageError extends HttpError<'ERR_AUTHORIZE_PAGE'> {
  readonly code = 'ERR_AUTHORIZE_PAGE'
  readonly status = 400
  readonly title: string
  constructor(title: string, message: string) {
    super(message)
    this.title = title
  }

  toReply(): Reply {
    return errorPage(this.status, this.title, this.message)
  }
}
