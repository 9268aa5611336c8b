/**
 * Ids the emulator makes up (version ids, keys, codes): from a small seeded generator, so the
 * same seed gives the same ids in the same order, and `reset()` starts the sequence again. A
 * stream's position is the number of draws made since its seed (`drawn`): a saved state holds
 * it, and `restore()` moves a stream of any seed there (and makes it where `reset()` goes).
 */

/** mulberry32, a fast 32-bit generator with a good spread, plenty for test data: the state after `state`. */
export function mulberry32Step(state: number): number {
  return (state + 0x6d2b79f5) >>> 0
}

/** mulberry32's 32-bit value for a state `mulberry32Step()` gave. */
export function mulberry32Value(state: number): number {
  let t = state
  t = Math.imul(t ^ (t >>> 15), t | 1)
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
  return (t ^ (t >>> 14)) >>> 0
}

/** mulberry32's step: the state after `n` draws from `seed` is `seed + n * STEP` (mod 2^32). */
const STEP = 0x6d2b79f5

export class SeededIds {
  readonly #seed: number
  #state: number
  #drawn = 0
  /** Where `reset()` goes: the draws a restored position starts from (0: the seed). */
  #start = 0

  constructor(seed: number) {
    this.#seed = seed >>> 0
    this.#state = this.#seed
  }

  /** Draws made since the seed: the stream's position. */
  get drawn(): number {
    return this.#drawn
  }

  /** Moves to `drawn` draws after the seed, and makes that the position `reset()` returns to. */
  restore(drawn: number): void {
    this.#start = drawn
    this.reset()
  }

  /** A generator of its own, seeded from this one's seed and `salt`: its draws never shift this one's. */
  fork(salt: number): SeededIds {
    return new SeededIds(this.#seed ^ salt)
  }

  /** Back to the start of the sequence (or to the position restored last). */
  reset(): void {
    this.#drawn = this.#start
    this.#state = (this.#seed + Math.imul(this.#start, STEP)) >>> 0
  }

  /** The next 32-bit value (mulberry32). */
  next(): number {
    this.#drawn++
    this.#state = mulberry32Step(this.#state)
    return mulberry32Value(this.#state)
  }

  /**
   * A version-4 UUID, lower case, from four draws: the hex of the four 32-bit values with the
   * version nibble in place of the second value's fifth hex digit and the variant's two bits over
   * the third value's first. Built from byte tables (each id used to make ten strings); the
   * sequence a seed gives is part of the contract (fixtures' ids, users' snapshots), and a test
   * pins it.
   */
  uuid(): string {
    const a = this.next()
    const b = this.next()
    const c = this.next()
    const d = this.next()
    return (
      byte(a >>> 24) + byte(a >>> 16) + byte(a >>> 8) + byte(a) + '-' +
      byte(b >>> 24) + byte(b >>> 16) + '-4' + nibble(b >>> 8) + byte(b) + '-' +
      nibble(((c >>> 28) & 0x3) | 0x8) + nibble(c >>> 24) + byte(c >>> 16) + '-' +
      byte(c >>> 8) + byte(c) + byte(d >>> 24) + byte(d >>> 16) + byte(d >>> 8) + byte(d)
    )
  }

  /** `length` characters of [A-Za-z0-9]. */
  token(length: number): string {
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'
    let out = ''
    for (let i = 0; i < length; i++) out += alphabet[this.next() % alphabet.length]
    return out
  }
}

const HEX = '0123456789abcdef'
const BYTES: readonly string[] = Array.from({ length: 256 }, (_, i) => HEX.charAt(i >>> 4) + HEX.charAt(i & 0xf))

/** The two hex digits of the low byte of `n`. */
function byte(n: number): string {
  return BYTES[n & 0xff] ?? ''
}

/** The hex digit of the low four bits of `n`. */
function nibble(n: number): string {
  return HEX.charAt(n & 0xf)
}
