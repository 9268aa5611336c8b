/**
 * A keyed store: records in a Map by key, each parsed by its zod schema when written, in the
 * order they were first added (a replaced record keeps its place). Every operation is
 * synchronous, so a read always sees the writes made before it, in the order they were made.
 *
 * `seed()` sets the baseline; `reset()` returns to it by undoing only the keys touched since,
 * `changes()` says what those are, and `rebase()` makes the records held now the baseline.
 * What changed against the seed (the fixtures) is kept apart, through every rebase: `saved()`
 * says it (a saved state's part), and `restore()` applies such changes to the seed and makes the
 * result the baseline.
 */
import type * as z from 'zod'

/**
 * What changed since the baseline. Deleting every key of `deleted` from the baseline, then
 * putting every record of `put` in order, gives the records held now, in their order.
 */
export interface StoreChanges<T> {
  /** Records added or replaced, in the order the store lists them among themselves. */
  readonly put: readonly T[]
  /** Keys of the baseline's records deleted since (some may be held again: they are in `put`). */
  readonly deleted: readonly string[]
}

export class KeyedStore<S extends z.ZodType<object>> {
  #schema: S | (() => S)
  readonly #key: (record: z.output<S>) => string
  #records = new Map<string, z.output<S>>()
  #baseline = new Map<string, z.output<S>>()
  /** Keys written or deleted since the baseline, each with whether its baseline record was deleted. */
  readonly #touched = new Map<string, boolean>()
  /** The seeded records (the fixtures'). */
  #seeded = new Map<string, z.output<S>>()
  /** As `#touched`, against the seed: what a saved state holds. */
  #sinceSeed = new Map<string, boolean>()
  /** `#sinceSeed` as it was at the baseline, for `reset()`. */
  #sinceSeedAtBaseline = new Map<string, boolean>()

  /** `schema`, or a function that makes it: then it is made on the first write that is not a seed. */
  constructor(schema: S | (() => S), key: (record: z.output<S>) => string) {
    this.#schema = schema
    this.#key = key
  }

  /** Holds these records, and only these, as the baseline: records the schema made already (parsed fixtures), so not parsed again. */
  seed(parsed: readonly z.output<S>[]): void {
    this.#records = new Map(parsed.map((record) => [this.#key(record), record]))
    this.#seeded = new Map(this.#records)
    this.#sinceSeed.clear()
    this.rebase()
  }

  /** Makes the records held now the baseline that `reset()` returns to. */
  rebase(): void {
    this.#baseline = new Map(this.#records)
    this.#touched.clear()
    this.#sinceSeedAtBaseline = new Map(this.#sinceSeed)
  }

  /** Parses the value with the schema and holds it, replacing the record with its key in place. */
  put(value: z.input<S>): z.output<S> {
    if (typeof this.#schema === 'function') this.#schema = this.#schema()
    const record = this.#schema.parse(value)
    this.#hold(this.#key(record), record)
    return record
  }

  #hold(key: string, record: z.output<S>): void {
    touch(this.#touched, key, this.#records)
    touch(this.#sinceSeed, key, this.#records)
    this.#records.set(key, record)
  }

  get(key: string): z.output<S> | undefined {
    return this.#records.get(key)
  }

  has(key: string): boolean {
    return this.#records.has(key)
  }

  /** Whether there was a record with this key. */
  delete(key: string): boolean {
    if (!this.#records.delete(key)) return false
    if (this.#baseline.has(key)) this.#touched.set(key, true)
    else this.#touched.delete(key)
    if (this.#seeded.has(key)) this.#sinceSeed.set(key, true)
    else this.#sinceSeed.delete(key)
    return true
  }

  /** Every record, in order. */
  all(): z.output<S>[] {
    return [...this.#records.values()]
  }

  /** The records the predicate holds for, in order. */
  filter(predicate: (record: z.output<S>) => boolean): z.output<S>[] {
    return this.all().filter(predicate)
  }

  get size(): number {
    return this.#records.size
  }

  changes(): StoreChanges<z.output<S>> {
    return this.#changesIn(this.#touched)
  }

  /** What changed since the seed (the fixtures), however many baselines were made since: a saved state's part. */
  saved(): StoreChanges<z.output<S>> {
    return this.#changesIn(this.#sinceSeed)
  }

  /** Whether the seed (the fixtures) has a record with this key. */
  seeded(key: string): boolean {
    return this.#seeded.has(key)
  }

  /** The keys of the seed's records, in order. */
  seededKeys(): string[] {
    return [...this.#seeded.keys()]
  }

  /**
   * The seed with these changes applied (records the schema made already: a checked saved
   * state's), made the baseline.
   */
  restore(changes: StoreChanges<z.output<S>>): void {
    this.#records = new Map(this.#seeded)
    this.#touched.clear()
    this.#sinceSeed.clear()
    for (const key of changes.deleted) this.delete(key)
    for (const record of changes.put) this.#hold(this.#key(record), record)
    this.rebase()
  }

  #changesIn(touched: ReadonlyMap<string, boolean>): StoreChanges<z.output<S>> {
    const put: z.output<S>[] = []
    const deleted: string[] = []
    for (const [key, baselineDeleted] of touched) {
      const record = this.#records.get(key)
      if (record !== undefined) put.push(record)
      if (baselineDeleted) deleted.push(key)
    }
    return { put, deleted }
  }

  /** Back to the baseline: its records, in its order. */
  reset(): void {
    if (this.#touched.size > 0) this.#sinceSeed = new Map(this.#sinceSeedAtBaseline)
    let reorder = false
    for (const [key, baselineDeleted] of this.#touched) {
      const base = this.#baseline.get(key)
      if (base === undefined) this.#records.delete(key)
      else if (baselineDeleted) reorder = true
      else this.#records.set(key, base)
    }
    // A baseline record deleted and added again went to the end: only a copy restores the order.
    if (reorder) this.#records = new Map(this.#baseline)
    this.#touched.clear()
  }
}

/** Notes a write of `key` in `touched`, before it is held: a key not held yet goes to the end of the order. */
function touch(touched: Map<string, boolean>, key: string, held: ReadonlyMap<string, unknown>): void {
  if (!held.has(key)) {
    // Added at the end of the order: so it comes after every record touched before it.
    const deleted = touched.get(key) ?? false
    touched.delete(key)
    touched.set(key, deleted)
  } else if (!touched.has(key)) touched.set(key, false)
}
