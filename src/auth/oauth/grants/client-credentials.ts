/**
 * The client credentials grant (machine to machine): the token acts as the client itself, with
 * the client's permissions and the requested scopes (all of the client's when none are asked).
 * No refresh token: a client runs the grant again when its token expires.
 */
import { invalidScope, unauthorizedClient } from '../wire.js'
import { grantScopes, parseScopeParam } from '../scopes.js'
import type { TokenResponse } from '../wire.js'
import { type GrantRequest, type GrantServices, accessToken } from './grant.js'

export async function clientCredentialsGrant(request: GrantRequest, services: GrantServices): Promise<TokenResponse> {
  const { client, params } = request
  if (client.grantType !== 'client_credentials') {
    throw unauthorizedClient(
      `Client "${client.clientId}" is registered for the ${client.grantType === 'device_code' ? 'device' : 'authorization code'} grant, not client_credentials. Use grant_type=${client.grantType === 'device_code' ? 'urn:ietf:params:oauth:grant-type:device_code' : 'authorization_code'}, or a client credentials client.`,
    )
  }
  const granted = grantScopes(parseScopeParam(params.get('scope')), client.scopes)
  if ('problem' in granted) throw invalidScope(granted.problem)
  return await accessToken(request, services, { clientId: client.clientId, scopes: granted.scopes })
}
