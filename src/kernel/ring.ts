/**
 * A fixed-capacity ring: once full, each push drops the oldest item, in constant time (an array
 * shifted on every push costs a copy of the whole journal per request).
 */
export class Ring<T> {
  readonly capacity: number
  #items: (T | undefined)[]
  #start = 0
  #size = 0

  constructor(capacity: number) {
    this.capacity = Math.max(0, Math.floor(capacity))
    this.#items = []
  }

  get length(): number {
    return this.#size
  }

  push(item: T): void {
    if (this.capacity === 0) return
    if (this.#size < this.capacity) {
      this.#items[(this.#start + this.#size) % this.capacity] = item
      this.#size++
    } else {
      this.#items[this.#start] = item
      this.#start = (this.#start + 1) % this.capacity
    }
  }

  /** The item at position `index`, oldest first. */
  at(index: number): T | undefined {
    if (!Number.isInteger(index) || index < 0 || index >= this.#size) return undefined
    return this.#items[(this.#start + index) % this.capacity]
  }

  clear(): void {
    this.#items = []
    this.#start = 0
    this.#size = 0
  }

  *[Symbol.iterator](): IterableIterator<T> {
    for (let i = 0; i < this.#size; i++) yield this.#items[(this.#start + i) % this.capacity] as T
  }

  filter(keep: (item: T) => boolean): T[] {
    const out: T[] = []
    for (const item of this) if (keep(item)) out.push(item)
    return out
  }

  find(match: (item: T) => boolean): T | undefined {
    for (const item of this) if (match(item)) return item
    return undefined
  }
}
