/**
 * A keyed collection for the in-memory store: an @msw/data `Collection` (zod-validated records,
 * its query API for anything a domain wants to search) with a Map index for the lookups a request
 * does by key, since the collection itself scans linearly.
 *
 * `seed()` records the fixture baseline; `reset()` returns to it by undoing only the keys changed
 * since, so a reset costs microseconds, not a re-validation of every record.
 *
 * A collection deletes with a linear scan (about 90 ms at 250,000 records), so a large store is
 * split into shards by key: each record lives in the collection its key hashes to.
 */
import { Collection } from '@msw/data'
import type { z } from 'zod'

export class IndexedCollection<S extends z.ZodType<object>> {
  /** The @msw/data collections holding the records (one unless sharded). */
  readonly collections: readonly Collection<S>[]
  readonly #key: (record: z.output<S>) => string
  #index = new Map<string, z.output<S>>()
  #baseline = new Map<string, z.output<S>>()
  /** Keys inserted, replaced or deleted since the baseline. */
  #touched = new Set<string>()

  constructor(schema: S, key: (record: z.output<S>) => string, options: { shards?: number } = {}) {
    this.collections = Array.from({ length: Math.max(1, options.shards ?? 1) }, () => new Collection({ schema }))
    this.#key = key
  }

  /** The collection a key's record lives in. */
  #shard(key: string): Collection<S> {
    const shards = this.collections
    if (shards.length === 1) return shards[0] as Collection<S>
    let hash = 0
    for (let i = 0; i < key.length; i++) hash = (Math.imul(hash, 31) + key.charCodeAt(i)) | 0
    return shards[(hash >>> 0) % shards.length] as Collection<S>
  }

  /** Replaces everything with these records and makes them the baseline `reset()` returns to. */
  async seed(values: readonly z.input<S>[]): Promise<void> {
    for (const collection of this.collections) collection.clear()
    this.#index.clear()
    for (const value of values) await this.insert(value)
    this.#baseline = new Map(this.#index)
    this.#touched.clear()
  }

  /** Adds a record (validated by the schema); a record with the same key is replaced. */
  async insert(value: z.input<S>): Promise<z.output<S>> {
    const key = this.#key(value as z.output<S>)
    const shard = this.#shard(key)
    const record = (await shard.create(value)) as z.output<S>
    const previous = this.#index.get(key)
    if (previous) shard.delete(previous as never)
    this.#index.set(key, record)
    this.#touched.add(key)
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

  /** Records held by the collections (equals `size()`: the index and the collections agree). */
  count(): number {
    return this.collections.reduce((n, c) => n + c.count(), 0)
  }

  delete(key: string): boolean {
    const record = this.#index.get(key)
    if (!record) return false
    this.#shard(key).delete(record as never)
    this.#index.delete(key)
    this.#touched.add(key)
    return true
  }

  /** Whether anything changed since the baseline. */
  changed(): boolean {
    return this.#touched.size > 0
  }

  /** Back to the seeded records: removes additions, restores deletions and replacements. */
  async reset(): Promise<void> {
    if (this.#touched.size === 0) return
    let restored = false
    for (const key of this.#touched) {
      const current = this.#index.get(key)
      const base = this.#baseline.get(key)
      if (current === base) continue
      if (current) {
        this.#shard(key).delete(current as never)
        this.#index.delete(key)
      }
      if (base) {
        this.#baseline.set(key, (await this.#shard(key).create(base as z.input<S>)) as z.output<S>)
        restored = true
      }
    }
    // Every touched key is back to its baseline and the others never left it; a restored record
    // goes back to its place in the order.
    if (restored) this.#index = new Map(this.#baseline)
    this.#touched.clear()
  }
}
