/**
 * Control-plane operations on the element store: add storages, elements and versions, remove
 * elements and versions, list them. Bodies use the fixture format and are checked the same way;
 * a bad one answers 400 naming the field.
 */
import { ConflictError, InvalidInputError, NotFoundError } from '../kernel/errors.js'
import { parseBody } from '../kernel/validation.js'
import { type ElementInput, type StorageFixture, type StorageInput, type VersionInput, type VersionRecord, versionSchemas } from './model.js'
import { toRecord, toRecords, withCurrentHistory } from './records.js'
import type { ElementFilter, ElementStore } from './store.js'
import type { ElementSummary } from './summary.js'

export interface ElementAdminDeps {
  readonly baseUrl: string
  readonly newId: () => string
}

/** Which storage and facet an operation means (`?storage=…&facet=…`). */
export type Where = ElementFilter

export class ElementAdmin {
  readonly store: ElementStore
  readonly #deps: ElementAdminDeps

  constructor(store: ElementStore, deps: ElementAdminDeps) {
    this.store = store
    this.#deps = deps
  }

  listElements(filter: Where): ElementSummary[] {
    return this.store.summaries(filter)
  }

  async addStorage(input: StorageInput): Promise<StorageFixture> {
    const storage = parseBody(versionSchemas().StorageFixture, input, 'storage')
    if (this.store.storage(storage.collectionId, storage.storageId)) {
      throw new ConflictError(`Storage ${storage.collectionId}/${storage.storageId} exists already.`, 'storageId')
    }
    this.store.addStorage(storage)
    return storage
  }

  async addElement(input: ElementInput): Promise<ElementSummary> {
    const parsed = parseBody(versionSchemas().NewElement, input, 'element')
    const element = { ...parsed, id: parsed.id ?? this.#deps.newId() }
    this.#checkPlace(element.storage, element.facet)
    const records = toRecords(element, { baseUrl: this.#deps.baseUrl, newId: this.#deps.newId })
    this.#checkNewVersionIds(element.storage, records)
    this.store.addElement(records)
    const [collectionId = '', storageId = ''] = element.storage.split('/')
    return this.store.summary(collectionId, storageId, element.facet, element.id) as ElementSummary
  }

  async addVersion(elementId: string, input: VersionInput, where: Where): Promise<ElementSummary> {
    const found = this.#locate(elementId, where)
    const version = parseBody(versionSchemas().VersionFixture, input, 'version')
    const [collectionId = '', storageId = ''] = found.storage.split('/')
    const existing = this.store.elementVersions(collectionId, storageId, found.facet, found.id) ?? []
    const last = existing[existing.length - 1]
    const element = {
      facet: found.facet,
      id: found.id,
      type: found.type,
      ...(found.stereotype === undefined ? {} : { stereotype: found.stereotype }),
      ...(existing.some((r) => r.derivedReleaseHistory) ? { releaseHistory: true } : {}),
    }
    const record = toRecord(element, version, {
      collectionId,
      storageId,
      baseUrl: this.#deps.baseUrl,
      versionId: version.versionId ?? this.#deps.newId(),
      seq: (last?.seq ?? -1) + 1,
      history: [],
    })
    this.#checkNewVersionIds(found.storage, [record])
    this.store.replaceVersions(withCurrentHistory([...existing, record], this.#deps.baseUrl))
    return this.store.summary(collectionId, storageId, found.facet, found.id) as ElementSummary
  }

  removeElement(elementId: string, where: Where): void {
    const found = this.#locate(elementId, where)
    const [collectionId = '', storageId = ''] = found.storage.split('/')
    this.store.removeElement(collectionId, storageId, found.facet, found.id)
  }

  async removeVersion(elementId: string, versionId: string, where: Where): Promise<void> {
    const found = this.#locate(elementId, where)
    const [collectionId = '', storageId = ''] = found.storage.split('/')
    const existing = this.store.elementVersions(collectionId, storageId, found.facet, found.id) ?? []
    const remaining = existing.filter((v) => v.versionId.toLowerCase() !== versionId.toLowerCase())
    if (remaining.length === existing.length) throw new NotFoundError(`Element ${elementId} has no version ${versionId}.`, 'versionId')
    if (remaining.length === 0) {
      throw new ConflictError(`Version ${versionId} is the only version of element ${elementId}; delete the element instead.`, 'versionId')
    }
    this.store.replaceVersions(withCurrentHistory(remaining, this.#deps.baseUrl))
  }

  #checkPlace(storageRef: string, facetName: string): void {
    const [collectionId = '', storageId = ''] = storageRef.split('/')
    const storage = this.store.storage(collectionId, storageId)
    if (!storage) throw new InvalidInputError(`Unknown storage ${storageRef}; create it first with POST /__svc-mock/storages.`, 'storage')
    if (!storage.facets.some((f) => f.name === facetName)) {
      throw new InvalidInputError(`Storage ${storageRef} has no facet "${facetName}" (it has ${storage.facets.map((f) => f.name).join(', ')}).`, 'facet')
    }
  }

  #checkNewVersionIds(storageRef: string, records: readonly VersionRecord[]): void {
    const [collectionId = '', storageId = ''] = storageRef.split('/')
    for (const record of records) {
      if (this.store.find(collectionId, storageId, record.versionId, record.versionId)) {
        throw new ConflictError(`Version ${record.versionId} exists already in storage ${storageRef}.`, 'versionId')
      }
    }
  }

  #locate(elementId: string, where: Where): ElementSummary {
    const matches = this.store.withId(elementId, where)
    if (matches.length === 0) throw new NotFoundError(`No element ${elementId}${where.storage ? ` in ${where.storage}` : ''}${where.facet ? `, facet ${where.facet}` : ''}.`, 'elementId')
    if (matches.length > 1) throw new InvalidInputError(`Element id ${elementId} exists in more than one storage or facet; say which with ?storage=…&facet=….`, 'storage')
    return matches[0] as ElementSummary
  }
}
