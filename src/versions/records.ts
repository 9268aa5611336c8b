/**
 * From fixtures to store records: each version is rendered once into its Element JSON bytes
 * (ids generated from the seed where a fixture leaves them out, releaseHistory derived from the
 * element's versions).
 */
import type { ElementFixture, VersionFixture, VersionRecord } from './model.js'
import { type ElementJson, type Place, releaseHistory, renderVersion } from './render.js'

export interface RecordOptions {
  readonly baseUrl: string
  readonly newId: () => string
  /** `seq` of the first version (default 0). */
  readonly firstSeq?: number
}

type ElementInfo = Pick<ElementFixture, 'facet' | 'id' | 'type' | 'stereotype' | 'releaseHistory'>

function place(storage: string, baseUrl: string): Place {
  const [collectionId = '', storageId = ''] = storage.split('/')
  return { collectionId, storageId, baseUrl }
}

/** Whether the element derives releaseHistory (default: yes, except for `users` elements). */
export function derivesHistory(element: Pick<ElementFixture, 'facet' | 'releaseHistory'>): boolean {
  return element.releaseHistory ?? element.facet !== 'users'
}

/** Records for all versions of an element fixture, oldest first. */
export function toRecords(element: ElementFixture, options: RecordOptions): VersionRecord[] {
  const where = place(element.storage, options.baseUrl)
  const ids = element.versions.map((v) => v.versionId ?? options.newId())
  const history = releaseHistory(
    element,
    element.versions.map((v, i) => ({ versionId: ids[i] ?? '', state: v.state })),
    where,
  )
  return element.versions.map((version, index) =>
    toRecord(element, version, { ...where, versionId: ids[index] ?? '', seq: (options.firstSeq ?? 0) + index, history }),
  )
}

/** One version's record; `history` is the element's derived releaseHistory. */
export function toRecord(
  element: ElementInfo,
  version: VersionFixture,
  options: Place & { versionId: string; seq: number; history: ElementJson[] },
): VersionRecord {
  const derived = derivesHistory(element) && !('releaseHistory' in version.related)
  const json = renderVersion(
    {
      facet: element.facet,
      id: element.id,
      type: element.type,
      stereotype: element.stereotype,
      versionId: options.versionId,
      version,
      history: derived ? options.history : undefined,
    },
    options,
  )
  return {
    collectionId: options.collectionId,
    storageId: options.storageId,
    facet: element.facet,
    elementId: element.id,
    versionId: options.versionId,
    seq: options.seq,
    type: element.type,
    ...(element.stereotype === undefined ? {} : { stereotype: element.stereotype }),
    state: version.state,
    derivedReleaseHistory: derived,
    body: encodeElement(json),
  }
}

export function encodeElement(json: ElementJson): Uint8Array {
  return Buffer.from(JSON.stringify(json), 'utf8')
}

/** The Element JSON of a stored version, as an object (for options that reshape it). */
export function decodeElement(record: Pick<VersionRecord, 'body'>): ElementJson {
  const { body } = record
  return JSON.parse(Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8')) as ElementJson
}

/**
 * An element's versions after one was added or removed: those that derive their releaseHistory
 * get it brought up to date (their other bytes are kept).
 */
export function withCurrentHistory(records: readonly VersionRecord[], baseUrl: string): VersionRecord[] {
  const first = records[0]
  if (!first) return []
  const where: Place = { collectionId: first.collectionId, storageId: first.storageId, baseUrl }
  const history = releaseHistory({ facet: first.facet, id: first.elementId, type: first.type }, records, where)
  const wanted = JSON.stringify(history)
  return records.map((record) => {
    if (!record.derivedReleaseHistory) return record
    const json = decodeElement(record)
    const related = (json.related ?? {}) as Record<string, unknown>
    if (JSON.stringify(related.releaseHistory ?? []) === wanted) return record
    if (history.length > 0) related.releaseHistory = history
    else delete related.releaseHistory
    json.related = related
    return { ...record, body: encodeElement(json) }
  })
}
