/**
 * The API-access routes as the OpenAPI document shows them: zod schemas of the token, authorize
 * and device-grant parameters and of every answer's body. The answers' schemas are tied to the
 * wire types the code builds (a type-level check below fails if they drift apart).
 */
import * as z from 'zod'
import { HtmlPage } from '../kernel/docs.js'
import { RATE_LIMIT_HEADERS, RateLimitBody, TokenResponseBody } from './answers.js'
import type { RouteDoc } from '../kernel/route.js'
import { AUTH_METHODS, DEVICE_CODE_GRANT } from './oauth/clients.js'
import type { DiscoveryDocument } from './oauth/discovery.js'
import type { OAuthErrorCode, TokenResponse } from './oauth/wire.js'
import { CLOUD_DOC, PERMISSIONS_DOC, TEAM_INFO_DOC, UnauthorizedBody } from './probe-docs.js'

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false

const OAUTH_ERRORS = [
  'invalid_request',
  'invalid_client',
  'invalid_grant',
  'unauthorized_client',
  'unsupported_grant_type',
  'invalid_scope',
  'server_error',
  'authorization_pending',
  'slow_down',
  'access_denied',
  'expired_token',
] as const satisfies readonly OAuthErrorCode[]
const oauthErrorsComplete: Same<(typeof OAUTH_ERRORS)[number], OAuthErrorCode> = true

/** RFC 6749 section 5.2 (and RFC 8628 section 3.5): the token endpoint's error body. */
export const OAuthErrorBody = z
  .object({
    error: z.enum([...OAUTH_ERRORS, 'temporarily_unavailable']),
    error_description: z.string(),
  })
  .meta({ id: 'OAuthError' })

const tokenShape: Same<z.output<typeof TokenResponseBody>, TokenResponse> = true

const text = (description: string): z.ZodOptional<z.ZodString> => z.string().optional().meta({ description })

/** The token request's parameters (form body, multipart, or, but for the secrets, query string). */
export const TokenForm = z.object({
  grant_type: z
    .enum(['client_credentials', 'authorization_code', 'refresh_token', DEVICE_CODE_GRANT])
    .meta({ description: 'The grant; the device grant is RFC 8628\'s urn.' }),
  client_id: text('Client secret post, and public clients: the client id (Client secret basic sends it in Authorization).'),
  client_secret: text('Client secret post: the secret. Never sent by a public client.'),
  scope: text('Space-separated; absent: all of the client\'s scopes.'),
  code: text('authorization_code: the code from the redirect (single use, 60 s).'),
  redirect_uri: text('authorization_code: the redirect URI of the authorization request.'),
  code_verifier: text('authorization_code with PKCE: the verifier.'),
  refresh_token: text('refresh_token: the refresh token (rotated: the old one then fails).'),
  device_code: text('device_code: the device code from /oauth2/device_authorization.'),
}).meta({ id: 'TokenRequest' })

const NO_STORE_HEADERS = { 'Cache-Control': '`no-store`: tokens are never cached.' }

export const TOKEN_DOC: RouteDoc = {
  description:
    'Issues access tokens for the client credentials, authorization code (with PKCE), refresh token and device code grants. ' +
    'Parameters may come as `application/x-www-form-urlencoded`, `multipart/form-data` or in the query string; a parameter sent twice is `invalid_request`. ' +
    'Secrets never count from the query string (RFC 6749 section 2.3.1): a `client_secret`, `code`, `refresh_token`, `device_code` or `code_verifier` there is ignored. ' +
    'Credentials in the URL or body are ignored for API calls, but the token endpoint reads Client secret post from the body, as the platform does.',
  body: { 'application/x-www-form-urlencoded': TokenForm, 'multipart/form-data': TokenForm },
  bodyRequired: true,
  security: ['clientSecretBasic', 'none'],
  responses: {
    '200': { description: 'The token.', content: { 'application/json': TokenResponseBody }, headers: NO_STORE_HEADERS },
    '400': { description: 'An RFC 6749 error: invalid_request, invalid_grant, invalid_scope, unauthorized_client, unsupported_grant_type; the device grant\'s authorization_pending, slow_down, access_denied, expired_token.', content: { 'application/json': OAuthErrorBody } },
    '401': {
      description: '`invalid_client`; `WWW-Authenticate: Basic` only when the client tried the Authorization header.',
      content: { 'application/json': OAuthErrorBody },
      headers: { 'WWW-Authenticate': 'The Basic challenge, when the client authenticated with the Authorization header.' },
    },
    '500': { description: '`server_error` (a scenario).', content: { 'application/json': OAuthErrorBody } },
    '503': { description: '`temporarily_unavailable` (a scenario), with `Retry-After`.', content: { 'application/json': OAuthErrorBody } },
  },
}

