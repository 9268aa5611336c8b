/**
 * What the control plane and `emu.elements.list()` show of an element: where it lives, its id and
 * type, and its versions' ids and states, oldest first.
 */
import { type VersionRecord, storageKey } from './model.js'

export interface ElementSummary {
  storage: string
  facet: string
  id: string
  type: string
  stereotype?: string
  versions: Array<{ versionId: string; state: string }>
}

/** The summary of an element's stored versions (oldest first). */
export function summarize(list: readonly VersionRecord[]): ElementSummary {
  const first = list[0] as VersionRecord
  return {
    storage: storageKey(first.collectionId, first.storageId),
    facet: first.facet,
    id: first.elementId,
    type: first.type,
    ...(first.stereotype === undefined ? {} : { stereotype: first.stereotype }),
    versions: list.map((v) => ({ versionId: v.versionId, state: v.state })),
  }
}
