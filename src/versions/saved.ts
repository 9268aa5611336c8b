/**
 * The element store's part of a saved state: storages and elements as changes against the
 * fixtures (an element whole: its versions, oldest first, each with its Element JSON, and its
 * place in the list), the generated elements taken out of the seed's answers (by index: a changed
 * one is among the elements, a removed one nowhere), and the next place. Generated elements are
 * never written: the seed makes them again. Links to the emulator that saved the document
 * (`expandUri`) are rewritten to this one's address. Loaded with import() by the domain's `saved()`.
 */
import * as z from 'zod'
import { JsonValue } from '../kernel/json.js'
import type { ImportContext, PreparedPart, SavedPart } from '../kernel/saved.js'
import { checkStore, saveStore, storePart } from '../kernel/saved-store.js'
import { type VersionRecord, elementKey, storageKey, versionSchemas } from './model.js'
import { type ElementStore, type StoredElement, keyOf } from './store.js'

const SavedVersion = z.strictObject({
  collectionId: z.string(),
  storageId: z.string(),
  facet: z.string(),
  elementId: z.string(),
  versionId: z.string(),
  seq: z.number().int(),
  type: z.string(),
  stereotype: z.string().optional(),
  state: z.string(),
  derivedReleaseHistory: z.boolean(),
  body: z.record(z.string(), JsonValue).meta({ description: 'The version as the platform shows it (Element JSON, every resource).' }),
})
const SavedElement = z.strictObject({ place: z.number().int().min(0), versions: z.array(SavedVersion).min(1) })
type SavedElement = z.output<typeof SavedElement>

export const SavedVersions = z.strictObject({
  storages: storePart(versionSchemas().StorageFixture).prefault({}),
  elements: storePart(SavedElement).prefault({}).meta({ description: 'Elements (whole) changed against the fixtures; a changed generated element is among the added.' }),
  generated: z
    .strictObject({ moved: z.array(z.number().int().min(0)).default([]).meta({ description: 'Generated elements (by index) changed or removed: the seed no longer answers for them.' }) })
    .prefault({}),
  nextPlace: z.number().int().min(0).optional().meta({ description: 'The place in the element list the next element added takes.' }),
})
export type SavedVersions = z.output<typeof SavedVersions>
/** The element store's part of a saved state, as the document holds it. */
export type SavedVersionsInput = z.input<typeof SavedVersions>

const decoder = new TextDecoder()
const encoder = new TextEncoder()

export function savedVersions(store: ElementStore, baseUrl: string): SavedPart<typeof SavedVersions> {
  return {
    save: () => {
      const { changes, moved, nextPlace } = store.savedElements()
      const asJson = (element: StoredElement): SavedElement => ({ place: element.place, versions: element.versions.map(({ body, ...fields }) => ({ ...fields, body: JSON.parse(decoder.decode(body)) as Record<string, JsonValue> })) })
      const elements = saveStore({ saved: () => changes, seeded: (key) => store.elementSeed.seeded(key) }, keyOf)
      return {
        storages: saveStore(store.storages, (s) => storageKey(s.collectionId, s.storageId)),
        elements: { replaced: elements.replaced.map(asJson), added: elements.added.map(asJson), deleted: elements.deleted },
        generated: { moved: [...moved].sort((a, b) => a - b) },
        nextPlace,
      }
    },
    prepare: async (part, context) => prepareVersions(store, part, context, baseUrl),
  }
}

async function prepareVersions(store: ElementStore, part: SavedVersions, context: ImportContext, baseUrl: string): Promise<PreparedPart> {
  const storages = checkStore(store.storages, part.storages, (s) => storageKey(s.collectionId, s.storageId), context, 'storages')
  const facets = new Map<string, ReadonlySet<string>>()
  for (const s of store.storages.all()) facets.set(storageKey(s.collectionId, s.storageId), new Set(s.facets.map((f) => f.name)))
  for (const s of [...part.storages.replaced, ...part.storages.added]) facets.set(storageKey(s.collectionId, s.storageId), new Set(s.facets.map((f) => f.name)))
  for (const key of part.storages.deleted) facets.delete(key)
  const savedAt = context.savedAt.base
  const rewrite = savedAt !== undefined && savedAt !== baseUrl ? (text: string): string => text.replaceAll(savedAt, baseUrl) : (text: string): string => text
  const records = (element: SavedElement, path: string): StoredElement => {
    const first = element.versions[0] as SavedElement['versions'][number]
    const facetNames = facets.get(storageKey(first.collectionId, first.storageId))
    if (!facetNames) throw context.problem(`${path}.versions[0].storageId`, `storage ${storageKey(first.collectionId, first.storageId)} is in neither the document nor the fixtures`)
    if (!facetNames.has(first.facet)) throw context.problem(`${path}.versions[0].facet`, `storage ${storageKey(first.collectionId, first.storageId)} has no facet "${first.facet}"`)
    const versions = element.versions.map((version, index): VersionRecord => {
      if (elementKey(version.collectionId, version.storageId, version.facet, version.elementId) !== elementKey(first.collectionId, first.storageId, first.facet, first.elementId)) {
        throw context.problem(`${path}.versions[${index}].elementId`, 'every version of an element names the same storage, facet and element')
      }
      return { ...version, body: encoder.encode(rewrite(JSON.stringify(version.body))) }
    })
    return { versions: versions.sort((a, b) => a.seq - b.seq), place: element.place }
  }
  const replaced = part.elements.replaced.map((e, i) => records(e, `elements.replaced[${i}]`))
  const added = part.elements.added.map((e, i) => records(e, `elements.added[${i}]`))
  const elements = checkStore(store.elementSeed, { replaced, added, deleted: part.elements.deleted }, keyOf, context, 'elements')
  const moved = new Set<number>()
  part.generated.moved.forEach((index, i) => {
    if (index >= store.generatedCount) throw context.problem(`generated.moved[${i}]`, `no generated element ${index} (the fixtures generate ${store.generatedCount})`)
    moved.add(index)
  })
  added.forEach((element, i) => {
    const first = element.versions[0] as VersionRecord
    const index = store.generatedIndex(first.collectionId, first.storageId, first.facet, first.elementId)
    if (index !== undefined && !moved.has(index)) throw context.problem(`elements.added[${i}].versions[0].elementId`, `collides with generated element ${index}, which the document does not list in generated.moved`)
  })
  const last = Math.max(-1, ...[...replaced, ...added].map((e) => e.place))
  const nextPlace = Math.max(part.nextPlace ?? 0, last + 1, store.seedNextPlace)
  return {
    apply: () => {
      store.storages.restore(storages.changes)
      store.restoreElements({ changes: elements.changes, moved: [...moved], nextPlace })
    },
  }
}