const authorizeParams = {
  response_type: z.literal('code'),
  client_id: z.string().meta({ description: 'An authorization code client.' }),
  redirect_uri: text("One of the client's redirect URIs (exact match; loopback URIs on any port)."),
  scope: text('Space-separated; absent: all of the client\'s scopes.'),
  state: text('Returned as it was in the redirect.'),
  code_challenge: text('PKCE (RFC 7636).'),
  code_challenge_method: z.enum(['S256', 'plain']).optional(),
  login_hint: text('The user who signs in and consents (default alice).'),
}

export const AUTHORIZE_DOC: RouteDoc = {
  description:
    'The authorization request. By default the user named by `login_hint` consents at once and the answer redirects with `code` and `state`; ' +
    'with `--consent page` (or a client\'s `consent: "page"`) it shows an HTML consent page with Allow and Deny. ' +
    'An untrusted client or redirect URI gets an HTML error page and is never redirected to.',
  query: z.object(authorizeParams),
  responses: {
    '302': { description: 'To the redirect URI with `code` and `state`, or with `error`, `error_description` and `state`.', headers: { Location: 'The redirect URI with the result.' } },
    '200': { description: 'The consent page.', content: { 'text/html': HtmlPage } },
    '400': { description: 'An error page (unknown client, redirect URI not registered): never a redirect.', content: { 'text/html': HtmlPage } },
  },
}

export const CONSENT_DOC: RouteDoc = {
  description: "The consent page's form: the authorization request's parameters and the person's decision.",
  body: { 'application/x-www-form-urlencoded': z.object({ ...authorizeParams, decision: z.enum(['allow', 'deny']) }) },
  bodyRequired: true,
  responses: {
    '302': { description: 'To the redirect URI with `code` (allow) or `error=access_denied` (deny), and `state`.', headers: { Location: 'The redirect URI with the result.' } },
    '400': { description: 'An error page.', content: { 'text/html': HtmlPage } },
  },
}

export const DeviceAuthorizationBody = z.object({
  device_code: z.string(),
  user_code: z.string(),
  verification_uri: z.string().meta({ description: '`{auth_url}/oauth2/device_verification`' }),
  verification_uri_complete: z.string().meta({ description: 'The verification page with the user code filled in.' }),
  expires_in: z.number().int().meta({ description: 'Seconds; 300.' }),
  interval: z.number().int().meta({ description: 'Seconds between polls; 5.' }),
}).meta({ id: 'DeviceAuthorizationResponse' })

export const DEVICE_AUTHORIZATION_DOC: RouteDoc = {
  description: 'RFC 8628 section 3.1: starts the device grant. Approved at once as alice by default; with `--consent page` it waits for a person (or the control plane).',
  body: { 'application/x-www-form-urlencoded': z.object({ client_id: text('A device-code client, e.g. the public `content-cli`.'), scope: text('Space-separated; absent: all of the client\'s.') }) },
  bodyRequired: true,
  security: ['clientSecretBasic', 'none'],
  responses: {
    '200': { description: 'The codes.', content: { 'application/json': DeviceAuthorizationBody }, headers: NO_STORE_HEADERS },
    '400': { description: 'An RFC 6749 error.', content: { 'application/json': OAuthErrorBody } },
    '401': { description: '`invalid_client`.', content: { 'application/json': OAuthErrorBody } },
  },
}

export const DEVICE_VERIFICATION_DOC: RouteDoc = {
  description: 'The verification page: a form for the user code, or the Allow/Deny page for one.',
  query: z.object({ user_code: text('The code the device shows.'), login_hint: text('Who decides (default alice).') }),
  responses: { '200': { description: 'The page.', content: { 'text/html': HtmlPage } }, '400': { description: 'An unknown or expired code.', content: { 'text/html': HtmlPage } } },
}

