/**
 * The element store: storages and element versions in @msw/data collections, with Map indexes for
 * every lookup a request makes (storage, element by id or by any of its version ids), and the
 * generated elements beside them as a read-only baseline that makes an element when it is read
 * (generated.ts). A generated element that changes moves into the collections; the baseline is
 * never copied: the store notes which of its elements the collections answer for now, and a reset
 * forgets that note. So lookups and a reset stay flat however many elements the store holds.
 */
import { ConflictError } from '../kernel/errors.js'
import { type FieldValues, IndexedCollection } from '../kernel/store.js'
import type { GeneratedElements } from './generated.js'
import type { GeneratedIdParts } from './generated-ids.js'
import {
  type StorageFixture,
  StorageRecord,
  type VersionRecord,
  VersionRecord as VersionRecordSchema,
  elementKey,
  storageKey,
} from './model.js'
import { type ElementSummary, summarize } from './summary.js'

export interface ElementFilter {
  storage?: string
  facet?: string
}

export class ElementStore {
  readonly storages = new IndexedCollection(StorageRecord, (s) => storageKey(s.collectionId, s.storageId))
  readonly versions = new IndexedCollection(VersionRecordSchema, (v) => `${storageKey(v.collectionId, v.storageId)}/${v.versionId}`, { shards: 256 })
  /** element key -> its versions, oldest first */
  #byElement = new Map<string, VersionRecord[]>()
  /** `collection/storage/facet/versionId` -> element key */
  #byVersion = new Map<string, string>()
  /** `collection/storage/id` (element id or version id, any facet) -> element key */
  #anyFacet = new Map<string, string>()
  /** element id (lower case) -> the keys of the elements with that id, in any storage or facet */
  #withId = new Map<string, Set<string>>()
  /** The seeded versions of the fixtures' elements, for undoing changes on reset. */
  #baseline = new Map<string, readonly VersionRecord[]>()
  /** Elements changed since the seed. */
  #dirty = new Set<string>()
  /** Each element's place in the list: the order it was first added in, kept when its versions change or a reset restores it. */
  #place = new Map<string, number>()
  #nextPlace = 0
  #generated: GeneratedElements | undefined
  /** Place of the first generated element: they come after the fixtures' elements. */
  #generatedPlace = 0
  /** Generated elements (by index) changed or removed since the seed: the collections answer for them, or nothing does. */
  #moved = new Set<number>()

