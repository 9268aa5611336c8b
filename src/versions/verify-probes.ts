/**
 * What `svc-mock verify` sends to check the element versions operation against the user's team:
 * the versions of the element the user names (`--element`), that list with `$select`, a made-up
 * element, a `$filter` with an operator the platform does not have, and no credential. Also
 * svc-mock's side: the default fixtures' element that stands for the user's.
 */
import type { FixtureRecords } from '../kernel/domain.js'
import type { ProbeComparison, VerifyProbe } from '../kernel/verify-probe.js'
import { elementsSection, storagesSection } from './fixtures.js'

const PATH = '/{collection}/{storage}/_api/rest/facets/{facet}/views/{view}/elements/{element}/versions'
const ELEMENT = '$.elements[]'

/**
 * Element fields keyed by the team's own data (attribute names, language keys, relation names),
 * and members an element has or not depending on its data, so that two different elements compare.
 */
const ELEMENT_SHAPE: ProbeComparison = {
  maps: [`${ELEMENT}.attributes`, `${ELEMENT}.attributes.*`, `${ELEMENT}.displayNames`, `${ELEMENT}.related`],
  optional: ['stereotype', 'children', 'content', 'rootPath', 'setReadOnly', 'displayNames'].map((name) => `${ELEMENT}.${name}`),
}

const BASE = { api: 'element versions', address: 'base', method: 'GET', path: PATH, credential: 'api', compare: ELEMENT_SHAPE } as const

/** A GUID no element has, the same on both sides. */
export const MADE_UP_ELEMENT = '00000000-0000-4000-8000-000000000000'

const ELEMENT_MISFITS = [
  { status: 404, fix: 'the target has no element {element} in facet {facet}, view {view} of storage {collection}/{storage} (404): check --element collection/storage/facet/view/element' },
  { status: 403, fix: 'the credential may not read storage {collection}/{storage} on the target (403): give it read permission there, or name an element it can read with --element' },
]

/** The probes of the versions operation, in the order they are sent. */
export const VERSIONS_VERIFY_PROBES: readonly VerifyProbe[] = [
  { ...BASE, id: 'versions.list', title: "the element's versions", misfits: ELEMENT_MISFITS },
  { ...BASE, id: 'versions.select', title: '$select=name', query: { $select: 'name' } },
  { ...BASE, id: 'versions.unknown-element', title: 'a made-up element id', path: PATH.replace('{element}', MADE_UP_ELEMENT) },
  { ...BASE, id: 'versions.bad-filter', title: '$filter with an operator the platform lacks', query: { $filter: "name -like 'x'" } },
  { ...BASE, id: 'versions.no-credential', title: 'no credential: the 401 in the error body', credential: 'none' },
]

/** The parts of an element's address, as `--element` gives them. */
export interface ElementPlace {
  readonly collection: string
  readonly storage: string
  readonly facet: string
  readonly view: string
  readonly element: string
}

/** The fixtures' first element whose facet has a view: what stands for the user's element (the default: "Order to Cash"). */
export function versionsEquivalent(fixtures: FixtureRecords): ElementPlace | undefined {
  const storages = fixtures.of(storagesSection).map((s) => s.value)
  for (const { value: element } of fixtures.of(elementsSection)) {
    const [collection = '', storage = ''] = element.storage.split('/')
    const facet = storages.find((s) => s.collectionId === collection && s.storageId === storage)?.facets.find((f) => f.name === element.facet)
    const view = facet?.views[0]
    if (view !== undefined) return { collection, storage, facet: element.facet, view, element: element.id }
  }
  return undefined
}
