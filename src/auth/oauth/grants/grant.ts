/**
 * What every grant handler receives: the request, its parameters, the authenticated client and
 * the settings in effect, plus the stores and the token issuer. One handler per grant type.
 */
import type { RequestContext } from '../../../kernel/route.js'
import type { Directory } from '../../directory.js'
import type { AuthSettings } from '../../settings.js'
import type { OAuthClient } from '../clients.js'
import type { ConsentStore } from '../consents.js'
import type { CodeStore, RefreshTokenStore } from '../single-use-store.js'
import type { TokenParams } from '../token-request.js'
import type { SigningKey } from '../keys.js'
import type { AccessTokenGrant, IssueOptions, TokenIssuer } from '../tokens.js'
import type { DeviceCodeStore } from '../device-codes.js'
import type { Revocations } from '../revocations.js'
import type { TokenResponse } from '../wire.js'

export interface GrantRequest {
  readonly ctx: RequestContext
  readonly params: TokenParams
  readonly client: OAuthClient
  readonly settings: AuthSettings
}

export interface GrantServices {
  readonly issuer: TokenIssuer
  readonly codes: CodeStore
  readonly refreshTokens: RefreshTokenStore
  readonly consents: ConsentStore
  readonly directory: Directory
  readonly revocations: Revocations
  readonly deviceCodes: DeviceCodeStore
  /** Whether the emulator clock follows the wall clock (a device polling too soon is then told to slow down). */
  readonly realClock: boolean
  /** A new opaque value (refresh tokens) from the run's seeded generator. */
  readonly newToken: () => string
}

export type GrantHandler = (request: GrantRequest, services: GrantServices) => Promise<TokenResponse>

/** Signs an access token with the lifetime and algorithm the settings say. */
export function accessToken(request: GrantRequest, services: GrantServices, grant: AccessTokenGrant): Promise<TokenResponse> {
  return services.issuer.issue(grant, issueOptions(request))
}

/** The key the settings' algorithm signs with: a grant that writes takes it first, then does all its writes in one synchronous step. */
export function signingKey(request: GrantRequest, services: GrantServices): Promise<SigningKey> {
  return services.issuer.key(request.settings.tokenAlgorithm)
}

/** `accessToken()` with the key at hand, synchronously. */
export function signedToken(key: SigningKey, request: GrantRequest, services: GrantServices, grant: AccessTokenGrant): TokenResponse {
  return services.issuer.sign(key, grant, issueOptions(request))
}

function issueOptions(request: GrantRequest): IssueOptions {
  return { now: request.ctx.receivedAt, lifetime: request.settings.tokenLifetime, algorithm: request.settings.tokenAlgorithm }
}

/** Adds a new refresh token, bound to the consent, to a code-grant token response. */
export function withRefreshToken(
  response: TokenResponse,
  request: GrantRequest,
  services: GrantServices,
  binding: { family: string; userId: string; consentId: string; scopes: readonly string[] },
): TokenResponse {
  const refresh = services.refreshTokens.issue(
    { token: services.newToken(), family: binding.family, clientId: request.client.clientId, userId: binding.userId, consentId: binding.consentId, scopes: [...binding.scopes] },
    request.ctx.receivedAt,
  )
  return { ...response, refresh_token: refresh.token }
}
