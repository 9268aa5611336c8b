/**
 * Grant families and their revocation. Every token issued from one authorization (the code
 * exchange, and each refresh after it) belongs to that authorization's family. When a used code
 * is presented again, the family is revoked whole: its access tokens stop working at the API and
 * its refresh tokens at the token endpoint (RFC 6749 section 4.1.2). When a used refresh token is
 * presented again, the family's refresh tokens are revoked (RFC 9700 section 4.14.2).
 */

export type RevokedReason = 'code-reused' | 'refresh-reused'

export class Revocations {
  /** Access token id (`jti`) -> family. */
  readonly #families = new Map<string, string>()
  /** Family -> why its access tokens were revoked. */
  readonly #accessRevoked = new Map<string, RevokedReason>()
  /** Family -> why its refresh tokens were revoked. */
  readonly #refreshRevoked = new Map<string, RevokedReason>()

  /** Remembers that an access token belongs to a family. */
  track(jti: string, family: string): void {
    this.#families.set(jti, family)
  }

  /** A used code came back: every token of the family stops working. */
  codeReused(family: string): void {
    this.#accessRevoked.set(family, 'code-reused')
    this.#refreshRevoked.set(family, 'code-reused')
  }

  /** A used refresh token came back: the family's refresh tokens stop working. */
  refreshReused(family: string): void {
    if (!this.#refreshRevoked.has(family)) this.#refreshRevoked.set(family, 'refresh-reused')
  }

  /** Why this access token was revoked, if it was. */
  accessRevoked(jti: string): RevokedReason | undefined {
    const family = this.#families.get(jti)
    return family === undefined ? undefined : this.#accessRevoked.get(family)
  }

  /** Why the refresh tokens of this family were revoked, if they were. */
  refreshRevoked(family: string): RevokedReason | undefined {
    return this.#refreshRevoked.get(family)
  }

  reset(): void {
    this.#families.clear()
    this.#accessRevoked.clear()
    this.#refreshRevoked.clear()
  }
}
