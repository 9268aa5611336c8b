/**
 * Access tokens: JWTs signed with the current algorithm's key, carrying `iss` (the auth origin),
 * `sub` (the client id, or the user id for the code grant), `aud` (the base origin), `client_id`,
 * `scope` (space-separated), `iat`, `exp` and `jti`, issued with the token response of wire.ts.
 */
import type { TokenAlgorithm } from '../settings.js'
import type { SigningKey, SigningKeys } from './keys.js'
import type { Revocations } from './revocations.js'
import type { TokenResponse } from './wire.js'

export interface AccessTokenGrant {
  /** The grant family the token belongs to (tokens from an authorization); none for client credentials. */
  readonly family?: string
  readonly clientId: string
  /** Set for tokens that act for a user (authorization code grant). */
  readonly userId?: string
  readonly scopes: readonly string[]
}

export interface TokenIssuerDeps {
  readonly keys: SigningKeys
  readonly issuer: string
  readonly audience: string
  readonly newId: () => string
  readonly revocations: Revocations
}

export interface IssueOptions {
  /** Emulator time of issue, epoch ms. */
  readonly now: number
  /** `expires_in`, seconds. */
  readonly lifetime: number
  readonly algorithm: TokenAlgorithm
}

export class TokenIssuer {
  readonly #deps: TokenIssuerDeps

  constructor(deps: TokenIssuerDeps) {
    this.#deps = deps
  }

  get issuer(): string {
    return this.#deps.issuer
  }

  get audience(): string {
    return this.#deps.audience
  }

  /** Signs an access token and builds the token response (without a refresh token). */
  async issue(grant: AccessTokenGrant, options: IssueOptions): Promise<TokenResponse> {
    return this.sign(await this.key(options.algorithm), grant, options)
  }

  /** The key that signs with `algorithm` (made on first use). */
  key(algorithm: TokenAlgorithm): Promise<SigningKey> {
    return this.#deps.keys.get(algorithm)
  }

  /**
   * `issue()` with the key at hand, synchronously: a grant that also uses a code or issues a
   * refresh token does all of it in one step, so a saved state never holds half of it.
   */
  sign(key: SigningKey, grant: AccessTokenGrant, options: IssueOptions): TokenResponse {
    const iat = Math.floor(options.now / 1000)
    const scope = grant.scopes.join(' ')
    const jti = this.#deps.newId()
    if (grant.family !== undefined) this.#deps.revocations.track(jti, grant.family)
    const claims = {
      client_id: grant.clientId,
      scope,
      iss: this.#deps.issuer,
      sub: grant.userId ?? grant.clientId,
      aud: this.#deps.audience,
      iat,
      exp: iat + options.lifetime,
      jti,
    }
    // A compact JWS (RFC 7515 section 7.1): header.payload.signature, each base64url.
    const input = `${key.header}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}`
    const signature = key.sign(input)
    const token = `${input}.${Buffer.from(signature.buffer, signature.byteOffset, signature.byteLength).toString('base64url')}`
    return { access_token: token, scope, token_type: 'Bearer', expires_in: options.lifetime }
  }
}
