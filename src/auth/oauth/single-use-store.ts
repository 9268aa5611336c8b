/**
 * Single-use credentials: authorization codes and refresh tokens. Each is opaque, valid for a fixed
 * time on the emulator clock from its issue, and used once: a used one is kept (marked used), so a
 * second use is told apart from a value that never existed. Codes are bound to the client, the
 * redirect URI and the PKCE challenge of their authorization request; refresh tokens to the
 * consent they were issued under.
 */
import * as z from 'zod'
import { KeyedStore } from '../../kernel/keyed-store.js'
import { CODE_LIFETIME_MS, REFRESH_TOKEN_LIFETIME_MS } from '../constants.js'
import { once } from '../../kernel/once.js'

interface SingleUse {
  readonly used: boolean
  readonly expiresAt: number
}

export class SingleUseStore<T extends SingleUse> {
  readonly #records: KeyedStore<z.ZodType<T, T>>
  readonly #lifetimeMs: number

  /** `schema` makes the records' schema: it is called on the first one issued. */
  constructor(schema: () => z.ZodType<T, T>, key: (record: T) => string, lifetimeMs: number) {
    this.#records = new KeyedStore(schema, key)
    this.#lifetimeMs = lifetimeMs
  }

  issue(fields: Omit<T, 'used' | 'expiresAt'>, now: number): T {
    return this.#records.put({ ...fields, expiresAt: now + this.#lifetimeMs, used: false } as unknown as T)
  }

  get(key: string): T | undefined {
    return this.#records.get(key)
  }

  markUsed(record: T): void {
    this.#records.put({ ...record, used: true })
  }

  /** Every one issued (used ones too), in the order they were issued. */
  all(): T[] {
    return this.#records.all()
  }

  /** Forgets those of a deleted client. */
  forgetClient(clientId: string, key: (record: T) => string, of: (record: T) => string): void {
    for (const record of this.#records.filter((r) => of(r) === clientId)) this.#records.delete(key(record))
  }

  /** Holds these (checked already), and a reset returns to them. */
  restore(records: readonly T[]): void {
    this.#records.restore({ put: records, deleted: [] })
  }

  /** Everything issued since the fixtures (or the saved state loaded last) is forgotten. */
  reset(): void {
    this.#records.reset()
  }
}

/** The schemas of authorization codes and refresh tokens, made on the first call (the first one issued, or a saved state). */
export const singleUseSchemas: () => SingleUseSchemas = once(makeSchemas)
type SingleUseSchemas = ReturnType<typeof makeSchemas>

function makeSchemas() {
  const AuthorizationCode = z.strictObject({
    code: z.string(),
    /** The grant family every token issued from this code belongs to. */
    family: z.string(),
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
  const RefreshToken = z.strictObject({
    token: z.string(),
    /** The grant family (the authorization it was first issued under). */
    family: z.string(),
    clientId: z.string(),
    userId: z.string(),
    consentId: z.string(),
    scopes: z.array(z.string()),
    expiresAt: z.number(),
    used: z.boolean(),
  })

  return { AuthorizationCode, RefreshToken }
}

export type AuthorizationCode = z.infer<SingleUseSchemas['AuthorizationCode']>
export type RefreshToken = z.infer<SingleUseSchemas['RefreshToken']>

export type CodeStore = SingleUseStore<AuthorizationCode>
export type RefreshTokenStore = SingleUseStore<RefreshToken>

export const codeStore = (): CodeStore => new SingleUseStore(() => singleUseSchemas().AuthorizationCode, (c) => c.code, CODE_LIFETIME_MS)
export const refreshTokenStore = (): RefreshTokenStore => new SingleUseStore(() => singleUseSchemas().RefreshToken, (t) => t.token, REFRESH_TOKEN_LIFETIME_MS)
