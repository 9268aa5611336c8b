/**
 * Grant families and their revocation. Every token issued from one authorization (the code
 * exchange, and each refresh after it) belongs to that authorization's family. When a used code
 * is presented again, the family is revoked whole: its access tokens stop working at the API and
 * its refresh tokens at the token endpoint (RFC 6749 section 4.1.2). When a used refresh token is
 * presented again, the family's refresh tokens are revoked (RFC 9700 section 4.14.2).
 */

export type RevokedReason = 'code-reused' | 'refresh-reused'

/** The revocations as a saved state holds them. */
export interface SavedRevocations {
  /** Each access token id (`jti`) of a family, with the family. */
  families: Array<[string, string]>
  /** Families whose access tokens were revoked, and why. */
  access: Array<[string, RevokedReason]>
  /** Families whose refresh tokens were revoked, and why. */
  refresh: Array<[string, RevokedReason]>
}

export class Revocations {
  /** Access token id (`jti`) -> family. */
  readonly #families = new Map<string, string>()
  /** Family -> why its access tokens were revoked. */
  readonly #accessRevoked = new Map<string, RevokedReason>()
  /** Family -> why its refresh tokens were revoked. */
  readonly #refreshRevoked = new Map<string, RevokedReason>()
  /** What a reset returns to. */
  #baseline: SavedRevocations = { families: [], access: [], refresh: [] }

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

  saved(): SavedRevocations {
    return { families: [...this.#families], access: [...this.#accessRevoked], refresh: [...this.#refreshRevoked] }
  }

  /** Holds these, and only these, and a reset returns to them. */
  restore(saved: SavedRevocations): void {
    this.#baseline = saved
    this.reset()
  }

  /** Back to none (or to those of the saved state loaded last). */
  reset(): void {
    this.#families.clear()
    this.#accessRevoked.clear()
    this.#refreshRevoked.clear()
    for (const [jti, family] of this.#baseline.families) this.#families.set(jti, family)
    for (const [family, reason] of this.#baseline.access) this.#accessRevoked.set(family, reason)
    for (const [family, reason] of this.#baseline.refresh) this.#refreshRevoked.set(family, reason)
  }
}
