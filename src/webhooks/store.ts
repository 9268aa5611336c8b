/**
 * The webhook store: webhook records (their flow included) in an IndexedCollection, so reset
 * returns to the fixtures by undoing only what changed. Writes go to the collection in order;
 * until one lands, reads see it already (a learning webhook must learn from exactly one call, even
 * when calls arrive together).
 */
import { IndexedCollection } from '../kernel/store.js'
import { WebhookRecord } from './model.js'

export class WebhookStore {
  readonly #records = new IndexedCollection(WebhookRecord, (w) => w.id)
  /** Writes not yet in the collection: the record, or null for a delete. */
  readonly #pending = new Map<string, WebhookRecord | null>()
  #writes: Promise<unknown> = Promise.resolve()

  async seed(records: readonly WebhookRecord[]): Promise<void> {
    await this.#settled()
    await this.#records.seed(records)
  }

  get(id: string): WebhookRecord | undefined {
    const pending = this.#pending.get(id)
    if (pending !== undefined) return pending ?? undefined
    return this.#records.get(id)
  }

  all(): WebhookRecord[] {
    const out = new Map(this.#records.all().map((r) => [r.id, r]))
    for (const [id, record] of this.#pending) {
      if (record === null) out.delete(id)
      else out.set(id, record)
    }
    return [...out.values()]
  }

  /** Stores a record (replacing one with the same id); visible to `get` at once. */
  put(record: WebhookRecord): Promise<void> {
    this.#pending.set(record.id, record)
    return this.#write(record.id, record, async () => {
      await this.#records.insert(record)
    })
  }

  delete(id: string): boolean {
    if (this.get(id) === undefined) return false
    this.#pending.set(id, null)
    void this.#write(id, null, () => {
      this.#records.delete(id)
    })
    return true
  }

  async reset(): Promise<void> {
    await this.#settled()
    this.#pending.clear()
    await this.#records.reset()
  }

  #write(id: string, value: WebhookRecord | null, apply: () => Promise<void> | void): Promise<void> {
    const run = this.#writes.then(apply).finally(() => {
      if (this.#pending.get(id) === value) this.#pending.delete(id)
    })
    this.#writes = run.catch(() => undefined)
    return run
  }

  #settled(): Promise<unknown> {
    return this.#writes
  }
}
