/**
 * The element store: storages and elements in KeyedStores (an element is its versions, oldest
 * first, and its place in the list), an index from every element id and version id to the
 * elements holding it, for the lookups a request makes, and the generated elements beside them
 * as a read-only baseline that makes an element when it is read (generated.ts). A generated
 * element that changes moves into the store at its place in the list; the baseline is never
 * copied: the store notes which of its elements changed (the change log), and a reset forgets
 * that note. So lookups and a reset stay flat however many elements the store holds.
 */
import * as z from 'zod'
import { ConflictError } from '../kernel/errors.js'
import { KeyedStore, type StoreChanges } from '../kernel/keyed-store.js'
import type { SeededKeys } from '../kernel/saved-store.js'
import type { GeneratedElements } from './generated.js'
import type { GeneratedIdParts } from './generated-ids.js'
import { type StorageFixture, type StorageRecord, type VersionRecord, elementKey, storageKey, versionSchemas } from './model.js'
import { type ElementSummary, summarize } from './summary.js'

export interface ElementFilter {
  storage?: string
  facet?: string
}

/** An element as the store keeps it: its versions, oldest first, and its place in the element list. */
const storedElement = (): z.ZodObject<{ versions: z.ZodArray<ReturnType<typeof versionSchemas>['VersionRecord']>; place: z.ZodNumber }> =>
  z.object({ versions: z.array(versionSchemas().VersionRecord).min(1), place: z.number() })
export type StoredElement = z.infer<ReturnType<typeof storedElement>>

/** The elements as a saved state holds them: the changes against the fixtures, the generated ones taken out, the next place. */
export interface SavedElements {
  readonly changes: StoreChanges<StoredElement>
  /** Generated elements (by index) changed or removed: the store answers for them, or nothing does. */
  readonly moved: readonly number[]
  readonly nextPlace: number
}

export function keyOf(element: StoredElement): string {
  const { collectionId, storageId, facet, elementId } = element.versions[0] as VersionRecord
  return elementKey(collectionId, storageId, facet, elementId)
}

export class ElementStore {
  readonly storages = new KeyedStore(() => versionSchemas().StorageRecord, (s) => storageKey(s.collectionId, s.storageId))
  readonly #elements = new KeyedStore(storedElement, keyOf)
  /** An element id or version id (lower case) -> the keys of the elements holding it, any storage or facet. */
  readonly #byId = new Map<string, string[]>()
  #nextPlace = 0
  #generated: GeneratedElements | undefined
  /** Place of the first generated element: they come after the fixtures' elements. */
  #generatedPlace = 0
  /** Generated elements (by index) changed or removed since the seed: the store answers for them, or nothing does. */
  #moved = new Set<number>()
  /** Those a reset leaves moved (a saved state's). */
  #movedBaseline: readonly number[] = []

  /** The seeded store: the fixtures' storages and elements (their versions' records), and the generated elements, if any. */
  seed(storages: readonly StorageFixture[], versions: readonly VersionRecord[], generated?: GeneratedElements): void {
    this.storages.seed(storages)
    const byElement = new Map<string, VersionRecord[]>()
    for (const record of versions) {
      const key = elementKey(record.collectionId, record.storageId, record.facet, record.elementId)
      const list = byElement.get(key)
      if (list) list.push(record)
      else byElement.set(key, [record])
    }
    const elements = [...byElement.values()].map((list, place) => ({ versions: list.sort((a, b) => a.seq - b.seq), place }))
    this.#elements.seed(elements)
    this.#byId.clear()
    for (const element of elements) this.#index(element)
    this.#generated = generated
    this.#generatedPlace = elements.length
    this.#nextPlace = elements.length + (generated?.count ?? 0)
    this.#moved.clear()
    this.#movedBaseline = []
  }

  /** Back to the seeded storages and elements, undoing only the elements that changed. */
  reset(): void {
    this.storages.reset()
    const { put, deleted } = this.#elements.changes()
    for (const element of put) this.#unindex(element)
    this.#elements.reset()
    for (const key of [...put.map(keyOf), ...deleted]) {
      const element = this.#elements.get(key)
      if (element) this.#index(element)
    }
    this.#moved = new Set(this.#movedBaseline)
  }

