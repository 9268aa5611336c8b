/**
 * The versions operation, `GET {base_url}/…/elements/{elementId}/versions`: access (a valid
 * credential, `read` on the storage, the scope the settings name), `api-version`, the query
 * options, the lookups (404 for an unknown storage, facet, view or element, once the caller may
 * read the storage: without `read` on it, known or not, it is the gate's 403), `$filter`, paging,
 * and the answer: the stored JSON bytes of each version as they are, or parsed and reshaped when
 * `$resources`, `$select` or `$expandRelated` ask for it.
 */
import { type AccessRequirement, storageResource } from '../auth/index.js'
import type { Reply } from '../kernel/reply.js'
import type { RequestContext } from '../kernel/route.js'
import { readSection } from '../kernel/settings.js'
import { matchesFilter } from './filter.js'
import type { VersionRecord } from './model.js'
import { checkApiVersion, parseVersionsQuery } from './query.js'
import { decodeElement } from './records.js'
import type { ElementJson } from './render.js'
import { VersionsSettings } from './settings.js'
import { shapeElement } from './shape.js'
import type { ElementStore } from './store.js'
import { type ListKey, notFound, versionList, versionListBody, versionListReply } from './wire.js'

/** What the operation needs of the caller: `read` on the storage, and the scope the settings name. */
export function listRequirement(ctx: RequestContext): AccessRequirement {
  const { requiredScope } = readSection(ctx.settings, 'versions', VersionsSettings)
  const { collectionId = '', storageId = '' } = ctx.params
  return { scopes: requiredScope === null ? [] : [requiredScope], permission: { action: 'read', resource: storageResource(collectionId, storageId) } }
}

/** The answer to a caller the gate let through (`listRequirement`). */
export async function listVersions(ctx: RequestContext, store: ElementStore): Promise<Reply> {
  const { collectionId = '', storageId = '', facetId = '', viewId = '', elementId = '' } = ctx.params
  const settings = readSection(ctx.settings, 'versions', VersionsSettings)
  checkApiVersion(ctx.headers, ctx.url)
  const query = parseVersionsQuery(ctx.url)
  const storage = store.storage(collectionId, storageId)
  if (!storage) throw notFound(`Storage '${collectionId}/${storageId}' not found.`)
  const facet = storage.facets.find((f) => f.name === facetId)
  if (!facet) throw notFound(`Facet '${facetId}' not found.`)
  if (!facet.views.includes(viewId)) throw notFound(`View '${viewId}' not found in facet '${facetId}'.`)
  const versions = store.elementVersions(collectionId, storageId, facetId, elementId)
  const first = versions?.[0]
  if (!versions || !first) throw notFound(`Element '${elementId}' not found.`)

  let selected: readonly VersionRecord[] = versions
  let parsed: ElementJson[] | undefined
  if (query.filter) {
    const filter = query.filter
    const all = versions.map((record) => ({ record, json: decodeElement(record) }))
    const kept = all.filter(({ json }) => matchesFilter(filter, json))
    selected = kept.map(({ record }) => record)
    parsed = kept.map(({ json }) => json)
  }
  if (query.pageSize !== undefined || query.page > 1) {
    const from = query.pageSize === undefined ? Number.POSITIVE_INFINITY : (query.page - 1) * query.pageSize
    const to = query.pageSize === undefined ? Number.POSITIVE_INFINITY : query.page * query.pageSize
    selected = selected.slice(from, to)
    parsed = parsed?.slice(from, to)
  }
  if (!query.reshapes) {
    if (selected === versions) return versionListReply(wholeList(versions, settings.listKey))
    return versionList(selected.map((record) => record.body), settings.listKey)
  }
  const shape = { store, query, collectionId, storageId }
  const elements = (parsed ?? selected.map(decodeElement)).map((json) => shapeElement(json, shape))
  return versionList(elements.map((json) => Buffer.from(JSON.stringify(json), 'utf8')), settings.listKey)
}

/**
 * The answer of an element's whole version list, made once per list: the store replaces an
 * element's list when its versions change, never the list itself, so a repeated GET does not
 * join the bytes again.
 */
const answered = new WeakMap<readonly VersionRecord[], { key: ListKey; body: Uint8Array }>()

function wholeList(versions: readonly VersionRecord[], key: ListKey): Uint8Array {
  const cached = answered.get(versions)
  if (cached?.key === key) return cached.body
  const body = versionListBody(versions.map((record) => record.body), key)
  answered.set(versions, { key, body })
  return body
}
