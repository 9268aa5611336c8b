/**
 * User consents: which clients a user allowed to act for them, with which scopes. A user can list
 * them and revoke one; the refresh tokens issued under a consent are bound to its id, so they stop
 * working when it is revoked, even if the user consents again later.
 */
import * as z from 'zod'
import { KeyedStore } from '../../kernel/keyed-store.js'
import { once } from '../../kernel/once.js'

/** The schema of a consent, made on the first one given (or a saved state). */
export const consentSchema: () => ConsentSchema = once(make)
type ConsentSchema = ReturnType<typeof make>

function make() {
  return z.strictObject({
    /** Refresh tokens name the consent they were issued under. */
    id: z.string(),
    userId: z.string(),
    clientId: z.string(),
    scopes: z.array(z.string()),
    /** Emulator time, ISO 8601. */
    grantedAt: z.string(),
  })
}

export type Consent = z.infer<ConsentSchema>

export interface ConsentInfo {
  clientId: string
  clientName: string
  scopes: string[]
  grantedAt: string
}

const key = (userId: string, clientId: string): string => `${userId}\u0000${clientId}`

export class ConsentStore {
  readonly consents = new KeyedStore(consentSchema, (c) => key(c.userId, c.clientId))

  get(userId: string, clientId: string): Consent | undefined {
    return this.consents.get(key(userId, clientId))
  }

  /** Whether the user already consented to every one of these scopes for this client. */
  covers(userId: string, clientId: string, scopes: readonly string[]): boolean {
    const consent = this.get(userId, clientId)
    return consent !== undefined && scopes.every((s) => consent.scopes.includes(s))
  }

  /** Records consent to `scopes` (added to what the user allowed before, keeping the consent's id). */
  grant(userId: string, clientId: string, scopes: readonly string[], now: number, newId: () => string): Consent {
    const existing = this.get(userId, clientId)
    const merged = [...new Set([...(existing?.scopes ?? []), ...scopes])]
    return this.consents.put({
      id: existing?.id ?? newId(),
      userId,
      clientId,
      scopes: merged,
      grantedAt: existing?.grantedAt ?? new Date(now).toISOString(),
    })
  }

  ofUser(userId: string): Consent[] {
    return this.consents.filter((c) => c.userId === userId)
  }

  revoke(userId: string, clientId: string): boolean {
    return this.consents.delete(key(userId, clientId))
  }

  /** Drops every consent given to a deleted client. */
  forgetClient(clientId: string): void {
    for (const consent of this.consents.filter((c) => c.clientId === clientId)) this.revoke(consent.userId, clientId)
  }
}
