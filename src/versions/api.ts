/**
 * What `emu` exposes of the element store in-process (the control plane calls the same methods):
 * `emu.elements` (list, add, add a version, remove) and `emu.storages` (list, add).
 */
import type { ElementAdmin, Where } from './admin.js'
import type { ElementInput, StorageFixture, StorageInput, VersionInput } from './model.js'
import type { ElementSummary } from './summary.js'

export interface ElementsApi {
  list(filter?: Where): ElementSummary[]
  /** An element with its versions, in the fixture format (the id is generated when absent). A bad one throws InvalidInputError (400). */
  add(element: ElementInput): Promise<ElementSummary>
  /** Appends a version (the newest). */
  addVersion(elementId: string, version: VersionInput, where?: Where): Promise<ElementSummary>
  remove(elementId: string, where?: Where): void
  removeVersion(elementId: string, versionId: string, where?: Where): Promise<void>
}

export interface StoragesApi {
  list(): StorageFixture[]
  add(storage: StorageInput): Promise<StorageFixture>
}

export interface VersionsApi {
  readonly elements: ElementsApi
  readonly storages: StoragesApi
}

export function versionsApi(admin: ElementAdmin): VersionsApi {
  return {
    elements: {
      list: (filter = {}) => admin.listElements(filter),
      add: (element) => admin.addElement(element),
      addVersion: (elementId, version, where = {}) => admin.addVersion(elementId, version, where),
      remove: (elementId, where = {}) => admin.removeElement(elementId, where),
      removeVersion: (elementId, versionId, where = {}) => admin.removeVersion(elementId, versionId, where),
    },
    storages: {
      list: () => admin.store.storages.all().map((s) => ({ collectionId: s.collectionId, storageId: s.storageId, facets: s.facets })),
      add: (storage) => admin.addStorage(storage),
    },
  }
}
