/**
 * The element store: storages and element versions in @msw/data collections, with Map indexes for
 * every lookup a request makes (storage, element by id or by any of its version ids), so a lookup
 * stays flat however many elements the store holds.
 */
import { ConflictError } from '../kernel/errors.js'
import { type FieldValues, IndexedCollection } from '../kernel/store.js'
import {
  type StorageFixture,
  StorageRecord,
  type VersionRecord,
  VersionRecord as VersionRecordSchema,
  elementKey,
  storageKey,
} from './model.js'

export interface ElementSummary {
  storage: string
  facet: string
  id: string
  type: string
  stereotype?: string
  versions: Array<{ versionId: string; state: string }>
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
  /** The seeded versions of every element, for undoing changes on reset. */
  #baseline = new Map<string, readonly VersionRecord[]>()
  /** Elements changed since the seed. */
  #dirty = new Set<string>()
  /** Each element's place in the list: the order it was first added in, kept when its versions change or a reset restores it. */
  #place = new Map<string, number>()
  #nextPlace = 0
  /** Makes the seeded elements still to come (generated ones), until something needs them. */
  #later: (() => readonly VersionRecord[]) | undefined

  /** The seeded store; `later` makes more seeded elements once one of them or the whole list is needed. */
  async seed(storages: readonly StorageFixture[], versions: readonly VersionRecord[], later?: () => readonly VersionRecord[]): Promise<void> {
    await this.storages.seed(storages)
    await this.versions.seed(versions)
    this.#byElement.clear()
    this.#byVersion.clear()
    this.#anyFacet.clear()
    this.#place.clear()
    for (const record of this.versions.all()) this.#index(record)
    for (const list of this.#byElement.values()) list.sort((a, b) => a.seq - b.seq)
    this.#baseline = new Map([...this.#byElement].map(([key, list]) => [key, [...list]]))
    this.#dirty.clear()
    this.#later = later
  }

  /** Adds the seeded elements still to come, as if they had been seeded with the rest. */
  #complete(): void {
    const later = this.#later
    if (later === undefined) return
    this.#later = undefined
    const records = later()
    void this.versions.extendBaseline(records)
    const added = new Set<string>()
    for (const record of records) {
      this.#index(record)
      added.add(elementKey(record.collectionId, record.storageId, record.facet, record.elementId))
    }
    for (const key of added) {
      const list = this.#byElement.get(key) ?? []
      list.sort((a, b) => a.seq - b.seq)
      this.#baseline.set(key, [...list])
    }
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
  }

  #index(record: VersionRecord): void {
    const key = elementKey(record.collectionId, record.storageId, record.facet, record.elementId)
    const list = this.#byElement.get(key)
    if (list) list.push(record)
    else this.#byElement.set(key, [record])
    if (!this.#place.has(key)) this.#place.set(key, this.#nextPlace++)
    const storage = storageKey(record.collectionId, record.storageId)
    this.#byVersion.set(`${storage}/${record.facet}/${record.versionId.toLowerCase()}`, key)
    this.#anyFacet.set(`${storage}/${record.elementId.toLowerCase()}`, key)
    this.#anyFacet.set(`${storage}/${record.versionId.toLowerCase()}`, key)
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
    if (!this.#later) return undefined
    this.#complete()
    return this.elementVersions(collectionId, storageId, facet, id)
  }

  /** The record for an element id or version id in any facet of a storage (for `$expandRelated`). */
  find(collectionId: string, storageId: string, id: string, versionId?: string): VersionRecord | undefined {
    const storage = storageKey(collectionId, storageId)
    const key = this.#anyFacet.get(`${storage}/${(versionId ?? id).toLowerCase()}`)
    if (key === undefined) {
      if (!this.#later) return undefined
      this.#complete()
      return this.find(collectionId, storageId, id, versionId)
    }
    const list = this.#byElement.get(key) ?? []
    if (versionId !== undefined) return list.find((v) => v.versionId.toLowerCase() === versionId.toLowerCase())
    return list[list.length - 1]
  }

  /**
   * The elements of a storage or facet (or all), as the control plane lists them: the matching
   * versions come from the collections' query, then each element once, in the order it was added.
   */
  summaries(filter: { storage?: string; facet?: string } = {}): ElementSummary[] {
    this.#complete()
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
    const keys = [...matched].filter((key) => this.#byElement.has(key))
    keys.sort((a, b) => (this.#place.get(a) ?? 0) - (this.#place.get(b) ?? 0))
    return keys.map((key) => summarize(this.#byElement.get(key) ?? []))
  }

  summary(collectionId: string, storageId: string, facet: string, id: string): ElementSummary | undefined {
    this.#complete()
    const list = this.#byElement.get(elementKey(collectionId, storageId, facet, id))
    return list ? summarize(list) : undefined
  }

  async addStorage(storage: StorageFixture): Promise<StorageRecord> {
    return await this.storages.insert(storage)
  }

  /** Adds a whole element; refuses one that exists already. */
  async addElement(records: readonly VersionRecord[]): Promise<void> {
    this.#complete()
    const first = records[0]
    if (!first) return
    const storage = storageKey(first.collectionId, first.storageId)
    if (this.#byElement.has(elementKey(first.collectionId, first.storageId, first.facet, first.elementId))) {
      throw new ConflictError(`Element ${first.elementId} exists already in ${storage}, facet ${first.facet}; add versions to it instead.`, 'id')
    }
    for (const record of records) {
      await this.versions.insert(record)
      this.#index(record)
    }
    this.#dirty.add(elementKey(first.collectionId, first.storageId, first.facet, first.elementId))
  }

  /** Replaces all versions of one element (after a version was added or removed). */
  async replaceVersions(records: readonly VersionRecord[]): Promise<void> {
    this.#complete()
    const first = records[0]
    if (!first) return
    const key = elementKey(first.collectionId, first.storageId, first.facet, first.elementId)
    this.#remove(key)
    for (const record of records) {
      await this.versions.insert(record)
      this.#index(record)
    }
    this.#byElement.get(key)?.sort((a, b) => a.seq - b.seq)
  }

  removeElement(collectionId: string, storageId: string, facet: string, id: string): boolean {
    this.#complete()
    return this.#remove(elementKey(collectionId, storageId, facet, id))
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
      this.#byVersion.delete(`${storage}/${record.facet}/${record.versionId.toLowerCase()}`)
      this.#anyFacet.delete(`${storage}/${record.versionId.toLowerCase()}`)
      if (this.#anyFacet.get(`${storage}/${record.elementId.toLowerCase()}`) === key) this.#anyFacet.delete(`${storage}/${record.elementId.toLowerCase()}`)
    }
  }
}

function summarize(list: readonly VersionRecord[]): ElementSummary {
  const first = list[0] as VersionRecord
  return {
    storage: storageKey(first.collectionId, first.storageId),
    facet: first.facet,
    id: first.elementId,
    type: first.type,
    ...(first.stereotype === undefined ? {} : { stereotype: first.stereotype }),
    versions: list.map((v) => ({ versionId: v.versionId, state: v.state })),
  }
}