  /** The elements' part of a saved state. */
  savedElements(): SavedElements {
    return { changes: this.#elements.saved(), moved: [...this.#moved], nextPlace: this.#nextPlace }
  }

  /** The fixtures' elements' keys (a saved state's elements are checked against them). */
  get elementSeed(): SeededKeys {
    return this.#elements
  }

  /** How many elements were generated from the seed. */
  get generatedCount(): number {
    return this.#generated?.count ?? 0
  }

  /** The place the first element added after the fixtures and the generated ones takes. */
  get seedNextPlace(): number {
    return this.#generatedPlace + this.generatedCount
  }

  /** The generated element this id names in this storage and facet, as its index (whether or not it was moved). */
  generatedIndex(collectionId: string, storageId: string, facet: string, id: string): number | undefined {
    const generated = this.#generated
    if (!generated?.holds(collectionId, storageId, facet)) return undefined
    const parts = generated.read(id)
    return parts?.version === 0 ? parts.index : undefined
  }

  /** The fixtures' elements with these changes (checked already), made the baseline a reset returns to. */
  restoreElements(saved: SavedElements): void {
    this.#elements.restore(saved.changes)
    this.#byId.clear()
    for (const element of this.#elements.all()) this.#index(element)
    this.#movedBaseline = [...saved.moved]
    this.#moved = new Set(saved.moved)
    this.#nextPlace = saved.nextPlace
  }

  storage(collectionId: string, storageId: string): StorageRecord | undefined {
    return this.storages.get(storageKey(collectionId, storageId))
  }

  /** Versions of the element named by its id or by any of its version ids, oldest first. */
  elementVersions(collectionId: string, storageId: string, facet: string, id: string): readonly VersionRecord[] | undefined {
    const direct = this.#elements.get(elementKey(collectionId, storageId, facet, id))
    if (direct) return direct.versions
    const viaVersion = this.#holding(id, collectionId, storageId, facet).pop()
    if (viaVersion) return viaVersion.versions
    const generated = this.#readGenerated(collectionId, storageId, facet, id)
    return generated && this.#generated?.records(generated.index)
  }

  /** The record for an element id or version id in any facet of a storage (for `$expandRelated`). */
  find(collectionId: string, storageId: string, id: string, versionId?: string): VersionRecord | undefined {
    let list: readonly VersionRecord[] | undefined = this.#holding(versionId ?? id, collectionId, storageId).pop()?.versions
    if (!list) {
      const generated = this.#readGenerated(collectionId, storageId, undefined, versionId ?? id)
      list = generated && this.#generated?.records(generated.index)
    }
    if (!list) return undefined
    if (versionId !== undefined) return list.find((v) => v.versionId.toLowerCase() === versionId.toLowerCase())
    return list[list.length - 1]
  }

  /**
   * The elements of a storage or facet (or all), as the control plane lists them, in the order
   * they were added: the fixtures', the generated ones, then those added at run time.
   */
  summaries(filter: ElementFilter = {}): ElementSummary[] {
    let collectionId: string | undefined
    let storageId: string | undefined
    if (filter.storage !== undefined) {
      const slash = filter.storage.indexOf('/')
      if (slash < 0) return []
      collectionId = filter.storage.slice(0, slash)
      storageId = filter.storage.slice(slash + 1)
    }
    const stored = this.#elements
      .filter(({ versions: [first] }) => first !== undefined && (collectionId === undefined || (first.collectionId === collectionId && first.storageId === storageId)) && (filter.facet === undefined || first.facet === filter.facet))
      .sort((a, b) => a.place - b.place)
    const out: ElementSummary[] = []
    let next = 0
    const storedBefore = (place: number): void => {
      for (; next < stored.length && (stored[next]?.place ?? 0) < place; next++) out.push(summarize(stored[next]?.versions ?? []))
    }
    const generated = this.#generated
    if (generated && generated.holds(collectionId ?? generated.collectionId, storageId ?? generated.storageId, filter.facet)) {
      for (let index = 0; index < generated.count; index++) {
        storedBefore(this.#generatedPlace + index)
        if (!this.#moved.has(index)) out.push(generated.summary(index))
      }
    }
    storedBefore(Number.POSITIVE_INFINITY)
    return out
  }

  summary(collectionId: string, storageId: string, facet: string, id: string): ElementSummary | undefined {
    const element = this.#elements.get(elementKey(collectionId, storageId, facet, id))
    if (element) return summarize(element.versions)
    const generated = this.#readGenerated(collectionId, storageId, facet, id)
    return generated?.version === 0 ? this.#generated?.summary(generated.index) : undefined
  }

  /** The elements whose id is `id`, in the storages and facets the filter names (any when it names none). */
  withId(id: string, filter: ElementFilter = {}): ElementSummary[] {
    const lower = id.toLowerCase()
    const found: Array<{ place: number; summary: ElementSummary }> = []
    for (const element of this.#holding(id)) {
      const summary = summarize(element.versions)
      if (summary.id.toLowerCase() === lower && matches(summary, filter)) found.push({ place: element.place, summary })
    }
    const generated = this.#generated
    const parts = generated && this.#readGenerated(generated.collectionId, generated.storageId, generated.facet, id)
    if (generated && parts?.version === 0) {
      const summary = generated.summary(parts.index)
      if (matches(summary, filter)) found.push({ place: this.#generatedPlace + parts.index, summary })
    }
    return found.sort((a, b) => a.place - b.place).map((f) => f.summary)
  }

  addStorage(storage: StorageFixture): StorageRecord {
    return this.storages.put(storage)
  }

  /** Adds a whole element; refuses one that exists already. */
  addElement(records: readonly VersionRecord[]): void {
    const first = records[0]
    if (!first) return
    const key = elementKey(first.collectionId, first.storageId, first.facet, first.elementId)
    if (this.#elements.has(key) || this.#readGenerated(first.collectionId, first.storageId, first.facet, first.elementId)?.version === 0) {
      throw new ConflictError(`Element ${first.elementId} exists already in ${storageKey(first.collectionId, first.storageId)}, facet ${first.facet}; add versions to it instead.`, 'id')
    }
    this.#index(this.#elements.put({ versions: [...records], place: this.#nextPlace++ }))
  }

  /** Replaces all versions of one element (after a version was added or removed), keeping its place. */
  replaceVersions(records: readonly VersionRecord[]): void {
    const first = records[0]
    if (!first) return
    const existing = this.#elements.get(elementKey(first.collectionId, first.storageId, first.facet, first.elementId))
    const place = existing ? existing.place : this.#moveGenerated(first.collectionId, first.storageId, first.facet, first.elementId)
    if (place === undefined) return
    if (existing) this.#unindex(existing)
    this.#index(this.#elements.put({ versions: [...records].sort((a, b) => a.seq - b.seq), place }))
  }

  removeElement(collectionId: string, storageId: string, facet: string, id: string): boolean {
    const key = elementKey(collectionId, storageId, facet, id)
    const element = this.#elements.get(key)
    if (!element) return this.#moveGenerated(collectionId, storageId, facet, id) !== undefined
    this.#unindex(element)
    return this.#elements.delete(key)
  }

  /** The stored elements holding this id, as an element id or a version id, in the storage (and facet) given, if any; the last indexed last. */
  #holding(id: string, collectionId?: string, storageId?: string, facet?: string): StoredElement[] {
    const found: StoredElement[] = []
    for (const key of this.#byId.get(id.toLowerCase()) ?? []) {
      const element = this.#elements.get(key)
      const first = element?.versions[0]
      if (!element || !first) continue
      if (collectionId !== undefined && (first.collectionId !== collectionId || first.storageId !== storageId)) continue
      if (facet === undefined || first.facet === facet) found.push(element)
    }
    return found
  }

  /** The generated element an id names, unless it changed since the seed. */
  #readGenerated(collectionId: string, storageId: string, facet: string | undefined, id: string): GeneratedIdParts | undefined {
    const generated = this.#generated
    if (!generated?.holds(collectionId, storageId, facet)) return undefined
    const parts = generated.read(id)
    return parts && !this.#moved.has(parts.index) ? parts : undefined
  }

  /** Takes a generated element out of the baseline's answers (until a reset); its place in the list, for what replaces it. */
  #moveGenerated(collectionId: string, storageId: string, facet: string, id: string): number | undefined {
    const parts = this.#readGenerated(collectionId, storageId, facet, id)
    if (parts?.version !== 0) return undefined
    this.#moved.add(parts.index)
    return this.#generatedPlace + parts.index
  }

  #index(element: StoredElement): void {
    const key = keyOf(element)
    const ids = new Set([element.versions[0]?.elementId ?? '', ...element.versions.map((v) => v.versionId)].map((id) => id.toLowerCase()))
    for (const id of ids) {
      const keys = this.#byId.get(id)
      if (!keys) this.#byId.set(id, [key])
      else if (!keys.includes(key)) keys.push(key)
    }
  }

  #unindex(element: StoredElement): void {
    const key = keyOf(element)
    for (const id of [element.versions[0]?.elementId ?? '', ...element.versions.map((v) => v.versionId)]) {
      const keys = this.#byId.get(id.toLowerCase())?.filter((k) => k !== key)
      if (keys?.length) this.#byId.set(id.toLowerCase(), keys)
      else this.#byId.delete(id.toLowerCase())
    }
  }
}

function matches(summary: ElementSummary, filter: ElementFilter): boolean {
  return (filter.storage === undefined || filter.storage === summary.storage) && (filter.facet === undefined || filter.facet === summary.facet)
}
