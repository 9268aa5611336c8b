/**
 * Authorization codes: opaque, single use, valid 60 s on the emulator clock, bound to the client,
 * the redirect URI of the authorization request and its PKCE challenge. A used code is kept
 * (marked used) so a second use is told apart from a code that never existed.
 */
import { z } from 'zod'
import { IndexedCollection } from '../../kernel/store.js'

/** Lifetime of an authorization code, in milliseconds of emulator time. */
export const CODE_LIFETIME_MS = 60_000

export const AuthorizationCode = z.strictObject({
  code: z.string(),
  clientId: z.string(),
  userId: z.string(),
  consentId: z.string(),
  scopes: z.array(z.string()),
  /** The redirect_uri parameter of the authorization request, or null when it had none. */
  redirectUri: z.string().nullable(),
  codeChallenge: z.string().nullable(),
  codeChallengeMethod: z.enum(['S256', 'plain']).nullable(),
  expiresAt: z.number(),
  used: z.boolean(),
})
export type AuthorizationCode = z.infer<typeof AuthorizationCode>

export class CodeStore {
  readonly codes = new IndexedCollection(AuthorizationCode, (c) => c.code)

  async issue(fields: Omit<AuthorizationCode, 'used' | 'expiresAt'>, now: number): Promise<AuthorizationCode> {
    return await this.codes.insert({ ...fields, expiresAt: now + CODE_LIFETIME_MS, used: false })
  }

  get(code: string): AuthorizationCode | undefined {
    return this.codes.get(code)
  }

  async markUsed(code: AuthorizationCode): Promise<void> {
    await this.codes.insert({ ...code, used: true })
  }
}
