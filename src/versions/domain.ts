/**
 * The element-versions domain: its store, its fixtures, the `versions.list` route and the
 * control-plane operations that add and remove storages, elements and versions.
 */
import { z } from 'zod'
import { ApiAccessError } from '../auth/errors.js'
import type { AccessGate } from '../auth/gate.js'
import type { ElementRef } from './model.js'
import { storageResource } from '../auth/permissions.js'
import { ControlError } from '../kernel/errors.js'
import type { FixtureSection, Sourced } from '../kernel/fixtures.js'
import { FixtureError } from '../kernel/errors.js'
import { reply } from '../kernel/http.js'
import type { RequestContext, RouteDefinition } from '../kernel/route.js'
import { readSection } from '../kernel/settings.js'
import { firstProblem } from '../kernel/validation.js'
import { VersionsError, notFound, renderVersionsError } from './errors.js'
import { matchesFilter } from './filter.js'
import {
  ElementFixture,
  GenerateFixture,
  StorageFixture,
  VersionFixture,
  type VersionRecord,
  elementKey,
  storageKey,
} from './model.js'
import { checkApiVersion, parseVersionsQuery } from './query.js'
import { generateElements, toRecord, toRecords } from './records.js'
import { renderVersion } from './shape.js'
import { type ElementSummary, ElementStore } from './store.js'

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
  readonly #deps: VersionsDeps
  #cache = new Map<string, string>()
  #cacheRevision = -1

  constructor(deps: VersionsDeps) {
    this.#deps = deps
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

    const headers = { 'content-type': 'application/json; charset=utf-8' }
    const cacheKey = query.isDefault ? `${elementKey(collectionId, storageId, facetId, first.elementId)}|${settings.listKey}` : undefined
    if (cacheKey !== undefined) {
      if (this.#cacheRevision !== this.store.revision) {
        this.#cache.clear()
        this.#cacheRevision = this.store.revision
      }
      const cached = this.#cache.get(cacheKey)
      if (cached !== undefined) return reply(cached, { status: 200, headers })
    }

    let selected = query.filter ? versions.filter((v) => matchesFilter(query.filter as NonNullable<typeof query.filter>, v)) : [...versions]
    if (query.pageSize !== undefined) selected = selected.slice((query.page - 1) * query.pageSize, query.page * query.pageSize)
    else if (query.page > 1) selected = []
    const shape = { store: this.store, baseUrl: this.#deps.baseUrl, query }
    const elements = selected.map((v) => renderVersion(v, versions, shape))
    const body =
      settings.listKey === 'elements'
        ? { count: elements.length, elements }
        : settings.listKey === 'values'
          ? { count: elements.length, values: elements }
          : { count: elements.length, elements, values: elements }
    const text = JSON.stringify(body)
    if (cacheKey !== undefined) this.#cache.set(cacheKey, text)
    return reply(text, { status: 200, headers })
  }

  // Control-plane operations -------------------------------------------------------------------

  listElements(filter: { storage?: string; facet?: string }): ElementSummary[] {
    return this.store.summaries(filter)
  }

  async addStorage(input: unknown): Promise<StorageFixture> {
    const storage = parseBody(StorageFixture, input, 'storage')
    if (this.store.storage(storage.collectionId, storage.storageId)) {
      throw new ControlError(409, `Storage ${storage.collectionId}/${storage.storageId} exists already.`, 'storageId', 'ERR_CONFLICT')
    }
    await this.store.addStorage(storage)
    return storage
  }

  async addElement(input: unknown): Promise<ElementSummary> {
    const withId = typeof input === 'object' && input !== null && !('id' in input) ? { ...input, id: this.#deps.newId() } : input
    const element = parseBody(ElementFixture, withId, 'element')
    this.#checkPlace(element.storage, element.facet)
    const records = toRecords(element, { baseUrl: this.#deps.baseUrl, newId: this.#deps.newId })
    this.#checkNewVersionIds(element.storage, records)
    await this.store.addElement(element, records)
    const [collectionId = '', storageId = ''] = element.storage.split('/')
    return this.store.summary(collectionId, storageId, element.facet, element.id) as ElementSummary
  }

  async addVersion(elementId: string, input: unknown, where: { storage?: string; facet?: string }): Promise<ElementSummary> {
    const found = this.#locate(elementId, where)
    const version = parseBody(VersionFixture, input, 'version')
    const [collectionId = '', storageId = ''] = found.storage.split('/')
    const existing = this.store.elementVersions(collectionId, storageId, found.facet, found.id) ?? []
    const last = existing[existing.length - 1]
    const record = toRecord(
      { facet: found.facet, id: found.id, type: found.type, ...(found.stereotype === undefined ? {} : { stereotype: found.stereotype }), releaseHistory: existing[0]?.derivedReleaseHistory ?? true },
      version,
      { collectionId, storageId, seq: (last?.seq ?? -1) + 1, baseUrl: this.#deps.baseUrl, newId: this.#deps.newId },
    )
    this.#checkNewVersionIds(found.storage, [record])
    await this.store.addVersion(record)
    return this.store.summary(collectionId, storageId, found.facet, found.id) as ElementSummary
  }

  removeElement(elementId: string, where: { storage?: string; facet?: string }): void {
    const found = this.#locate(elementId, where)
    const [collectionId = '', storageId = ''] = found.storage.split('/')
    this.store.removeElement(collectionId, storageId, found.facet, found.id)
  }

  removeVersion(elementId: string, versionId: string, where: { storage?: string; facet?: string }): void {
    const found = this.#locate(elementId, where)
    const [collectionId = '', storageId = ''] = found.storage.split('/')
    if (found.versions.length === 1 && found.versions[0]?.versionId.toLowerCase() === versionId.toLowerCase()) {
      throw new ControlError(409, `Version ${versionId} is the only version of element ${elementId}; delete the element instead.`, 'versionId', 'ERR_CONFLICT')
    }
    const result = this.store.removeVersion(collectionId, storageId, found.facet, found.id, versionId)
    if (result === 'no-version') throw new ControlError(404, `Element ${elementId} has no version ${versionId}.`, 'versionId', 'ERR_NOT_FOUND')
  }

  #checkPlace(storageRef: string, facetName: string): void {
    const [collectionId = '', storageId = ''] = storageRef.split('/')
    const storage = this.store.storage(collectionId, storageId)
    if (!storage) throw new ControlError(400, `Unknown storage ${storageRef}; create it first with POST /__svc-mock/storages.`, 'storage')
    if (!storage.facets.some((f) => f.name === facetName)) {
      throw new ControlError(400, `Storage ${storageRef} has no facet "${facetName}" (it has ${storage.facets.map((f) => f.name).join(', ')}).`, 'facet')
    }
  }

  #checkNewVersionIds(storageRef: string, records: readonly VersionRecord[]): void {
    const [collectionId = '', storageId = ''] = storageRef.split('/')
    for (const record of records) {
      if (this.store.find(collectionId, storageId, record.versionId, record.versionId)) {
        throw new ControlError(409, `Version ${record.versionId} exists already in storage ${storageRef}.`, 'versionId', 'ERR_CONFLICT')
      }
    }
  }

  #locate(elementId: string, where: { storage?: string; facet?: string }): ElementSummary {
    const matches = this.store.summaries(where).filter((s) => s.id.toLowerCase() === elementId.toLowerCase())
    if (matches.length === 0) throw new ControlError(404, `No element ${elementId}${where.storage ? ` in ${where.storage}` : ''}${where.facet ? `, facet ${where.facet}` : ''}.`, 'elementId', 'ERR_NOT_FOUND')
    if (matches.length > 1) throw new ControlError(400, `Element id ${elementId} exists in more than one storage or facet; say which with ?storage=…&facet=….`, 'storage')
    return matches[0] as ElementSummary
  }
}

function parseBody<T>(schema: z.ZodType<T>, input: unknown, what: string): T {
  const parsed = schema.safeParse(input)
  if (parsed.success) return parsed.data
  const problem = firstProblem(parsed.error)
  throw new ControlError(400, `Invalid ${what}: ${problem.path || 'body'}: ${problem.rule}`, problem.path || undefined)
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

