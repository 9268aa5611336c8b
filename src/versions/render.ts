/**
 * Renders a version as the platform's Element JSON, every resource included, in its field order:
 * facetName, id, versionId, type, (stereotype), state, displayNames, attributes, related,
 * children, content, rootPath, setReadOnly. References carry `expandUri` (built from the base
 * address) and, when they name no version, `creationId`. Done once, when a version is stored (a
 * generated one: when it is read).
 */
import type { ElementRef, VersionFixture } from './model.js'

export type ElementJson = Record<string, unknown>

export interface Place {
  readonly collectionId: string
  readonly storageId: string
  readonly baseUrl: string
}

const RELEASED_STATES = new Set(['expired', 'released'])

export function expandUri(place: Place, ref: { facetName: string; id: string; versionId?: string | undefined }): string {
  return `${place.baseUrl}/${place.collectionId}/${place.storageId}/_api/rest/facets/${ref.facetName}/views/detail/elements/${ref.versionId ?? ref.id}`
}

/** A reference as the platform writes it; items without a version carry `creationId`. */
export function renderRef(ref: ElementRef, place: Place): ElementJson {
  const out: ElementJson = { facetName: ref.facetName, id: ref.id }
  if (ref.versionId !== undefined) out.versionId = ref.versionId
  const creationId = ref.creationId ?? (ref.versionId === undefined ? ref.id : undefined)
  if (creationId !== undefined) out.creationId = creationId
  out.type = ref.type
  if (ref.state !== undefined) out.state = ref.state
  out.expandUri = expandUri(place, ref)
  if (ref.stereotype !== undefined) out.stereotype = ref.stereotype
  return out
}

/** The releaseHistory of an element: its expired and released versions, oldest first. */
export function releaseHistory(
  element: { facet: string; id: string; type: string },
  versions: ReadonlyArray<{ versionId: string; state: string }>,
  place: Place,
): ElementJson[] {
  return versions
    .filter((v) => RELEASED_STATES.has(v.state))
    .map((v) => renderRef({ facetName: element.facet, id: element.id, versionId: v.versionId, type: element.type, state: v.state }, place))
}

export interface RenderInput {
  readonly facet: string
  readonly id: string
  readonly type: string
  readonly stereotype?: string | undefined
  readonly versionId: string
  readonly version: VersionFixture
  /** The derived releaseHistory, or undefined when the version gives its own (or has none). */
  readonly history: ElementJson[] | undefined
}

export function renderVersion(input: RenderInput, place: Place): ElementJson {
  const { version } = input
  const out: ElementJson = { facetName: input.facet, id: input.id, versionId: input.versionId, type: input.type }
  if (input.stereotype !== undefined) out.stereotype = input.stereotype
  out.state = version.state
  if (version.displayNames !== undefined) out.displayNames = version.displayNames
  out.attributes = fillBaseUrl(version.attributes, place.baseUrl)
  const related: Record<string, ElementJson[]> = {}
  for (const [name, items] of Object.entries(version.related)) related[name] = items.map((item) => renderRef(item, place))
  if (input.history !== undefined && input.history.length > 0) related.releaseHistory = input.history
  out.related = related
  for (const part of ['children', 'content', 'rootPath'] as const) {
    const items = version[part]
    if (items !== undefined) out[part] = items.map((item) => renderRef(item, place))
  }
  if (version.setReadOnly !== undefined) out.setReadOnly = version.setReadOnly
  return out
}

/**
 * Replaces `{base_url}` in string attribute values, so fixtures can hold real-looking links. A
 * value with nothing to replace is kept as it is, not copied.
 */
function fillBaseUrl(value: unknown, baseUrl: string): unknown {
  if (typeof value === 'string') return value.includes('{base_url}') ? value.replaceAll('{base_url}', baseUrl) : value
  if (Array.isArray(value)) {
    const filled = value.map((v) => fillBaseUrl(v, baseUrl))
    return filled.some((v, i) => v !== value[i]) ? filled : value
  }
  if (typeof value === 'object' && value !== null) {
    let out: Record<string, unknown> | undefined
    for (const [key, v] of Object.entries(value)) {
      const filled = fillBaseUrl(v, baseUrl)
      if (filled === v) continue
      out ??= { ...value }
      out[key] = filled
    }
    return out ?? value
  }
  return value
}
