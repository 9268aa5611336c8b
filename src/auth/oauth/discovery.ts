/**
 * Discovery: `/.well-known/openid-configuration` (what the platform's own clients discover from
 * the team origin, openid-client's `Issuer.discover`), the same document at
 * `/.well-known/oauth-authorization-server` (RFC 8414, oauth4webapi's `algorithm: 'oauth2'`), and
 * `/.well-known/jwks.json`. The metadata lists only what svc-mock implements: no id_token, userinfo
 * or revocation endpoint is claimed.
 */
import { json, type Reply } from '../../kernel/reply.js'
import { AUTH_METHODS, DEVICE_CODE_GRANT } from './clients.js'
import { DEVICE_AUTHORIZATION_PATH } from './device.js'
import { SCOPE_NAMES } from './scopes.js'

export interface DiscoveryDocument {
  issuer: string
  authorization_endpoint: string
  token_endpoint: string
  device_authorization_endpoint: string
  jwks_uri: string
  response_types_supported: string[]
  response_modes_supported: string[]
  grant_types_supported: string[]
  token_endpoint_auth_methods_supported: string[]
  scopes_supported: string[]
  code_challenge_methods_supported: string[]
}

export function discoveryDocument(issuer: string): DiscoveryDocument {
  return {
    issuer,
    authorization_endpoint: `${issuer}/oauth2/authorize`,
    token_endpoint: `${issuer}/oauth2/token`,
    device_authorization_endpoint: `${issuer}${DEVICE_AUTHORIZATION_PATH}`,
    jwks_uri: `${issuer}/.well-known/jwks.json`,
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['client_credentials', 'authorization_code', 'refresh_token', DEVICE_CODE_GRANT],
    token_endpoint_auth_methods_supported: [...AUTH_METHODS],
    scopes_supported: [...SCOPE_NAMES],
    code_challenge_methods_supported: ['S256', 'plain'],
  }
}

export function discoveryResponse(issuer: string): Reply {
  return json(discoveryDocument(issuer))
}
