/**
 * The process-management store's data: storages (a collection and a tenant) with facets and
 * views, and elements with their versions. Fixtures write elements as the platform shows them;
 * attribute values are keyed by name, then by an integer language key (1031 German, 1033 English,
 * 127 for values that are not language-specific).
 */
import * as z from 'zod'
import { JsonValue } from '../kernel/json.js'
import { once } from '../kernel/once.js'

export const LANGUAGE = { german: '1031', english: '1033', neutral: '127' } as const

export const ELEMENT_STATES = ['expired', 'released', 'inProcess'] as const

export const STORAGE_REF = /^[^/\s]+\/[^/\s]+$/

/**
 * The schemas of storages, elements and versions (fixtures, inputs, stored records), made on the
 * first call: the default fixtures come validated from the build, so an emulator that only reads
 * makes none of them.
 */
export const versionSchemas: () => VersionSchemas = once(makeSchemas)
type VersionSchemas = ReturnType<typeof makeSchemas>

function makeSchemas() {
  const LanguageKey = z.string().regex(/^\d+$/, 'language keys are integers (1031, 1033, 127)')

  /** An attribute's values by language key; each any JSON value. */
  const LocalizedValues = z.record(LanguageKey, JsonValue)
  const Attributes = z.record(z.string().min(1), LocalizedValues)
  const DisplayNames = z.record(LanguageKey, z.string())

  /** A reference to another element, as `related`, `children`, `content` and `rootPath` items. */
  const ElementRef = z.strictObject({
    facetName: z.string().min(1),
    id: z.guid('must be a GUID'),
    versionId: z.guid('must be a GUID').optional(),
    creationId: z.guid('must be a GUID').optional(),
    type: z.string().min(1),
    state: z.string().min(1).optional(),
    stereotype: z.string().min(1).optional(),
  })

  const VersionFixture = z.strictObject({
    /** Generated from the seed when absent. */
    versionId: z.guid('must be a GUID').optional(),
    state: z.string().min(1),
    displayNames: DisplayNames.optional(),
    attributes: Attributes.default({}),
    /** Relations by name. Without `releaseHistory`, it lists the element's expired and released versions. */
    related: z.record(z.string().min(1), z.array(ElementRef)).default({}),
    children: z.array(ElementRef).optional(),
    content: z.array(ElementRef).optional(),
    rootPath: z.array(ElementRef).optional(),
    setReadOnly: z.boolean().nullable().optional(),
  })


  const ElementFixture = z.strictObject({
    /** `collectionId/storageId`. */
    storage: z.string().regex(STORAGE_REF, 'must be "collectionId/storageId"'),
    facet: z.string().min(1),
    id: z.guid('must be a GUID'),
    type: z.string().min(1),
    stereotype: z.string().min(1).optional(),
    /**
     * Whether versions without an explicit `related.releaseHistory` list the element's expired and
     * released versions there. Default: yes, except for elements of the `users` facet.
     */
    releaseHistory: z.boolean().optional(),
    /** Oldest first. */
    versions: z.array(VersionFixture).min(1, 'an element has at least one version'),
  })

  /** A new element, as `emu.elements.add()` and `POST /__svc-mock/elements` take it: the id is generated when absent. */
  const NewElement = ElementFixture.extend({ id: z.guid('must be a GUID').optional() })

  const Facet = z.strictObject({
    name: z.string().min(1),
    views: z.array(z.string().min(1)).min(1, 'a facet has at least one view'),
  })

  const StorageFixture = z.strictObject({
    collectionId: z.string().regex(/^[^/\s]+$/, 'must not contain "/" or spaces'),
    storageId: z.string().regex(/^[^/\s]+$/, 'must not contain "/" or spaces'),
    facets: z.array(Facet).min(1),
  })

  const GenerateFixture = z.strictObject({
    /** How many extra elements to generate from the seed number. */
    elements: z.number().int().min(0).max(200_000).default(0),
    /** Where they go (`collectionId/storageId`); default: the first storage. */
    storage: z.string().regex(STORAGE_REF).optional(),
    /** Their facet; default `processes`. */
    facet: z.string().min(1).default('processes'),
  })

  /**
   * One version of one element, as the store keeps it: the fields requests look up and filter by,
   * and the version's Element JSON with every resource, already rendered (expandUri, creationId,
   * releaseHistory) as UTF-8 bytes. Bytes because they are compact (a store of 100,000 elements
   * would not fit as objects), pass through zod by reference, and go to the socket
   * as they are; options like `$select` parse them when they need to.
   */
  const VersionRecord = z.object({
    collectionId: z.string(),
    storageId: z.string(),
    facet: z.string(),
    elementId: z.string(),
    versionId: z.string(),
    /** Position among the element's versions: oldest first. */
    seq: z.number(),
    type: z.string(),
    stereotype: z.string().optional(),
    state: z.string(),
    /** True when `releaseHistory` is derived from the element's versions rather than given. */
    derivedReleaseHistory: z.boolean(),
    body: z.custom<Uint8Array>((value) => value instanceof Uint8Array, 'must be bytes'),
  })

  const StorageRecord = z.object({
    collectionId: z.string(),
    storageId: z.string(),
    facets: z.array(z.object({ name: z.string(), views: z.array(z.string()) })),
  })

  return { LocalizedValues, Attributes, DisplayNames, ElementRef, VersionFixture, ElementFixture, NewElement, Facet, StorageFixture, GenerateFixture, VersionRecord, StorageRecord }
}

export type ElementRef = z.infer<VersionSchemas['ElementRef']>
export type VersionFixture = z.infer<VersionSchemas['VersionFixture']>
/** A version as `emu.elements.addVersion()` and `POST /__svc-mock/elements/{id}/versions` take it. */
export type VersionInput = z.input<VersionSchemas['VersionFixture']>
export type ElementFixture = z.infer<VersionSchemas['ElementFixture']>
/** An element as the `elements` fixture section takes it. */
export type ElementFixtureInput = z.input<VersionSchemas['ElementFixture']>
export type ElementInput = z.input<VersionSchemas['NewElement']>
export type StorageFixture = z.infer<VersionSchemas['StorageFixture']>
/** A storage as `emu.storages.add()`, `POST /__svc-mock/storages` and the `storages` fixture section take it. */
export type StorageInput = z.input<VersionSchemas['StorageFixture']>
export type GenerateFixture = z.infer<VersionSchemas['GenerateFixture']>
export type GenerateInput = z.input<VersionSchemas['GenerateFixture']>
export type VersionRecord = z.infer<VersionSchemas['VersionRecord']>
export type StorageRecord = z.infer<VersionSchemas['StorageRecord']>

export function storageKey(collectionId: string, storageId: string): string {
  return `${collectionId}/${storageId}`
}

export function elementKey(collectionId: string, storageId: string, facet: string, elementId: string): string {
  return `${collectionId}/${storageId}/${facet}/${elementId.toLowerCase()}`
}
