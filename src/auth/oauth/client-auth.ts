/**
 * Client authentication at the token endpoint. `Client secret basic`: `Authorization: Basic
 * base64(client_id:client_secret)`, each part form-encoded first (RFC 6749 section 2.3.1).
 * `Client secret post`: `client_id` and `client_secret` as parameters. A public client (`none`,
 * RFC 6749 section 2.1): `client_id` alone, and a secret sent by one is refused. Each client
 * authenticates only by its registered method; anything else is `invalid_client` (401).
 */
import type { RequestContext } from '../../kernel/route.js'
import { authSettings } from '../settings.js'
import type { ClientRegistry, OAuthClient } from './clients.js'
import { type OAuthError, invalidClient, invalidRequest } from './wire.js'
import { type TokenParams, ignoredHint } from './token-request.js'

const BASIC = /^basic\s+/i
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/

type Presented =
  | { method: 'client_secret_basic' | 'client_secret_post'; clientId: string; secret: string }
  | { method: 'none'; clientId: string; secret?: undefined }

export function authenticateClient(ctx: RequestContext, params: TokenParams, clients: ClientRegistry): OAuthClient {
  const presented = presentedCredentials(ctx, params)
  ctx.identity = `OAuth client ${presented.clientId}`
  const client = clients.get(presented.clientId)
  if (!client) throw invalidClient(`Unknown client "${presented.clientId}". Check the client ID, or create the client first.`)
  if (authSettings(ctx).clientAuthentication === 'rejected') {
    throw invalidClient(`Client authentication failed for client "${client.clientId}".`)
  }
  if (client.authMethod === 'none') {
    if (presented.method === 'none') return client
    throw invalidClient(`Client "${client.clientId}" is a public client: it has no secret. Send client_id alone, without client_secret or an Authorization: Basic header.`)
  }
  if (presented.method === 'none') {
    throw invalidClient(`No client secret for client "${client.clientId}": send client_secret with client_id, or use Authorization: Basic.${ignoredHint(params, 'client_secret')}`)
  }
  if (client.authMethod !== presented.method) {
    throw invalidClient(
      client.authMethod === 'client_secret_basic'
        ? `Client "${client.clientId}" is registered for Client secret basic: send "Authorization: Basic base64(client_id:client_secret)" instead of client_secret in the body.`
        : `Client "${client.clientId}" is registered for Client secret post: send client_id and client_secret as form parameters instead of an Authorization: Basic header.`,
    )
  }
  if (client.clientSecret !== presented.secret) {
    throw invalidClient(`The client secret of "${client.clientId}" is wrong. If the secret was regenerated, update the integration with the new one.`)
  }
  return client
}

function presentedCredentials(ctx: RequestContext, params: TokenParams): Presented {
  const header = ctx.headers.get('authorization')?.trim()
  const bodyId = params.get('client_id')
  const bodySecret = params.get('client_secret')
  if (header) {
    if (!BASIC.test(header)) {
      throw invalidClient('The token endpoint takes client credentials as "Authorization: Basic …" or as client_id and client_secret parameters, not another Authorization scheme.')
    }
    const basic = decodeBasic(header.replace(BASIC, '').trim())
    if (bodySecret !== undefined) {
      throw invalidRequest('The client authenticates twice (an Authorization: Basic header and a client_secret parameter). Use only the client\'s registered method.')
    }
    if (bodyId !== undefined && bodyId !== basic.clientId) {
      throw invalidClient(`The client_id parameter ("${bodyId}") is not the client of the Authorization: Basic header ("${basic.clientId}").`)
    }
    return { method: 'client_secret_basic', ...basic }
  }
  if (bodyId === undefined) {
    throw invalidClient('No client authentication: send "Authorization: Basic base64(client_id:client_secret)", or client_id and client_secret as parameters.')
  }
  if (bodySecret === undefined) return { method: 'none', clientId: bodyId }
  return { method: 'client_secret_post', clientId: bodyId, secret: bodySecret }
}

function decodeBasic(encoded: string): { clientId: string; secret: string } {
  // Made only when thrown: an error captures a stack trace, which every good request paid for.
  const bad = (): OAuthError => invalidClient('The Authorization: Basic value is not base64(client_id:client_secret), with client_id and client_secret form-encoded first (RFC 6749 section 2.3.1).')
  if (!BASE64.test(encoded)) throw bad()
  const decoded = Buffer.from(encoded, 'base64').toString('utf8')
  const colon = decoded.indexOf(':')
  if (colon < 1) throw bad()
  try {
    return { clientId: formDecode(decoded.slice(0, colon)), secret: formDecode(decoded.slice(colon + 1)) }
  } catch {
    throw bad()
  }
}

/** application/x-www-form-urlencoded decoding of one value ("+" is a space). */
function formDecode(value: string): string {
  if (!value.includes('%') && !value.includes('+')) return value
  return decodeURIComponent(value.replace(/\+/g, ' '))
}
