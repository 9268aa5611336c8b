/**
 * Device codes of the device authorization grant (RFC 8628): each pairs an opaque `device_code`
 * (what the device polls with) with a short `user_code` a person types or confirms on the
 * verification page, for one client and its scopes. A code is pending until someone approves or
 * denies it (at once by default, as the default user), approved codes are exchanged once, and
 * every code expires on the emulator clock (`expires_in`, 300 s by default).
 */
import * as z from 'zod'
import { KeyedStore } from '../../kernel/keyed-store.js'
import { once } from '../../kernel/once.js'

/** The schema of a device code, made on the first one issued (or a saved state). */
export const deviceCodeSchema: () => DeviceCodeSchema = once(make)
type DeviceCodeSchema = ReturnType<typeof make>

function make() {
  return z.strictObject({
    deviceCode: z.string(),
    /** Eight letters in two groups of four (`BCDF-GHJK`), without vowels, as Spring Authorization Server makes them. */
    userCode: z.string(),
    clientId: z.string(),
    scopes: z.array(z.string()),
    /** Emulator time of issue, epoch ms; it expires `deviceCodeLifetime` seconds later. */
    issuedAt: z.number(),
    /** Seconds the device must wait between polls; `slow_down` raises it by 5. */
    interval: z.number(),
    status: z.enum(['pending', 'approved', 'denied', 'used']),
    /** Who approved it, and under which consent (set once approved). */
    userId: z.string().nullable(),
    consentId: z.string().nullable(),
    /** Emulator time of the last poll, epoch ms. */
    lastPollAt: z.number().nullable(),
    /** Polls still answered `authorization_pending` before an approved code is exchanged (the `device-pending` scenario). */
    pendingPolls: z.number(),
    /** Whether the device was told to slow down already (the `device-slow-down` scenario does it once per code). */
    slowedDown: z.boolean(),
  })
}

export type DeviceCode = z.infer<DeviceCodeSchema>

/** What the control plane and the dashboard show of a device code: never the device code itself. */
export interface DeviceCodeInfo {
  userCode: string
  clientId: string
  clientName: string
  scopes: string[]
  status: DeviceCode['status'] | 'expired'
  /** Emulator time it expires, ISO 8601. */
  expiresAt: string
  userId: string | null
}

const USER_CODE_LETTERS = 'BCDFGHJKLMNPQRSTVWXZ'

/** A user code typed by a person: case, spaces and dashes do not matter. */
export function normalizeUserCode(text: string): string {
  const letters = text.toUpperCase().replace(/[^A-Z]/g, '')
  return letters.length === 8 ? `${letters.slice(0, 4)}-${letters.slice(4)}` : text.trim().toUpperCase()
}

export class DeviceCodeStore {
  readonly #codes = new KeyedStore(deviceCodeSchema, (c) => c.deviceCode)
  /** user code -> device code */
  #byUserCode = new Map<string, string>()

  /** A new user code from the seeded generator, unlike any current one. */
  newUserCode(next: () => number): string {
    for (;;) {
      let letters = ''
      for (let i = 0; i < 8; i++) letters += USER_CODE_LETTERS[next() % USER_CODE_LETTERS.length]
      const code = `${letters.slice(0, 4)}-${letters.slice(4)}`
      if (!this.#byUserCode.has(code)) return code
    }
  }

  put(code: DeviceCode): DeviceCode {
    const stored = this.#codes.put(code)
    this.#byUserCode.set(code.userCode, code.deviceCode)
    return stored
  }

  get(deviceCode: string): DeviceCode | undefined {
    return this.#codes.get(deviceCode)
  }

  byUserCode(userCode: string): DeviceCode | undefined {
    const deviceCode = this.#byUserCode.get(normalizeUserCode(userCode))
    return deviceCode === undefined ? undefined : this.#codes.get(deviceCode)
  }

  all(): DeviceCode[] {
    return this.#codes.all()
  }

  /** Forgets the codes of a deleted client. */
  forgetClient(clientId: string): void {
    for (const code of this.#codes.filter((c) => c.clientId === clientId)) {
      this.#codes.delete(code.deviceCode)
      this.#byUserCode.delete(code.userCode)
    }
  }

  /** Holds these (checked already), and a reset returns to them. */
  restore(codes: readonly DeviceCode[]): void {
    this.#codes.restore({ put: codes, deleted: [] })
    this.#byUserCode = new Map(this.#codes.all().map((c) => [c.userCode, c.deviceCode]))
  }

  reset(): void {
    this.#codes.reset()
    this.#byUserCode = new Map(this.#codes.all().map((c) => [c.userCode, c.deviceCode]))
  }
}
