/**
 * Refresh tokens, issued with the authorization code grant only: opaque, valid 30 days from their
 * issue on the emulator clock, rotated on every use (the old token is kept, marked used, so its
 * reuse fails with a clear `invalid_grant`), and bound to the consent they were issued under.
 */
import { z } from 'zod'
import { IndexedCollection } from '../../kernel/store.js'

/** Lifetime of a refresh token, in milliseconds of emulator time. */
export const REFRESH_TOKEN_LIFETIME_MS = 30 * 24 * 60 * 60 * 1000

export const RefreshToken = z.strictObject({
  token: z.string(),
  clientId: z.string(),
  userId: z.string(),
  consentId: z.string(),
  scopes: z.array(z.string()),
  expiresAt: z.number(),
  used: z.boolean(),
})
export type RefreshToken = z.infer<typeof RefreshToken>

export class RefreshTokenStore {
  readonly tokens = new IndexedCollection(RefreshToken, (t) => t.token)

  async issue(fields: Omit<RefreshToken, 'used' | 'expiresAt'>, now: number): Promise<RefreshToken> {
    return await this.tokens.insert({ ...fields, expiresAt: now + REFRESH_TOKEN_LIFETIME_MS, used: false })
  }

  get(token: string): RefreshToken | undefined {
    return this.tokens.get(token)
  }

  async markUsed(token: RefreshToken): Promise<void> {
    await this.tokens.insert({ ...token, used: true })
  }
}
