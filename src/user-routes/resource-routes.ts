/**
 * The five routes of a resource, on its `@msw/data` collection: list (`GET path`: a JSON array of
 * the records), read (`GET path/{id}`), create (`POST path`: 201 with the record), replace
 * (`PUT path/{id}`) and delete (`DELETE path/{id}`: 204). A missing record is the platform's 404;
 * a body that is not a JSON object, a 400 naming the problem. Each goes through the gate as the
 * resource's `auth` says.
 */
import * as z from 'zod'
import type { AccessGate } from '../auth/index.js'
import type { JsonObject } from '../kernel/json.js'
import { NESTING_RULE, nestsDeeperThan } from '../kernel/nesting.js'
import { type Reply, empty, json } from '../kernel/reply.js'
import type { RequestContext, RouteDefinition, RouteDoc } from '../kernel/route.js'
import { type Access, securityOf, withAccess } from './access.js'
import { ACCESS_RESPONSES, PlatformErrorSchema, USER_ROUTES_TAG } from './docs.js'
import type { Resource } from './resources.js'
import { RecordBodyError, RecordNotFoundError } from './wire.js'

export type ResourceOperation = 'list' | 'read' | 'create' | 'replace' | 'delete'

export interface ResourceRoute {
  readonly operation: ResourceOperation
  readonly definition: RouteDefinition
  /** Its documentation, made when a document is asked for. */
  readonly doc: () => RouteDoc
}

/** The resource's routes on `origin`, each behind the gate as `access` says. */
export function resourceRoutes(resource: Resource, origin: string, gate: AccessGate, access: Access | undefined): ResourceRoute[] {
  const { name, path, idField } = resource
  const item = `${path}/:id`
  const route = (operation: ResourceOperation, method: RouteDefinition['method'], at: string, summary: string, answer: (ctx: RequestContext) => Promise<Reply> | Reply): RouteDefinition =>
    withAccess(gate, access, { id: `${name}.${operation}`, method, path: at, origin, summary, resolve: answer })
  const record = (ctx: RequestContext): JsonObject => {
    const id = ctx.params.id ?? ''
    const found = resource.get(id)
    if (!found) throw new RecordNotFoundError(`No ${name} record with ${idField} "${id}".`)
    return found
  }
  let docs: Readonly<Record<ResourceOperation, RouteDoc>> | undefined
  const doc = (operation: ResourceOperation) => (): RouteDoc => (docs ??= resourceDocs(resource, access))[operation]
  return [
    { operation: 'list', definition: route('list', 'GET', path, `${name}: list the records`, () => json(resource.list())), doc: doc('list') },
    { operation: 'read', definition: route('read', 'GET', item, `${name}: read a record`, (ctx) => json(record(ctx))), doc: doc('read') },
    {
      operation: 'create',
      definition: route('create', 'POST', path, `${name}: create a record`, async (ctx) => json(await resource.create(await readRecord(ctx)), { status: 201 })),
      doc: doc('create'),
    },
    {
      operation: 'replace',
      definition: route('replace', 'PUT', item, `${name}: replace a record`, async (ctx) => json(await resource.replace(ctx.params.id ?? '', await readRecord(ctx)))),
      doc: doc('replace'),
    },
    {
      operation: 'delete',
      definition: route('delete', 'DELETE', item, `${name}: delete a record`, (ctx) => {
        if (!resource.delete(ctx.params.id ?? '')) record(ctx)
        return empty(204)
      }),
      doc: doc('delete'),
    },
  ]
}

/** The five routes' documentation (made when a document is asked for). */
function resourceDocs(resource: Resource, access: Access | undefined): Readonly<Record<ResourceOperation, RouteDoc>> {
  const { name, idField } = resource
  const Item = z.record(z.string(), z.unknown()).meta({ description: `A ${name} record; its id is in "${idField}".` })
  const docOf = (summary: string, responses: RouteDoc['responses'], options: { body?: boolean; one?: boolean } = {}): RouteDoc => ({
    description: `${summary}: your resource "${name}", on an @msw/data collection (a reset restores its records).`,
    tags: [USER_ROUTES_TAG],
    ...(options.one ? { params: { id: `The record's ${idField}.` } } : {}),
    ...(options.body ? { body: { 'application/json': Item }, bodyRequired: true } : {}),
    responses: { ...responses, ...(access === 'none' ? {} : ACCESS_RESPONSES) },
    security: securityOf(access),
  })
  const notFound = { description: 'No record with that id.', content: { 'application/json': PlatformErrorSchema } }
  const badBody = { description: "The body is not a JSON object (or its id is not the path's).", content: { 'application/json': PlatformErrorSchema } }
  return {
    list: docOf(`${name}: list the records`, { '200': { description: 'Every record.', content: { 'application/json': z.array(Item) } } }),
    read: docOf(`${name}: read a record`, { '200': { description: 'The record.', content: { 'application/json': Item } }, '404': notFound }, { one: true }),
    create: docOf(
      `${name}: create a record (its ${idField} made when absent)`,
      { '201': { description: 'The record.', content: { 'application/json': Item } }, '400': badBody, '409': { description: 'A record with that id exists.', content: { 'application/json': PlatformErrorSchema } } },
      { body: true },
    ),
    replace: docOf(`${name}: replace a record`, { '200': { description: 'The record as it is now.', content: { 'application/json': Item } }, '400': badBody, '404': notFound }, { body: true, one: true }),
    delete: docOf(`${name}: delete a record`, { '204': { description: 'Deleted.' }, '404': notFound }, { one: true }),
  }
}

/** The request body as a record: JSON (a 400 naming the problem otherwise), kept for the journal. */
async function readRecord(ctx: RequestContext): Promise<JsonObject> {
  const text = (await ctx.body?.text()) ?? ''
  if (text.trim() === '') throw new RecordBodyError('The body is empty; send the record as a JSON object.')
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    throw new RecordBodyError(`The body is not JSON: ${error instanceof Error ? error.message : String(error)}`)
  }
  if (nestsDeeperThan(value)) throw new RecordBodyError(`The body ${NESTING_RULE}.`)
  ctx.journalBody = value
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new RecordBodyError(`A record is a JSON object; the body is ${value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`}.`)
  }
  return value as JsonObject
}
