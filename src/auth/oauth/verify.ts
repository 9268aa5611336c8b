/**
 * Verifies the access tokens the gate is shown (plugged in with `AccessGate.addVerifier`): the
 * signature with one of the emulator's keys (the header's `alg` must be that key's; `none` never
 * is), `exp` and `nbf` on the emulator clock, the issuer and the audience. The identity gets the
 * token's scopes and the live permissions of the client (client credentials) or of the user who
 * consented (authorization code). Anything that is not shaped like a JWT is left to the next check.
 */
import type { JWTPayload } from 'jose'
import { once } from '../../kernel/once.js'
import type { RequestContext } from '../../kernel/route.js'
import type { Directory } from '../directory.js'
import { ApiAccessError } from '../wire.js'
import type { BearerVerifier, Identity } from '../gate.js'
import { authSettings } from '../settings.js'
import type { ClientRegistry } from './clients.js'
import type { SigningKeys } from './keys.js'
import type { Revocations } from './revocations.js'

/** jose, loaded when the first token is verified: an emulator whose test shows no access token never loads it. */
const jose = once(async () => await import('jose'))

const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/

export interface VerifierDeps {
  readonly keys: SigningKeys
  readonly clients: ClientRegistry
  readonly directory: Directory
  readonly revocations: Revocations
  readonly issuer: string
  readonly audience: string
}

const invalid = (message: string): ApiAccessError => new ApiAccessError('invalid-token', message)

export function accessTokenVerifier(deps: VerifierDeps): BearerVerifier {
  return async (token: string, ctx: RequestContext): Promise<Identity | undefined> => {
    if (!JWT_SHAPE.test(token)) return undefined
    const { decodeProtectedHeader, errors, jwtVerify } = await jose()
    let header: ReturnType<typeof decodeProtectedHeader>
    try {
      header = decodeProtectedHeader(token)
    } catch {
      throw invalid('The access token is not a readable JWT.')
    }
    if (typeof header.alg !== 'string' || header.alg.toLowerCase() === 'none') {
      throw invalid('The access token is not signed (alg "none" is never accepted).')
    }
    const key = typeof header.kid === 'string' ? deps.keys.byKid(header.kid) : undefined
    if (!key) throw invalid('The access token was not signed by this platform (its key id is unknown). Fetch a token from this platform\'s token endpoint.')
    if (header.alg !== key.alg) throw invalid(`The access token's header says alg "${header.alg}", but its key signs with ${key.alg}.`)

    const offset = authSettings(ctx).tokenClockOffset * 1000
    let payload: JWTPayload
    try {
      ;({ payload } = await jwtVerify(token, key.publicKey, {
        algorithms: [key.alg],
        issuer: deps.issuer,
        audience: deps.audience,
        currentDate: new Date(ctx.receivedAt + offset),
        requiredClaims: ['exp', 'iat', 'sub'],
      }))
    } catch (error) {
      if (error instanceof errors.JWTExpired) {
        const exp = typeof error.payload.exp === 'number' ? ` at ${new Date(error.payload.exp * 1000).toISOString()}` : ''
        throw new ApiAccessError('expired-token', `The access token expired${exp}. Fetch a new one.`)
      }
      if (error instanceof errors.JWTClaimValidationFailed) {
        if (error.claim === 'iss') throw invalid(`The access token was issued by "${String(error.payload.iss)}", not by this platform (${deps.issuer}).`)
        if (error.claim === 'aud') throw invalid(`The access token is meant for "${String(error.payload.aud)}", not for this platform's API (${deps.audience}).`)
        throw invalid(`The access token's "${error.claim}" claim is not valid: ${error.reason}.`)
      }
      if (error instanceof errors.JWSSignatureVerificationFailed) throw invalid('The access token\'s signature does not verify (was it altered?).')
      throw invalid(`The access token is not valid: ${error instanceof Error ? error.message : String(error)}.`)
    }
    return identityOf(payload, deps)
  }
}

function identityOf(payload: Record<string, unknown>, deps: VerifierDeps): Identity {
  if (typeof payload.jti === 'string' && deps.revocations.accessRevoked(payload.jti) !== undefined) {
    throw invalid('The access token was revoked: the authorization code it was issued from was used twice (RFC 6749 section 4.1.2). Run the authorization again.')
  }
  const clientId = payload.client_id
  const sub = payload.sub
  if (typeof clientId !== 'string' || typeof sub !== 'string') throw invalid('The access token has no client_id or sub claim.')
  const client = deps.clients.get(clientId)
  if (!client) throw invalid(`The OAuth client ${clientId} of this access token no longer exists.`)
  const scopes = typeof payload.scope === 'string' ? payload.scope.split(' ').filter((s) => s !== '') : []
  if (client.grantType !== 'client_credentials') {
    const user = deps.directory.user(sub)
    if (!user) throw invalid(`The user ${sub} of this access token no longer exists.`)
    return { kind: 'user', subject: sub, label: `${sub} via OAuth client ${clientId}`, permissions: user.permissions, scopes, clientId, userId: sub }
  }
  return { kind: 'client', subject: clientId, label: `OAuth client ${clientId}`, permissions: client.permissions, scopes, clientId }
}
