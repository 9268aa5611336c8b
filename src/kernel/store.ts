/**
 * A keyed collection for the in-memory store: an @msw/data `Collection` (zod-validated records,
 * its query API for anything a domain wants to search) with a Map index for the lookups a request
 * does by key, since the collection itself scans linearly.
 *
 * `seed()` records the fixture baseline; `reset()` returns to it by undoing only the keys changed
 * since, so a reset costs microseconds, not a re-validation of every record.
 *
 * A collection deletes with a linear scan, so a large store is split into shards by key: each
 * record lives in the collection its key hashes to.
 *
 * A collection writes asynchronously; until a write lands, reads see it already, and writes land
 * in the order they were made. So a read-modify-write (a consent granted twice at once) never
 * works from a stale record.
 */
import { Collection } from '@msw/data'
import type * as z from 'zod'

/** Values to match, field by field (strings, numbers and booleans compared with `===`). */
export type FieldValues<T> = { [K in keyof T]?: T[K] extends string | number | boolean ? T[K] : never }

export class IndexedCollection<S extends z.ZodType<object>> {
  /** The @msw/data collections (shards) holding the records; a shard is made on its first write. */
  readonly #shards: (Collection<S> | undefined)[]
  readonly #schema: S
  readonly #key: (record: z.output<S>) => string
  #index = new Map<string, z.output<S>>()
  #baseline = new Map<string, z.output<S>>()
  /** Keys inserted, replaced or deleted since the baseline. */
  #touched = new Set<string>()
  /** Writes not yet in the collection: the record, or null for a delete. */
  readonly #pending = new Map<string, z.output<S> | null>()
  #writes: Promise<unknown> = Promise.resolve()

  /** Set while the baseline is written: those records are the schema's output already. */
  #trusted = false