export const DEVICE_DECISION_DOC: RouteDoc = {
  description: "The verification page's form: the person's decision on a user code.",
  body: { 'application/x-www-form-urlencoded': z.object({ user_code: z.string(), decision: z.enum(['allow', 'deny']), login_hint: text('Who decides (default alice).') }) },
  bodyRequired: true,
  responses: { '200': { description: 'The result page.', content: { 'text/html': HtmlPage } }, '400': { description: 'An unknown or expired code.', content: { 'text/html': HtmlPage } } },
}

export const DiscoveryBody = z.object({
  issuer: z.string(),
  authorization_endpoint: z.string(),
  token_endpoint: z.string(),
  device_authorization_endpoint: z.string(),
  jwks_uri: z.string(),
  response_types_supported: z.array(z.string()),
  response_modes_supported: z.array(z.string()),
  grant_types_supported: z.array(z.string()),
  token_endpoint_auth_methods_supported: z.array(z.enum(AUTH_METHODS)),
  scopes_supported: z.array(z.string()),
  code_challenge_methods_supported: z.array(z.string()),
}).meta({ id: 'AuthorizationServerMetadata' })
const discoveryShape: Same<Omit<z.output<typeof DiscoveryBody>, 'token_endpoint_auth_methods_supported'>, Omit<DiscoveryDocument, 'token_endpoint_auth_methods_supported'>> = true

export const DISCOVERY_DOC: RouteDoc = {
  description: 'The authorization server metadata (only what svc-mock implements: no id_token, userinfo or revocation endpoint).',
  responses: { '200': { description: 'The metadata.', content: { 'application/json': DiscoveryBody } } },
}

const PublicJwk = z
  .object({
    kty: z.string(),
    kid: z.string(),
    alg: z.string(),
    use: z.literal('sig'),
    crv: z.string().optional(),
    x: z.string().optional(),
    y: z.string().optional(),
    n: z.string().optional(),
    e: z.string().optional(),
  })
  .meta({ description: 'A public key: never a private member.' })

export const JWKS_DOC: RouteDoc = {
  description: 'The public keys that sign access tokens (made per emulator instance unless fixtures pin them).',
  responses: { '200': { description: 'The key set.', content: { 'application/json': z.object({ keys: z.array(PublicJwk) }) } } },
}

export const TEAM_DOC: RouteDoc = {
  description: "The who-am-I probe: any valid credential gets the team. content-cli needs `domain` to make a key profile (it tries Bearer, then AppKey).",
  security: ['bearer', 'appKey'],
  responses: {
    '200': { description: 'The team.', content: { 'application/json': z.object({ id: z.string(), name: z.string(), domain: z.string().meta({ description: 'The host of {base_url} unless the team fixture says otherwise.' }) }) } },
    '401': { description: 'No or a bad credential.', content: { 'application/json': UnauthorizedBody, 'text/plain': z.string() }, headers: { 'WWW-Authenticate': 'Bearer, with the error.' } },
    '429': { description: 'Scenario `rate-limited`.', content: { 'application/json': RateLimitBody }, headers: RATE_LIMIT_HEADERS },
  },
}

/** Every auth route's documentation, by route id. */
export const AUTH_DOCS: Readonly<Record<string, RouteDoc>> = {
  'auth.token': TOKEN_DOC,
  'auth.authorize': AUTHORIZE_DOC,
  'auth.consent': CONSENT_DOC,
  'auth.deviceAuthorization': DEVICE_AUTHORIZATION_DOC,
  'auth.deviceVerification': DEVICE_VERIFICATION_DOC,
  'auth.deviceDecision': DEVICE_DECISION_DOC,
  'auth.discovery': DISCOVERY_DOC,
  'auth.metadata': DISCOVERY_DOC,
  'auth.jwks': JWKS_DOC,
  'auth.team': TEAM_DOC,
  'auth.cloud': CLOUD_DOC,
  'auth.permissions': PERMISSIONS_DOC,
  'auth.teamInfo': TEAM_INFO_DOC,
}

// Used only by the type checks above.
void oauthErrorsComplete
void tokenShape
void discoveryShape
