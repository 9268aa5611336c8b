/**
 * The authorization code grant: exchanges a code from the authorize step for an access token that
 * acts for the consenting user (with that user's permissions) and a refresh token. The code must
 * be unused, unexpired (60 s), issued to this client, presented with the same redirect_uri as the
 * authorization request, and with the PKCE code_verifier when that request carried a challenge.
 * The `state` parameter the platform's example sends is accepted and not checked.
 */
import { createHash } from 'node:crypto'
import { invalidGrant, invalidRequest, unauthorizedClient } from '../wire.js'
import type { AuthorizationCode } from '../single-use-store.js'
import type { TokenResponse } from '../wire.js'
import { ignoredHint } from '../token-request.js'
import { type GrantRequest, type GrantServices, signedToken, signingKey, withRefreshToken } from './grant.js'

export async function authorizationCodeGrant(request: GrantRequest, services: GrantServices): Promise<TokenResponse> {
  // The key first: then what the grant uses up and what it issues happen in one synchronous step.
  const key = await signingKey(request, services)
  const { client, params, ctx } = request
  if (client.grantType !== 'authorization_code') {
    throw unauthorizedClient(`Client "${client.clientId}" is registered for client_credentials, not the authorization code grant.`)
  }
  const value = params.get('code')
  if (value === undefined) throw invalidRequest(`The parameter "code" is missing: send the code the authorize step delivered to your redirect URI.${ignoredHint(params, 'code')}`)
  const code = services.codes.get(value)
  if (!code) throw invalidGrant('The authorization code is not valid. Use the code from the latest redirect of the authorize step.')
  if (code.used) {
    // RFC 6749 section 4.1.2: a code presented twice revokes every token issued from it.
    services.revocations.codeReused(code.family)
    throw invalidGrant('The authorization code was already used. Codes are single use: the tokens issued from it are revoked now; run the authorization again for a new one.')
  }
  if (code.clientId !== client.clientId) throw invalidGrant('The authorization code was issued to another client.')
  if (ctx.receivedAt >= code.expiresAt) {
    throw invalidGrant('The authorization code expired (codes are valid for 60 seconds). Run the authorization again and exchange the code at once.')
  }
  checkRedirectUri(code, params.get('redirect_uri'))
  checkPkce(code, params.get('code_verifier'), ignoredHint(params, 'code_verifier'))
  const consent = services.consents.get(code.userId, client.clientId)
  if (!consent || consent.id !== code.consentId) throw invalidGrant('The user revoked the consent this code was issued under. Run the authorization again.')
  if (!services.directory.user(code.userId)) throw invalidGrant(`The user ${code.userId} no longer exists.`)

  services.codes.markUsed(code)
  const response = signedToken(key, request, services, { family: code.family, clientId: client.clientId, userId: code.userId, scopes: code.scopes })
  return withRefreshToken(response, request, services, { family: code.family, userId: code.userId, consentId: code.consentId, scopes: code.scopes })
}

function checkRedirectUri(code: AuthorizationCode, given: string | undefined): void {
  if (code.redirectUri === null) return
  if (given === undefined) throw invalidRequest(`The parameter "redirect_uri" is missing: send the redirect_uri of the authorization request (${code.redirectUri}).`)
  if (given !== code.redirectUri) {
    throw invalidGrant(`The redirect_uri "${given}" is not the one of the authorization request ("${code.redirectUri}"). Send exactly the same value.`)
  }
}

function checkPkce(code: AuthorizationCode, verifier: string | undefined, hint: string): void {
  if (code.codeChallenge === null) {
    if (verifier !== undefined) throw invalidGrant('A code_verifier was sent, but the authorization request had no code_challenge.')
    return
  }
  if (verifier === undefined) throw invalidGrant(`The parameter "code_verifier" is missing: the authorization request carried a PKCE code_challenge.${hint}`)
  const computed = code.codeChallengeMethod === 'S256' ? createHash('sha256').update(verifier).digest('base64url') : verifier
  if (computed !== code.codeChallenge) {
    throw invalidGrant(`The code_verifier does not match the code_challenge of the authorization request (method ${code.codeChallengeMethod ?? 'plain'}).`)
  }
}
