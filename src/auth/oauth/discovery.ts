/**
 * Discovery: `/.well-known/openid-configuration` (what the platform's own clients discover from
 * the team origin) and `/.well-known/jwks.json`. The metadata lists only what svc-mock implements:
 * no id_token, userinfo or revocation endpoint is claimed.
 */
import { json, type Reply } from '../../kernel/reply.js'
import { GRANT_TYPES, AUTH_METHODS } from './clients.js'
import { SCOPE_NAMES } from './scopes.js'

export interface DiscoveryDocument {
  issuer: string
  authorization_endpoint: string
  token_endpoint: string
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
    jwks_uri: `${issuer}/.well-known/jwks.json`,
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: [...GRANT_TYPES, 'refresh_token'],
    token_endpoint_auth_methods_supported: [...AUTH_METHODS],
    scopes_supported: [...SCOPE_NAMES],
    code_challenge_methods_supported: ['S256', 'plain'],
  }
}

export function discoveryResponse(issuer: string): Reply {
  return json(discoveryDocument(issuer))
}
