/**
 * The random stream of a generated element: a small seeded generator (mulberry32) that the
 * element's draws and faker read from, reseeded for each element from the seed and the element's
 * index. So an element's content is fixed by those two numbers alone, whichever elements were made
 * before it, and making one element never costs making the others.
 */
import type { Randomizer } from '@faker-js/faker'
import { mulberry32Step, mulberry32Value } from '../kernel/ids.js'

/** A 32-bit hash of a list of 32-bit words (murmur3's finalizer over each word in turn). */
export function hashWords(words: readonly number[]): number {
  let h = 0x2545f491
  for (const word of words) {
    h = Math.imul(h ^ word, 0x9e3779b1) + 0x7f4a7c15
    h ^= h >>> 16
    h = Math.imul(h, 0x85ebca6b)
    h ^= h >>> 13
    h = Math.imul(h, 0xc2b2ae35)
    h ^= h >>> 16
  }
  return h >>> 0
}

/** faker calls `next` and `seed` unbound, so they are arrow functions. */
export class ElementStream implements Randomizer {
  #state = 0

  /** Starts the stream of `[seed, index]` (faker's `seed()` calls this too). */
  readonly seed = (seed: number | number[]): void => {
    this.#state = hashWords(typeof seed === 'number' ? [seed] : seed)
  }

  /** A float in [0, 1) with 53 random bits, as faker's own generator gives. */
  readonly next = (): number => {
    const high = this.draw() >>> 5
    const low = this.draw() >>> 6
    return (high * 67_108_864 + low) / 9_007_199_254_740_992
  }

  /** An integer in [0, n). */
  below(n: number): number {
    return Math.floor(this.next() * n)
  }

  /** The next 32-bit value (mulberry32). */
  draw(): number {
    this.#state = mulberry32Step(this.#state)
    return mulberry32Value(this.#state)
  }
}
