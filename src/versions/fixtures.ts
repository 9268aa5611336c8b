/**
 * The versions domain's fixture sections (`storages`, `elements`, `generate`) and loading them
 * into the element store: each element is rendered into its versions' records, cross-references
 * are checked (a failure names the file and the path), and generated elements are added from the
 * seed.
 */
import type { FixtureRecords } from '../kernel/domain.js'
import { FixtureError } from '../kernel/errors.js'
import type { FixtureSection } from '../kernel/fixtures.js'
import { generateElements } from './generate.js'
import { ElementFixture, type ElementRef, GenerateFixture, StorageFixture, type VersionRecord, storageKey } from './model.js'
import { toRecords } from './records.js'
import type { ElementStore } from './store.js'

export const storagesSection: FixtureSection<StorageFixture> = {
  name: 'storages',
  schema: StorageFixture,
  key: (s) => storageKey(s.collectionId, s.storageId),
}
export const elementsSection: FixtureSection<ElementFixture> = {
  name: 'elements',
  schema: ElementFixture,
  key: (e) => `${e.storage}/${e.facet}/${e.id.toLowerCase()}`,
}
export const generateSection: FixtureSection<GenerateFixture> = { name: 'generate', schema: GenerateFixture }

export interface LoadOptions {
  readonly baseUrl: string
  readonly seed: number
  readonly newId: () => string
}

export async function loadElements(store: ElementStore, fixtures: FixtureRecords, options: LoadOptions): Promise<void> {
  const storages = fixtures.of(storagesSection)
  const generate = fixtures.of(generateSection)[0]
  const known = new Map(storages.map((s) => [storageKey(s.value.collectionId, s.value.storageId), s.value]))
  const records: VersionRecord[] = []
  const versionIds = new Set<string>()
  for (const element of fixtures.of(elementsSection)) {
    const storage = known.get(element.value.storage)
    if (!storage) {
      throw new FixtureError(element.file, `${element.path}.storage`, `names storage "${element.value.storage}", which no fixture defines (known: ${[...known.keys()].join(', ') || 'none'})`)
    }
    if (!storage.facets.some((f) => f.name === element.value.facet)) {
      throw new FixtureError(element.file, `${element.path}.facet`, `storage ${element.value.storage} has no facet "${element.value.facet}" (it has ${storage.facets.map((f) => f.name).join(', ')})`)
    }
    const made = toRecords(element.value, options)
    for (const [index, record] of made.entries()) {
      const id = `${element.value.storage}/${record.versionId.toLowerCase()}`
      if (versionIds.has(id)) {
        throw new FixtureError(element.file, `${element.path}.versions[${index}].versionId`, `version ${record.versionId} appears twice in storage ${element.value.storage}`)
      }
      versionIds.add(id)
    }
    records.push(...made)
  }
  if (generate && generate.value.elements > 0) {
    const firstStorage = storages[0]?.value
    const target = generate.value.storage ?? (firstStorage && storageKey(firstStorage.collectionId, firstStorage.storageId))
    const storage = target === undefined ? undefined : known.get(target)
    if (!storage || target === undefined) {
      throw new FixtureError(generate.file, `${generate.path}.storage`, 'names no storage the fixtures define')
    }
    if (!storage.facets.some((f) => f.name === generate.value.facet)) {
      throw new FixtureError(generate.file, `${generate.path}.facet`, `storage ${target} has no facet "${generate.value.facet}"`)
    }
    const users: ElementRef[] = records
      .filter((r) => r.type === 'user' && storageKey(r.collectionId, r.storageId) === target)
      .map((r) => ({ facetName: r.facet, id: r.elementId, type: r.type }))
    const generated = generateElements(generate.value.elements, { storage: target, facet: generate.value.facet, seed: options.seed, baseUrl: options.baseUrl, users })
    for (const element of generated) records.push(...toRecords(element, options))
  }
  await store.seed(
    storages.map((s) => s.value),
    records,
  )
}
