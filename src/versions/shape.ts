/**
 * Reshapes a version's Element JSON for the query options: `$resources` (which parts),
 * `$select` (only the named attributes and relations; of the other fields only id, versionId,
 * type, state, facetName and displayNames stay, as the description says) and `$expandRelated`
 * (references become full elements, keeping their creationId and expandUri). The order of
 * fields stays the platform's.
 */
import type { VersionsQuery } from './query.js'
import { decodeElement } from './records.js'
import type { ElementJson } from './render.js'
import type { ElementStore } from './store.js'

export interface ShapeContext {
  readonly store: ElementStore
  readonly query: Pick<VersionsQuery, 'resources' | 'select' | 'expand'>
  /** Where the element lives (expanded references are looked up there). */
  readonly collectionId: string
  readonly storageId: string
}

const RESOURCE_FIELDS = new Set(['displayNames', 'attributes', 'related', 'children', 'content', 'rootPath'])
/** The fields `$select` keeps beside the named attributes and relations (stereotype, children, content, rootPath, setReadOnly go). */
const SELECT_KEEPS = new Set(['id', 'versionId', 'type', 'state', 'facetName', 'displayNames', 'attributes', 'related'])

export function shapeElement(element: ElementJson, ctx: ShapeContext): ElementJson {
  const { resources, select } = ctx.query
  const out: ElementJson = {}
  for (const [key, value] of Object.entries(element)) {
    if (RESOURCE_FIELDS.has(key) && !resources.has(key as never)) continue
    if (select && !SELECT_KEEPS.has(key)) continue
    if (key === 'attributes' && select) out[key] = pick(value as Record<string, unknown>, select)
    else if (key === 'related') out[key] = shapeRelated(value as Record<string, ElementJson[]>, ctx)
    else out[key] = value
  }
  return out
}

function shapeRelated(related: Record<string, ElementJson[]>, ctx: ShapeContext): Record<string, ElementJson[]> {
  const { select, expand } = ctx.query
  const out: Record<string, ElementJson[]> = {}
  for (const [name, items] of Object.entries(related)) {
    if (select && !select.has(name)) continue
    out[name] = expand.has(name) ? items.map((item) => expandRef(item, ctx)) : items
  }
  return out
}

/** A related item as a full element (attributes, displayNames, its own relations as references). */
function expandRef(ref: ElementJson, ctx: ShapeContext): ElementJson {
  const id = String(ref.id)
  const versionId = typeof ref.versionId === 'string' ? ref.versionId : undefined
  const target = ctx.store.find(ctx.collectionId, ctx.storageId, id, versionId)
  if (!target) return ref
  const full = shapeElement(decodeElement(target), { ...ctx, query: { resources: ctx.query.resources, select: undefined, expand: new Set() } })
  const out: ElementJson = { facetName: full.facetName, id: full.id }
  if (versionId !== undefined) out.versionId = full.versionId
  if (ref.creationId !== undefined) out.creationId = ref.creationId
  for (const [key, value] of Object.entries(full)) {
    if (key in out || (key === 'versionId' && versionId === undefined)) continue
    out[key] = value
  }
  out.expandUri = ref.expandUri
  return out
}

function pick<T>(record: Record<string, T>, names: ReadonlySet<string>): Record<string, T> {
  const out: Record<string, T> = {}
  for (const [key, value] of Object.entries(record)) if (names.has(key)) out[key] = value
  return out
}
