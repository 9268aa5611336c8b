/**
 * Renders versions as the platform's Element JSON, in its field order: facetName, id, versionId,
 * type, (stereotype), state, displayNames, attributes, related, children, content, rootPath.
 * Applies `$resources` (which parts), `$select` (which attributes and relations; id, versionId,
 * type, state, facetName and displayNames always stay) and `$expandRelated` (references become
 * full elements). Related items carry an `expandUri` built from the emulator's base address.
 */
import type { ElementRef, VersionRecord } from './model.js'
import type { VersionsQuery } from './query.js'
import type { ElementStore } from './store.js'

export type ElementJson = Record<string, unknown>

export interface ShapeContext {
  readonly store: ElementStore
  readonly baseUrl: string
  readonly query: Pick<VersionsQuery, 'resources' | 'select' | 'expand'>
}

const RELEASED_STATES = new Set(['expired', 'released'])

export function expandUri(baseUrl: string, record: { collectionId: string; storageId: string }, ref: { facetName: string; id: string; versionId?: string | undefined }): string {
  return `${baseUrl}/${record.collectionId}/${record.storageId}/_api/rest/facets/${ref.facetName}/views/detail/elements/${ref.versionId ?? ref.id}`
}

/** A reference as the platform writes it; items without a version carry `creationId`. */
export function renderRef(ref: ElementRef, owner: VersionRecord, baseUrl: string): ElementJson {
  const out: ElementJson = { facetName: ref.facetName, id: ref.id }
  if (ref.versionId !== undefined) out.versionId = ref.versionId
  const creationId = ref.creationId ?? (ref.versionId === undefined ? ref.id : undefined)
  if (creationId !== undefined) out.creationId = creationId
  out.type = ref.type
  if (ref.state !== undefined) out.state = ref.state
  out.expandUri = expandUri(baseUrl, owner, ref)
  if (ref.stereotype !== undefined) out.stereotype = ref.stereotype
  return out
}

function releaseHistory(versions: readonly VersionRecord[]): ElementRef[] {
  return versions
    .filter((v) => RELEASED_STATES.has(v.state))
    .map((v) => ({ facetName: v.facet, id: v.elementId, versionId: v.versionId, type: v.type, state: v.state }))
}

function relationsOf(record: VersionRecord, siblings: readonly VersionRecord[]): Record<string, readonly ElementRef[]> {
  if (!record.derivedReleaseHistory) return record.related
  const history = releaseHistory(siblings)
  return history.length === 0 ? record.related : { ...record.related, releaseHistory: history }
}

export function renderVersion(record: VersionRecord, siblings: readonly VersionRecord[], ctx: ShapeContext): ElementJson {
  const { resources, select, expand } = ctx.query
  const out: ElementJson = {
    facetName: record.facet,
    id: record.elementId,
    versionId: record.versionId,
    type: record.type,
  }
  if (record.stereotype !== undefined) out.stereotype = record.stereotype
  out.state = record.state
  if (resources.has('displayNames') && record.displayNames !== undefined) out.displayNames = record.displayNames
  if (resources.has('attributes')) {
    out.attributes = select ? pick(record.attributes, select) : record.attributes
  }
  if (resources.has('related')) {
    const relations = relationsOf(record, siblings)
    const related: Record<string, ElementJson[]> = {}
    for (const [name, items] of Object.entries(relations)) {
      if (select && !select.has(name)) continue
      related[name] = items.map((item) => (expand.has(name) ? expandRef(item, record, ctx) : renderRef(item, record, ctx.baseUrl)))
    }
    out.related = related
  }
  for (const part of ['children', 'content', 'rootPath'] as const) {
    const items = record[part]
    if (resources.has(part) && items !== undefined) out[part] = items.map((item) => renderRef(item, record, ctx.baseUrl))
  }
  if (record.setReadOnly !== undefined) out.setReadOnly = record.setReadOnly
  return out
}

/** A related item as a full element (attributes, displayNames, its own relations as references). */
function expandRef(ref: ElementRef, owner: VersionRecord, ctx: ShapeContext): ElementJson {
  const target = ctx.store.find(owner.collectionId, owner.storageId, ref.id, ref.versionId)
  if (!target) return renderRef(ref, owner, ctx.baseUrl)
  const siblings = ctx.store.elementVersions(target.collectionId, target.storageId, target.facet, target.elementId) ?? [target]
  const full = renderVersion(target, siblings, { ...ctx, query: { resources: ctx.query.resources, select: undefined, expand: new Set() } })
  const out: ElementJson = { facetName: full.facetName, id: full.id }
  if (ref.versionId !== undefined) out.versionId = full.versionId
  const creationId = ref.creationId ?? (ref.versionId === undefined ? ref.id : undefined)
  if (creationId !== undefined) out.creationId = creationId
  for (const [key, value] of Object.entries(full)) {
    if (key in out || (key === 'versionId' && ref.versionId === undefined)) continue
    out[key] = value
  }
  out.expandUri = expandUri(ctx.baseUrl, owner, ref)
  return out
}

function pick<T>(record: Record<string, T>, names: ReadonlySet<string>): Record<string, T> {
  const out: Record<string, T> = {}
  for (const [key, value] of Object.entries(record)) if (names.has(key)) out[key] = value
  return out
}
