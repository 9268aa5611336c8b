/**
 * The element-versions domain: its store and fixtures, and the `versions.list` route (checks,
 * lookups, $filter, paging, shaping, the cached default answer). Control-plane operations on the
 * store are in admin.ts.
 */
import { z } from 'zod'
import { ApiAccessError } from '../auth/errors.js'
import type { AccessGate } from '../auth/gate.js'
import { storageResource } from '../auth/permissions.js'
import type { FixtureSection, Sourced } from '../kernel/fixtures.js'
import { FixtureError } from '../kernel/errors.js'
import { reply } from '../kernel/http.js'
import type { RequestContext, RouteDefinition } from '../kernel/route.js'
import { readSection } from '../kernel/settings.js'
import { VersionsError, notFound, renderVersionsError } from './errors.js'
import { matchesFilter } from './filter.js'
import { ElementFixture, type ElementRef, GenerateFixture, StorageFixture, type VersionRecord, storageKey } from './model.js'
import { checkApiVersion, parseVersionsQuery } from './query.js'
import { ElementAdmin } from './admin.js'
import { generateElements } from './generate.js'
import { toRecords } from './records.js'
import { decodeElement } from './records.js'
import type { ElementJson } from './render.js'
import { shapeElement } from './shape.js'
import { ElementStore } from './store.js'

export const VersionsSettings = z.object({
  /** Name of the list in the answer: `elements` (the platform's examples), `values` (its field table) or both. */
  listKey: z.enum(['elements', 'values', 'both']).default('elements'),
  /** OAuth scope the operation needs; null: none beyond a valid credential. */
  requiredScope: z.string().min(1).nullable().default(null),
})
export type VersionsSettings = z.infer<typeof VersionsSettings>

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

export const VERSIONS_PATH = '/:collectionId/:storageId/_api/rest/facets/:facetId/views/:viewId/elements/:elementId/versions'

export interface VersionsDeps {
  readonly gate: AccessGate
  readonly baseUrl: string
  /** Next id from the run's seeded generator. */
  readonly newId: () => string
}

export class VersionsDomain {
  readonly store = new ElementStore()
  readonly admin: ElementAdmin
  readonly #deps: VersionsDeps

  constructor(deps: VersionsDeps) {
    this.#deps = deps
    this.admin = new ElementAdmin(this.store, deps)
  }