  constructor(schema: S, key: (record: z.output<S>) => string, options: { shards?: number } = {}) {
    // The collection validates every write with the schema, except the baseline's records: they
    // were made by the schema (fixtures parsed at start, or by the build), and validating them
    // again was most of what a start cost.
    // The collection reads only `~standard` of its schema, which passes the trusted records through.
    const standard = {
      version: 1,
      vendor: 'zod',
      validate: (value: unknown) => (this.#trusted ? { value: value as z.output<S> } : schema['~standard'].validate(value)),
    }
    // Typed as the schema for the collection's record types; it is only ever asked for `~standard`.
    this.#schema = { '~standard': standard } as unknown as S
    this.#shards = Array.from({ length: Math.max(1, options.shards ?? 1) }, () => undefined)
    this.#key = key
  }

  /** The @msw/data collections holding records now. */
  get collections(): readonly Collection<S>[] {
    return this.#shards.filter((shard) => shard !== undefined)
  }

  /** The collection a key's record lives in. */
  #shard(key: string): Collection<S> {
    const shards = this.#shards
    let index = 0
    if (shards.length > 1) {
      let hash = 0
      for (let i = 0; i < key.length; i++) hash = (Math.imul(hash, 31) + key.charCodeAt(i)) | 0
      index = (hash >>> 0) % shards.length
    }
    let shard = shards[index]
    if (!shard) {
      shard = new Collection({ schema: this.#schema })
      shards[index] = shard
    }
    return shard
  }

  /**
   * Replaces everything with these records and makes them the baseline `reset()` returns to.
   * They are the schema's output (parsed fixtures), so they are not validated again.
   */
  seed(values: readonly z.output<S>[]): Promise<void> {
    return this.#queue(async () => {
      this.#pending.clear()
      for (const collection of this.collections) collection.clear()
      this.#index.clear()
      await this.#asTrusted(async () => {
        for (const value of values) await this.#write(this.#key(value), value as z.input<S>)
      })
      this.#baseline = new Map(this.#index)
      this.#touched.clear()
    })
  }

  /** Runs writes of the baseline's records; queued, so no other write runs meanwhile. */
  async #asTrusted(write: () => Promise<void>): Promise<void> {
    this.#trusted = true
    try {
      await write()
    } finally {
      this.#trusted = false
    }
  }

  /** Adds a record (validated by the schema); a record with the same key is replaced. Readable at once. */
  insert(value: z.input<S>): Promise<z.output<S>> {
    const key = this.#key(value as z.output<S>)
    this.#pending.set(key, value as z.output<S>)
    this.#touched.add(key)
    return this.#queue(async () => {
      try {
        return await this.#write(key, value)
      } finally {
        if (this.#pending.get(key) === value) this.#pending.delete(key)
      }
    })
  }

  async #write(key: string, value: z.input<S>): Promise<z.output<S>> {
    const shard = this.#shard(key)
    const record = (await shard.create(value)) as z.output<S>
    const previous = this.#index.get(key)
    if (previous) shard.delete(previous as never)
    this.#index.set(key, record)
    return record
  }

  #queue<T>(write: () => Promise<T>): Promise<T> {
    const run = this.#writes.then(write)
    this.#writes = run.catch(() => undefined)
    return run
  }

  get(key: string): z.output<S> | undefined {
    if (this.#pending.size > 0 && this.#pending.has(key)) return this.#pending.get(key) ?? undefined
    return this.#index.get(key)
  }

  has(key: string): boolean {
    return this.get(key) !== undefined
  }

  /**
   * Records whose fields equal these values: the collections' query (`findMany` with `where`) over
   * every shard, with writes still in flight applied over what it finds. No order is promised;
   * a caller that lists orders by its own index.
   */
  findMany(where: FieldValues<z.output<S>>): z.output<S>[] {
    const pending = this.#pending
    const found: z.output<S>[] = []
    for (const shard of this.collections) {
      for (const record of shard.findMany((query) => query.where(where as never)) as z.output<S>[]) {
        if (pending.size === 0 || !pending.has(this.#key(record))) found.push(record)
      }
    }
    for (const record of pending.values()) {
      if (record !== null && Object.entries(where).every(([field, value]) => (record as Record<string, unknown>)[field] === value)) found.push(record)
    }
    return found
  }

  /** Records in insertion order. */
  all(): z.output<S>[] {
    if (this.#pending.size === 0) return [...this.#index.values()]
    const out = new Map(this.#index)
    for (const [key, record] of this.#pending) {
      if (record === null) out.delete(key)
      else out.set(key, record)
    }
    return [...out.values()]
  }

  size(): number {
    return this.#pending.size === 0 ? this.#index.size : this.all().length
  }

  /** Records held by the collections (equals `size()`: the index and the collections agree). */
  count(): number {
    return this.collections.reduce((n, c) => n + c.count(), 0)
  }

  delete(key: string): boolean {
    if (this.get(key) === undefined) return false
    this.#touched.add(key)
    if (this.#pending.size === 0 && this.#index.has(key)) {
      // Nothing in flight: the collection can forget it now.
      this.#shard(key).delete(this.#index.get(key) as never)
      this.#index.delete(key)
      return true
    }
    this.#pending.set(key, null)
    void this.#queue(async () => {
      const record = this.#index.get(key)
      if (record) this.#shard(key).delete(record as never)
      this.#index.delete(key)
      if (this.#pending.get(key) === null) this.#pending.delete(key)
    })
    return true
  }

  /** Whether anything changed since the baseline. */
  changed(): boolean {
    return this.#touched.size > 0
  }

  /** Back to the seeded records: removes additions, restores deletions and replacements. */
  reset(): Promise<void> {
    return this.#queue(() => this.#restore())
  }

  async #restore(): Promise<void> {
    this.#pending.clear()
    if (this.#touched.size === 0) return
    let restored = false
    await this.#asTrusted(async () => {
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
    })
    // Every touched key is back to its baseline and the others never left it; a restored record
    // goes back to its place in the order.
    if (restored) this.#index = new Map(this.#baseline)
    this.#touched.clear()
  }
}