  /** The seeded store: the fixtures' storages and elements, and the generated elements, if any. */
  async seed(storages: readonly StorageFixture[], versions: readonly VersionRecord[], generated?: GeneratedElements): Promise<void> {
    await this.storages.seed(storages)
    await this.versions.seed(versions)
    for (const index of [this.#byElement, this.#byVersion, this.#anyFacet, this.#withId, this.#place]) index.clear()
    this.#nextPlace = 0
    for (const record of this.versions.all()) this.#index(record)
    for (const list of this.#byElement.values()) list.sort((a, b) => a.seq - b.seq)
    this.#baseline = new Map([...this.#byElement].map(([key, list]) => [key, [...list]]))
    this.#dirty.clear()
    this.#generated = generated
    this.#generatedPlace = this.#nextPlace
    this.#nextPlace += generated?.count ?? 0
    this.#moved.clear()
  }

  /** Back to the seeded storages and elements, undoing only the elements that changed. */
  async reset(): Promise<void> {
    await this.storages.reset()
    if (this.#dirty.size === 0) return
    await this.versions.reset()
    for (const key of this.#dirty) {
      this.#unindex(key)
      for (const record of this.#baseline.get(key) ?? []) this.#index(record)
    }
    for (const key of this.#dirty) if (!this.#baseline.has(key)) this.#place.delete(key)
    this.#dirty.clear()
    this.#moved.clear()
  }

  storage(collectionId: string, storageId: string): StorageRecord | undefined {
    return this.storages.get(storageKey(collectionId, storageId))
  }

  /** Versions of the element named by its id or by any of its version ids, oldest first. */
  elementVersions(collectionId: string, storageId: string, facet: string, id: string): readonly VersionRecord[] | undefined {
    const direct = this.#byElement.get(elementKey(collectionId, storageId, facet, id))
    if (direct) return direct
    const viaVersion = this.#byVersion.get(`${storageKey(collectionId, storageId)}/${facet}/${id.toLowerCase()}`)
    if (viaVersion !== undefined) return this.#byElement.get(viaVersion)
    const generated = this.#readGenerated(collectionId, storageId, facet, id)
    return generated && this.#generated?.records(generated.index)
  }

  /** The record for an element id or version id in any facet of a storage (for `$expandRelated`). */
  find(collectionId: string, storageId: string, id: string, versionId?: string): VersionRecord | undefined {
    const key = this.#anyFacet.get(`${storageKey(collectionId, storageId)}/${(versionId ?? id).toLowerCase()}`)
    let list: readonly VersionRecord[] | undefined = key === undefined ? undefined : this.#byElement.get(key)
    if (key === undefined) {
      const generated = this.#readGenerated(collectionId, storageId, undefined, versionId ?? id)
      list = generated && this.#generated?.records(generated.index)
    }
    if (!list) return undefined
    if (versionId !== undefined) return list.find((v) => v.versionId.toLowerCase() === versionId.toLowerCase())
    return list[list.length - 1]
  }

  /**
   * The elements of a storage or facet (or all), as the control plane lists them, in the order
   * they were added: the fixtures', the generated ones, then those added at run time. The stored
   * ones come from the collections' query.
   */
  summaries(filter: ElementFilter = {}): ElementSummary[] {
    const where: FieldValues<VersionRecord> = {}
    if (filter.storage !== undefined) {
      const slash = filter.storage.indexOf('/')
      if (slash < 0) return []
      where.collectionId = filter.storage.slice(0, slash)
      where.storageId = filter.storage.slice(slash + 1)
    }
    if (filter.facet !== undefined) where.facet = filter.facet
    const matched = new Set<string>()
    for (const record of this.versions.findMany(where)) matched.add(elementKey(record.collectionId, record.storageId, record.facet, record.elementId))
    const stored = [...matched].filter((key) => this.#byElement.has(key)).map((key) => ({ key, place: this.#place.get(key) ?? 0 }))
    stored.sort((a, b) => a.place - b.place)
    const out: ElementSummary[] = []
    let next = 0
    const storedBefore = (place: number): void => {
      for (; next < stored.length && (stored[next]?.place ?? 0) < place; next++) out.push(summarize(this.#byElement.get(stored[next]?.key ?? '') ?? []))
    }
    const generated = this.#generated
    if (generated && generated.holds(where.collectionId ?? generated.collectionId, where.storageId ?? generated.storageId, filter.facet)) {
      for (let index = 0; index < generated.count; index++) {
        storedBefore(this.#generatedPlace + index)
        if (!this.#moved.has(index)) out.push(generated.summary(index))
      }
    }
    storedBefore(Number.POSITIVE_INFINITY)
    return out
  }

  summary(collectionId: string, storageId: string, facet: string, id: string): ElementSummary | undefined {
    const list = this.#byElement.get(elementKey(collectionId, storageId, facet, id))
    if (list) return summarize(list)
    const generated = this.#readGenerated(collectionId, storageId, facet, id)
    return generated?.version === 0 ? this.#generated?.summary(generated.index) : undefined
  }

  /** The elements whose id is `id`, in the storages and facets the filter names (any when it names none). */
  withId(id: string, filter: ElementFilter = {}): ElementSummary[] {
    const found: Array<{ place: number; summary: ElementSummary }> = []
    for (const key of this.#withId.get(id.toLowerCase()) ?? []) {
      const summary = summarize(this.#byElement.get(key) ?? [])
      if (matches(summary, filter)) found.push({ place: this.#place.get(key) ?? 0, summary })
    }
    const generated = this.#generated
    const parts = generated && this.#readGenerated(generated.collectionId, generated.storageId, generated.facet, id)
    if (generated && parts?.version === 0) {
      const summary = generated.summary(parts.index)
      if (matches(summary, filter)) found.push({ place: this.#generatedPlace + parts.index, summary })
    }
    return found.sort((a, b) => a.place - b.place).map((f) => f.summary)
  }

  async addStorage(storage: StorageFixture): Promise<StorageRecord> {
    return await this.storages.insert(storage)
  }

  /** Adds a whole element; refuses one that exists already. */
  async addElement(records: readonly VersionRecord[]): Promise<void> {
    const first = records[0]
    if (!first) return
    const key = elementKey(first.collectionId, first.storageId, first.facet, first.elementId)
    if (this.#byElement.has(key) || this.#readGenerated(first.collectionId, first.storageId, first.facet, first.elementId)?.version === 0) {
      throw new ConflictError(`Element ${first.elementId} exists already in ${storageKey(first.collectionId, first.storageId)}, facet ${first.facet}; add versions to it instead.`, 'id')
    }
    for (const record of records) {
      await this.versions.insert(record)
      this.#index(record)
    }
    this.#dirty.add(key)
  }

  /** Replaces all versions of one element (after a version was added or removed). */
  async replaceVersions(records: readonly VersionRecord[]): Promise<void> {
    const first = records[0]
    if (!first) return
    const key = elementKey(first.collectionId, first.storageId, first.facet, first.elementId)
    if (!this.#remove(key)) this.#moveGenerated(first.collectionId, first.storageId, first.facet, first.elementId)
    for (const record of records) {
      await this.versions.insert(record)
      this.#index(record)
    }
    this.#byElement.get(key)?.sort((a, b) => a.seq - b.seq)
  }

  removeElement(collectionId: string, storageId: string, facet: string, id: string): boolean {
    return this.#remove(elementKey(collectionId, storageId, facet, id)) || this.#moveGenerated(collectionId, storageId, facet, id)
  }

  /** The generated element an id names, unless it changed since the seed. */
  #readGenerated(collectionId: string, storageId: string, facet: string | undefined, id: string): GeneratedIdParts | undefined {
    const generated = this.#generated
    if (!generated?.holds(collectionId, storageId, facet)) return undefined
    const parts = generated.read(id)
    return parts && !this.#moved.has(parts.index) ? parts : undefined
  }

  /** Takes a generated element out of the baseline's answers (until a reset), keeping its place for what replaces it. */
  #moveGenerated(collectionId: string, storageId: string, facet: string, id: string): boolean {
    const parts = this.#readGenerated(collectionId, storageId, facet, id)
    if (parts?.version !== 0) return false
    const key = elementKey(collectionId, storageId, facet, id)
    this.#moved.add(parts.index)
    this.#place.set(key, this.#generatedPlace + parts.index)
    this.#dirty.add(key)
    return true
  }

  #index(record: VersionRecord): void {
    const key = elementKey(record.collectionId, record.storageId, record.facet, record.elementId)
    const list = this.#byElement.get(key)
    if (list) list.push(record)
    else this.#byElement.set(key, [record])
    if (!this.#place.has(key)) this.#place.set(key, this.#nextPlace++)
    const storage = storageKey(record.collectionId, record.storageId)
    const elementId = record.elementId.toLowerCase()
    this.#byVersion.set(`${storage}/${record.facet}/${record.versionId.toLowerCase()}`, key)
    this.#anyFacet.set(`${storage}/${elementId}`, key)
    this.#anyFacet.set(`${storage}/${record.versionId.toLowerCase()}`, key)
    const keys = this.#withId.get(elementId)
    if (keys) keys.add(key)
    else this.#withId.set(elementId, new Set([key]))
  }

  /** Takes an element's versions out of the collection and the indexes. */
  #remove(key: string): boolean {
    const list = this.#byElement.get(key)
    if (!list) return false
    for (const record of list) this.versions.delete(`${storageKey(record.collectionId, record.storageId)}/${record.versionId}`)
    this.#unindex(key)
    this.#dirty.add(key)
    return true
  }

  #unindex(key: string): void {
    const list = this.#byElement.get(key)
    if (!list) return
    this.#byElement.delete(key)
    for (const record of list) {
      const storage = storageKey(record.collectionId, record.storageId)
      const elementId = record.elementId.toLowerCase()
      this.#byVersion.delete(`${storage}/${record.facet}/${record.versionId.toLowerCase()}`)
      this.#anyFacet.delete(`${storage}/${record.versionId.toLowerCase()}`)
      if (this.#anyFacet.get(`${storage}/${elementId}`) === key) this.#anyFacet.delete(`${storage}/${elementId}`)
      const keys = this.#withId.get(elementId)
      keys?.delete(key)
      if (keys?.size === 0) this.#withId.delete(elementId)
    }
  }
}

function matches(summary: ElementSummary, filter: ElementFilter): boolean {
  return (filter.storage === undefined || filter.storage === summary.storage) && (filter.facet === undefined || filter.facet === summary.facet)
}
