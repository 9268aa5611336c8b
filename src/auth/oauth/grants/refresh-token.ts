/**
 * The refresh token grant: a new access token for the user of the original consent, and a new
 * refresh token (rotation: the presented one is then used up). It fails with `invalid_grant` when
 * the token is unknown, used, expired (30 days), another client's, or its consent was revoked.
 * `scope` may narrow the access token's scopes, never widen them.
 */
import { invalidGrant, invalidRequest, invalidScope, unauthorizedClient } from '../wire.js'
import { parseScopeParam } from '../scopes.js'
import type { TokenResponse } from '../wire.js'
import { ignoredHint } from '../token-request.js'
import { type GrantRequest, type GrantServices, signedToken, signingKey, withRefreshToken } from './grant.js'

export async function refreshTokenGrant(request: GrantRequest, services: GrantServices): Promise<TokenResponse> {
  // The key first: then what the grant uses up and what it issues happen in one synchronous step.
  const key = await signingKey(request, services)
  const { client, params, ctx } = request
  if (client.grantType === 'client_credentials') {
    throw unauthorizedClient(`Client "${client.clientId}" has no refresh tokens: they are issued with the authorization code and device grants only. Run the client credentials grant again instead.`)
  }
  const value = params.get('refresh_token')
  if (value === undefined) throw invalidRequest(`The parameter "refresh_token" is missing.${ignoredHint(params, 'refresh_token')}`)
  const token = services.refreshTokens.get(value)
  if (!token) throw invalidGrant('The refresh token is not valid.')
  if (token.used) {
    // RFC 9700 section 4.14.2: a rotated refresh token presented again revokes its whole family.
    services.revocations.refreshReused(token.family)
    throw invalidGrant('The refresh token was already used. Refresh tokens are rotated on every use: keep the newest one from the last token response. Every refresh token of this grant is revoked now; run the authorization again.')
  }
  const revoked = services.revocations.refreshRevoked(token.family)
  if (revoked !== undefined) {
    throw invalidGrant(
      revoked === 'code-reused'
        ? 'The refresh token was revoked: the authorization code it was issued from was used twice. Run the authorization again.'
        : 'The refresh token was revoked: an earlier refresh token of this grant was used twice. Run the authorization again.',
    )
  }
  if (token.clientId !== client.clientId) throw invalidGrant('The refresh token was issued to another client.')
  if (ctx.receivedAt >= token.expiresAt) throw invalidGrant('The refresh token expired (refresh tokens are valid for 30 days). Run the authorization again.')
  const consent = services.consents.get(token.userId, client.clientId)
  if (!consent || consent.id !== token.consentId) {
    throw invalidGrant(`The user ${token.userId} revoked the consent for client "${client.clientId}". Run the authorization again to ask for consent.`)
  }
  if (!services.directory.user(token.userId)) throw invalidGrant(`The user ${token.userId} no longer exists.`)

  const requested = parseScopeParam(params.get('scope'))
  const extra = requested?.find((s) => !token.scopes.includes(s))
  if (extra !== undefined) {
    throw invalidScope(`The scope "${extra}" was not granted with this refresh token (granted: ${token.scopes.join(' ')}). A refresh may only narrow the scopes.`)
  }
  services.refreshTokens.markUsed(token)
  const response = signedToken(key, request, services, { family: token.family, clientId: client.clientId, userId: token.userId, scopes: requested ?? token.scopes })
  return withRefreshToken(response, request, services, { family: token.family, userId: token.userId, consentId: token.consentId, scopes: token.scopes })
}
