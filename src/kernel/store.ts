/**
 * A keyed collection for the in-memory store: an @msw/data `Collection` (zod-validated records,
 * its query API for anything a domain wants to search) with a Map index for the lookups a request
 * does by key, since the collection itself scans linearly.
 *
 * `seed()` records the fixture baseline; `reset()` returns to it by undoing only what changed, so
 * resetting the default fixtures costs microseconds, not a re-validation of every record.
 */
import { Collection } from '@msw/data'
import type { z } from 'zod'

export class IndexedCollection<S extends z.ZodType<object>> {
  readonly collection: Collection<S>
  readonly #key: (record: z.output<S>) => string
  #index = new Map<string, z.output<S>>()
  #baseline = new Map<string, z.output<S>>()

  constructor(schema: S, key: (record: z.output<S>) => string) {
    this.collection = new Collection({ schema })
    this.#key = key
  }

  /** Replaces everything with these records and makes them the baseline `reset()` returns to. */
  async seed(values: readonly z.input<S>[]): Promise<void> {
    this.collection.clear()
    this.#index.clear()
    for (const value of values) await this.insert(value)
    this.#baseline = new Map(this.#index)
  }

  /** Adds a record (validated by the schema); a record with the same key is replaced. */
  async insert(value: z.input<S>): Promise<z.output<S>> {
    const record = (await this.collection.create(value)) as z.output<S>
    const key = this.#key(record)
    const previous = this.#index.get(key)
    if (previous) this.collection.delete(previous as never)
    this.#index.set(key, record)
    return record
  }

  get(key: string): z.output<S> | undefined {
    return this.#index.get(key)
  }

  has(key: string): boolean {
    return this.#index.has(key)
  }

  /** Records in insertion order. */
  all(): z.output<S>[] {
    return [...this.#index.values()]
  }

  size(): number {
    return this.#index.size
  }

  delete(key: string): boolean {
    const record = this.#index.get(key)
    if (!record) return false
    this.collection.delete(record as never)
    this.#index.delete(key)
    return true
  }

  /** Back to the seeded records: removes additions, restores deletions and replacements. */
  async reset(): Promise<void> {
    let changed = this.#index.size !== this.#baseline.size
    if (!changed) {
      for (const [key, record] of this.#index) {
        if (this.#baseline.get(key) !== record) {
          changed = true
          break
        }
      }
    }
    if (!changed) return
    for (const [key, record] of this.#index) {
      if (this.#baseline.get(key) !== record) {
        this.collection.delete(record as never)
        this.#index.delete(key)
      }
    }
    const restored = new Map<string, z.output<S>>()
    for (const [key, record] of this.#baseline) {
      if (this.#index.has(key)) {
        restored.set(key, record)
        continue
      }
      const created = (await this.collection.create(record as z.input<S>)) as z.output<S>
      restored.set(key, created)
    }
    this.#index = restored
    this.#baseline = new Map(restored)
  }
}
