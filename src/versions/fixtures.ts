/**
 * The versions domain's fixture sections (`storages`, `elements`, `generate`) and loading them
 * into the element store: each element is rendered into its versions' records, cross-references
 * are checked (a failure names the file and the path), and generated elements are added from the
 * seed.
 */
import type { FixtureRecords } from '../kernel/domain.js'
import { FixtureError } from '../kernel/errors.js'
import type { FixtureSection } from '../kernel/fixtures.js'
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
  /** Elements the build generated already, by generation key (the default fixtures'). */
  readonly precompiled?: (key: string) => unknown
}

/** What generated elements depend on; the same parameters give the same elements. */
interface Generation {
  readonly count: number
  readonly storage: string
  readonly facet: string
  readonly seed: number
  readonly users: readonly ElementRef[]
}

/** The key under which the build stores the elements of a generation. */
export function generationKey(generation: Generation): string {
  return `versions:generate:${JSON.stringify(generation)}`
}

/**
 * Generates the elements (faker is loaded only here). Links in them are written with
 * `{base_url}`, which rendering replaces, so they do not depend on the emulator's address.
 */
export async function generate(generation: Generation): Promise<Iterable<ElementFixture>> {
  // faker is big and most runs never need it (the build's snapshot holds the default elements).
  const [{ generateElements }, { faker }] = await Promise.all([import('./generate.js'), import('@faker-js/faker/locale/en')])
  return generateElements(generation.count, { storage: generation.storage, facet: generation.facet, seed: generation.seed, baseUrl: '{base_url}', users: generation.users, faker })
}

export async function loadElements(store: ElementStore, fixtures: FixtureRecords, options: LoadOptions): Promise<void> {
  const stored = fixtures.defaultsOnly([storagesSection, elementsSection, generateSection]) ? (options.precompiled?.(defaultRecordsKey(options.seed)) as StoredRecords | undefined) : undefined
  let records: readonly VersionRecord[]
  if (stored) {
    // Take the ids rendering would have taken, so that every later id is the one it would be.
    for (let i = 0; i < stored.idsTaken; i++) options.newId()
    records = rebase(stored.records, options.baseUrl)
  } else {
    records = await renderRecords(fixtures, options)
  }
  await store.seed(
    fixtures.of(storagesSection).map((s) => s.value),
    records,
  )
}

/** Every version record of the fixtures, generated elements included, rendered for `baseUrl`. */
export async function renderRecords(fixtures: FixtureRecords, options: LoadOptions): Promise<VersionRecord[]> {
  const { records, generation } = fixtureRecords(fixtures, options)
  if (generation) {
    const elements = (options.precompiled?.(generationKey(generation)) as ElementFixture[] | undefined) ?? (await generate(generation))
    for (const element of elements) records.push(...toRecords(element, options))
  }
  return records
}

/** A version record as the build's snapshot holds it: the body as text, rendered for a stand-in address. */
export type StoredRecord = Omit<VersionRecord, 'body'> & { body: string }

/** The address the build renders the default records for; each start puts its own in its place. */
export const STAND_IN_BASE_URL = 'https://base-url.svc-mock.invalid'

/** The key of the default fixtures' rendered records (they hold ids generated from the seed). */
export function defaultRecordsKey(seed: number): string {
  return `versions:default-records:${seed}`
}

/** The default fixtures' records as the snapshot holds them, and how many ids rendering took. */
export interface StoredRecords {
  readonly records: readonly StoredRecord[]
  readonly idsTaken: number
}

/** The default fixtures' records for the snapshot: rendered for the stand-in address, bodies as text. */
export async function storedRecords(fixtures: FixtureRecords, options: LoadOptions): Promise<StoredRecords> {
  let idsTaken = 0
  const newId = (): string => {
    idsTaken++
    return options.newId()
  }
  const records = await renderRecords(fixtures, { ...options, newId, baseUrl: STAND_IN_BASE_URL })
  return { records: records.map((record) => ({ ...record, body: Buffer.from(record.body).toString('utf8') })), idsTaken }
}

/** Rebased records by snapshot and address: every emulator on one address shares them (bodies are never written to). */
const rebased = new WeakMap<readonly StoredRecord[], Map<string, readonly VersionRecord[]>>()

function rebase(stored: readonly StoredRecord[], baseUrl: string): readonly VersionRecord[] {
  let byUrl = rebased.get(stored)
  if (!byUrl) {
    byUrl = new Map()
    rebased.set(stored, byUrl)
  }
  let records = byUrl.get(baseUrl)
  if (!records) {
    records = stored.map((record) => ({ ...record, body: Buffer.from(record.body.replaceAll(STAND_IN_BASE_URL, baseUrl), 'utf8') }))
    byUrl.set(baseUrl, records)
  }
  return records
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