  async load(
    storages: Sourced<StorageFixture>[],
    elements: Sourced<ElementFixture>[],
    generate: Sourced<GenerateFixture> | undefined,
    seed: number,
  ): Promise<void> {
    const known = new Map(storages.map((s) => [storageKey(s.value.collectionId, s.value.storageId), s.value]))
    const records: VersionRecord[] = []
    const versionIds = new Set<string>()
    for (const element of elements) {
      const storage = known.get(element.value.storage)
      if (!storage) {
        throw new FixtureError(element.file, `${element.path}.storage`, `names storage "${element.value.storage}", which no fixture defines (known: ${[...known.keys()].join(', ') || 'none'})`)
      }
      if (!storage.facets.some((f) => f.name === element.value.facet)) {
        throw new FixtureError(element.file, `${element.path}.facet`, `storage ${element.value.storage} has no facet "${element.value.facet}" (it has ${storage.facets.map((f) => f.name).join(', ')})`)
      }
      const made = toRecords(element.value, { baseUrl: this.#deps.baseUrl, newId: this.#deps.newId })
      for (const [index, record] of made.entries()) {
        const id = `${element.value.storage}/${record.versionId.toLowerCase()}`
        if (versionIds.has(id)) {
          throw new FixtureError(element.file, `${element.path}.versions[${index}].versionId`, `version ${record.versionId} appears twice in storage ${element.value.storage}`)
        }
        versionIds.add(id)
      }
      records.push(...made)
    }
    if (generate && generate.value.elements > 0) {
      const firstStorage = storages[0]?.value
      const target = generate.value.storage ?? (firstStorage && storageKey(firstStorage.collectionId, firstStorage.storageId))
      const storage = target === undefined ? undefined : known.get(target)
      if (!storage || target === undefined) {
        throw new FixtureError(generate.file, `${generate.path}.storage`, 'names no storage the fixtures define')
      }
      if (!storage.facets.some((f) => f.name === generate.value.facet)) {
        throw new FixtureError(generate.file, `${generate.path}.facet`, `storage ${target} has no facet "${generate.value.facet}"`)
      }
      const users: ElementRef[] = records
        .filter((r) => r.type === 'user' && storageKey(r.collectionId, r.storageId) === target)
        .map((r) => ({ facetName: r.facet, id: r.elementId, type: r.type }))
      const generated = generateElements(generate.value.elements, {
        storage: target,
        facet: generate.value.facet,
        seed,
        baseUrl: this.#deps.baseUrl,
        users,
      })
      for (const element of generated) records.push(...toRecords(element, { baseUrl: this.#deps.baseUrl, newId: this.#deps.newId }))
    }
    await this.store.seed(
      storages.map((s) => s.value),
      records,
    )
  }

  async reset(): Promise<void> {
    await this.store.reset()
  }

  routes(): RouteDefinition[] {
    return [
      {
        id: 'versions.list',
        method: 'GET',
        path: VERSIONS_PATH,
        origin: 'base',
        summary: 'List the versions of an element of a facet view (api-version 4.0)',
        resolve: (ctx) => this.#list(ctx),
        renderError: (error) => renderVersionsError(error),
        scenarioErrors: VERSIONS_SCENARIO_ERRORS,
        scenarioError: (code, ctx, message) => scenarioError(code, ctx, message),
      },
    ]
  }

  async #list(ctx: RequestContext): Promise<Response> {
    const { collectionId = '', storageId = '', facetId = '', viewId = '', elementId = '' } = ctx.params
    const settings = readSection(ctx.settings, 'versions', VersionsSettings)
    await this.#deps.gate.check(ctx, {
      scope: settings.requiredScope,
      permission: { action: 'read', resource: storageResource(collectionId, storageId) },
    })
    checkApiVersion(ctx.request, ctx.url)
    const query = parseVersionsQuery(ctx.url)
    const storage = this.store.storage(collectionId, storageId)
    if (!storage) throw notFound(`Storage '${collectionId}/${storageId}' not found.`)
    const facet = storage.facets.find((f) => f.name === facetId)
    if (!facet) throw notFound(`Facet '${facetId}' not found.`)
    if (!facet.views.includes(viewId)) throw notFound(`View '${viewId}' not found in facet '${facetId}'.`)
    const versions = this.store.elementVersions(collectionId, storageId, facetId, elementId)
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
    const headers = { 'content-type': 'application/json; charset=utf-8' }
    if (!query.reshapes) return reply(listBytes(selected.map((record) => record.body), settings.listKey), { status: 200, headers })
    const shape = { store: this.store, query, collectionId, storageId }
    const elements = (parsed ?? selected.map(decodeElement)).map((json) => shapeElement(json, shape))
    const list = elements.map((json) => Buffer.from(JSON.stringify(json), 'utf8'))
    return reply(listBytes(list, settings.listKey), { status: 200, headers })
  }
}

const COMMA = Buffer.from(',')

/** `{"count":n,"elements":[…]}` (or `values`, or both) from the versions' JSON bytes. */
function listBytes(items: readonly Uint8Array[], key: VersionsSettings['listKey']): Uint8Array {
  const parts: Uint8Array[] = [Buffer.from(`{"count":${items.length}`)]
  const names = key === 'both' ? ['elements', 'values'] : [key]
  for (const name of names) {
    parts.push(Buffer.from(`,"${name}":[`))
    items.forEach((item, index) => {
      if (index > 0) parts.push(COMMA)
      parts.push(item)
    })
    parts.push(Buffer.from(']'))
  }
  parts.push(Buffer.from('}'))
  return Buffer.concat(parts)
}

function scenarioError(code: string, ctx: RequestContext, message: string | undefined): Response | undefined {
  const elementId = ctx.params.elementId ?? ''
  switch (code) {
    case 'not-found':
      return renderVersionsError(notFound(message ?? `Element '${elementId}' not found.`))
    case 'server-error':
      return renderVersionsError(new VersionsError(500, message ?? 'An unexpected error occurred while reading the element versions.', 'Critical'))
    case 'bad-request':
      return renderVersionsError(new VersionsError(400, message ?? 'The request is not valid.'))
    case 'unauthorized':
      return renderVersionsError(new ApiAccessError('unknown-credential', message ?? 'Unauthorized'))
    case 'forbidden':
      return renderVersionsError(new ApiAccessError('missing-permission', message ?? 'Access is denied'))
    default:
      return undefined
  }
}

export const VERSIONS_SCENARIO_ERRORS = ['not-found', 'server-error', 'bad-request', 'unauthorized', 'forbidden'] as const

