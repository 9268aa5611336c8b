/**
 * The versions domain's fixture sections (`storages`, `elements`, `generate`) and loading them
 * into the element store: each element is rendered into its versions' records, cross-references
 * are checked (a failure names the file and the path), and the generated elements join the store
 * as a baseline that makes each one when it is read; and the first element's address, to try.
 */
import type { FixtureRecords } from '../kernel/domain.js'
import { FixtureError } from '../kernel/errors.js'
import { fixtureSection, type FixtureSection } from '../kernel/fixtures.js'
import { VERSIONS_PATH } from './constants.js'
import type { Generation } from './generate.js'
import { GeneratedElements } from './generated.js'
import { type ElementFixture, type ElementRef, type GenerateFixture, type StorageFixture, type VersionRecord, storageKey, versionSchemas } from './model.js'
import { toRecords } from './records.js'
import type { ElementStore } from './store.js'

export const storagesSection: FixtureSection<StorageFixture> = fixtureSection('storages', () => versionSchemas().StorageFixture, (s) => storageKey(s.collectionId, s.storageId))
export const elementsSection: FixtureSection<ElementFixture> = fixtureSection('elements', () => versionSchemas().ElementFixture, (e) => `${e.storage}/${e.facet}/${e.id.toLowerCase()}`)
export const generateSection: FixtureSection<GenerateFixture> = fixtureSection('generate', () => versionSchemas().GenerateFixture)

export interface LoadOptions {
  readonly baseUrl: string
  readonly seed: number
  readonly newId: () => string
}

/** Seeds the store with the fixtures' storages and elements, and the generated elements. */
export async function loadElements(store: ElementStore, fixtures: FixtureRecords, options: LoadOptions): Promise<void> {
  const { records, generation } = fixtureRecords(fixtures, options)
  store.seed(
    fixtures.of(storagesSection).map((s) => s.value),
    records,
    generation && new GeneratedElements(generation, options.baseUrl),
  )
}

/** The records of the fixtures' elements, checked against their storages, and what to generate. */
export function fixtureRecords(fixtures: FixtureRecords, options: LoadOptions): { records: VersionRecord[]; generation: Generation | undefined } {
  const storages = fixtures.of(storagesSection)
  const generateFixture = fixtures.of(generateSection)[0]
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
  if (generateFixture && generateFixture.value.elements > 0) {
    const firstStorage = storages[0]?.value
    const target = generateFixture.value.storage ?? (firstStorage && storageKey(firstStorage.collectionId, firstStorage.storageId))
    const storage = target === undefined ? undefined : known.get(target)
    if (!storage || target === undefined) {
      throw new FixtureError(generateFixture.file, `${generateFixture.path}.storage`, 'names no storage the fixtures define')
    }
    if (!storage.facets.some((f) => f.name === generateFixture.value.facet)) {
      throw new FixtureError(generateFixture.file, `${generateFixture.path}.facet`, `storage ${target} has no facet "${generateFixture.value.facet}"`)
    }
    const users: ElementRef[] = records
      .filter((r) => r.type === 'user' && storageKey(r.collectionId, r.storageId) === target)
      .map((r) => ({ facetName: r.facet, id: r.elementId, type: r.type }))
    return { records, generation: { count: generateFixture.value.elements, storage: target, facet: generateFixture.value.facet, seed: options.seed, users } }
  }
  return { records, generation: undefined }
}

/** The versions of the fixtures' first element, in its facet's first view: a request worth trying first (none without an element). */
export function exampleVersionsUrl(fixtures: FixtureRecords, baseUrl: string): string | undefined {
  const element = fixtures.of(elementsSection)[0]?.value
  if (element === undefined) return undefined
  const [collectionId = '', storageId = ''] = element.storage.split('/')
  const storage = fixtures.of(storagesSection).find((s) => s.value.collectionId === collectionId && s.value.storageId === storageId)?.value
  const view = storage?.facets.find((f) => f.name === element.facet)?.views[0]
  if (view === undefined) return undefined
  const params: Readonly<Record<string, string>> = { collectionId, storageId, facetId: element.facet, viewId: view, elementId: element.id }
  return `${baseUrl}${VERSIONS_PATH.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(params[name] ?? ''))}`
}
