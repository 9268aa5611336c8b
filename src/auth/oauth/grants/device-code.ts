/**
 * The device code grant (RFC 8628 section 3.4), `grant_type=urn:ietf:params:oauth:grant-type:device_code`:
 * the device polls with its device code until a person decides. Pending: `authorization_pending`;
 * a poll sooner than the interval allows (on a real clock; a manual clock only moves when a test
 * moves it), or the first poll of a code while the `device-slow-down` scenario is on: `slow_down`,
 * and the interval grows by 5 s for this and every later poll; denied: `access_denied`; past its lifetime:
 * `expired_token`. Approved: an access token for the approving user and a refresh token, as for the
 * authorization code grant; the device code is then used up.
 */
import { SLOW_DOWN_STEP_S } from '../../constants.js'
import type { TokenResponse } from '../wire.js'
import { accessDenied, authorizationPending, expiredToken, invalidGrant, invalidRequest, slowDown, unauthorizedClient } from '../wire.js'
import { ignoredHint } from '../token-request.js'
import { type GrantRequest, type GrantServices, signedToken, signingKey, withRefreshToken } from './grant.js'

export async function deviceCodeGrant(request: GrantRequest, services: GrantServices): Promise<TokenResponse> {
  // The key first: then what the grant uses up and what it issues happen in one synchronous step.
  const key = await signingKey(request, services)
  const { client, params, ctx, settings } = request
  if (client.grantType !== 'device_code') {
    throw unauthorizedClient(`Client "${client.clientId}" is not registered for the device authorization grant (it uses ${client.grantType}).`)
  }
  const value = params.get('device_code')
  if (value === undefined) throw invalidRequest(`The parameter "device_code" is missing: send the device_code the device authorization endpoint answered.${ignoredHint(params, 'device_code')}`)
  const code = services.deviceCodes.get(value)
  if (!code || code.clientId !== client.clientId) throw invalidGrant('The device code is not valid for this client.')
  if (code.status === 'used') throw invalidGrant('The device code was already exchanged for tokens. Device codes are single use: start the device authorization again.')
  if (ctx.receivedAt >= code.issuedAt + settings.deviceCodeLifetime * 1000) {
    throw expiredToken(`The device code expired (device codes are valid for ${settings.deviceCodeLifetime} seconds). Start the device authorization again.`)
  }
  if (code.status === 'denied' || (settings.consent === 'deny' && code.status !== 'approved')) {
    if (code.status !== 'denied') services.deviceCodes.put({ ...code, status: 'denied' })
    throw accessDenied(`The user denied the request of client "${client.clientId}".`)
  }
  const tooSoon = services.realClock && code.lastPollAt !== null && ctx.receivedAt - code.lastPollAt < code.interval * 1000
  if ((settings.deviceSlowDown && !code.slowedDown) || tooSoon) {
    const interval = code.interval + SLOW_DOWN_STEP_S
    services.deviceCodes.put({ ...code, interval, lastPollAt: ctx.receivedAt, slowedDown: true })
    throw slowDown(`The device polls too often: wait at least ${interval} seconds between polls from now on.`)
  }
  if (code.status === 'pending' || code.pendingPolls > 0) {
    services.deviceCodes.put({ ...code, lastPollAt: ctx.receivedAt, pendingPolls: Math.max(0, code.pendingPolls - (code.status === 'approved' ? 1 : 0)) })
    throw authorizationPending(`The user has not approved the code ${code.userCode} yet. Poll again in ${code.interval} seconds.`)
  }
  const userId = code.userId
  const consentId = code.consentId
  if (userId === null || consentId === null) throw invalidGrant('The device code has no approving user.')
  const consent = services.consents.get(userId, client.clientId)
  if (!consent || consent.id !== consentId) throw invalidGrant(`The user ${userId} revoked the consent for client "${client.clientId}". Start the device authorization again.`)
  services.deviceCodes.put({ ...code, status: 'used', lastPollAt: ctx.receivedAt })
  const response = signedToken(key, request, services, { family: code.deviceCode, clientId: client.clientId, userId, scopes: code.scopes })
  return withRefreshToken(response, request, services, { family: code.deviceCode, userId, consentId, scopes: code.scopes })
}
