/**
 * Ids the emulator makes up (version ids, keys, codes): from a small seeded generator, so the
 * same seed gives the same ids in the same order, and `reset()` starts the sequence again.
 */

export class SeededIds {
  readonly #seed: number
  #state: number

  constructor(seed: number) {
    this.#seed = seed >>> 0
    this.#state = this.#seed
  }

  /** Back to the start of the sequence. */
  reset(): void {
    this.#state = this.#seed
  }

  /** mulberry32: a fast 32-bit generator with a good spread, plenty for test data. */
  next(): number {
    this.#state = (this.#state + 0x6d2b79f5) >>> 0
    let t = this.#state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return (t ^ (t >>> 14)) >>> 0
  }

  /** A version-4 UUID, lower case. */
  uuid(): string {
    const hex = (n: number): string => n.toString(16).padStart(8, '0')
    const a = hex(this.next())
    const b = hex(this.next())
    const c = hex(this.next())
    const d = hex(this.next())
    const variant = ((parseInt(c.slice(0, 1), 16) & 0x3) | 0x8).toString(16)
    return `${a}-${b.slice(0, 4)}-4${b.slice(5, 8)}-${variant}${c.slice(1, 4)}-${c.slice(4, 8)}${d}`
  }

  /** `length` characters of [A-Za-z0-9]. */
  token(length: number): string {
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'
    let out = ''
    for (let i = 0; i < length; i++) out += alphabet[this.next() % alphabet.length]
    return out
  }
}
