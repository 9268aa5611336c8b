/**
 * The control plane's operations on your routes and resources, thin translations of
 * `emu.userRoutes` and `emu.resources`: add a route document at run time (`POST /routes`, until the
 * next reset; a refused document is a 400 naming the route and the field, and adds nothing), and
 * list, read, add or replace, and delete a resource's records; and their documentation.
 */
import * as z from 'zod'
import { type ControlPart, controlRoute as route, noContent, once, readInput } from '../kernel/control.js'
import { ConflictError, InvalidInputError, NotFoundError } from '../kernel/errors.js'
import { JsonValue, type JsonObject } from '../kernel/json.js'
import { json } from '../kernel/reply.js'
import type { RequestContext, RouteDoc } from '../kernel/route.js'
import type { UserRoutesDomainApi } from './api.js'
import { RouteFileError } from './errors.js'
import type { ResourceCollection } from './resources-api.js'
import { type RoutesDocumentInput, routeSchemas } from './schema.js'
import { RecordBodyError, RecordConflictError, RecordNotFoundError } from './wire.js'

export function userRoutesControl({ userRoutes, resources }: UserRoutesDomainApi): ControlPart {
  const resource = (ctx: RequestContext): ResourceCollection => resources.get(ctx.params.name ?? '')
  const notFound = (ctx: RequestContext, id: string): NotFoundError => new NotFoundError(`No ${ctx.params.name ?? ''} record with id "${id}".`, 'id')
  return {
    routes: [
      route('routes.add', 'POST', '/routes', 'Add your routes and resources until the next reset: a route document {routes, resources}', async (ctx) =>
        json(await withControlErrors(async () => userRoutes.add(await readInput<RoutesDocumentInput>(ctx))), { status: 201 }),
      ),
      route('resources.list', 'GET', '/resources', 'Your resources: name, path, id field, how many records', () => json(resources.list())),
      route('resources.records', 'GET', '/resources/:name', "A resource's records", (ctx) => json(resource(ctx).list())),
      route('resources.get', 'GET', '/resources/:name/:id', 'One record of a resource', (ctx) => {
        const id = ctx.params.id ?? ''
        const found = resource(ctx).get(id)
        if (!found) throw notFound(ctx, id)
        return json(found)
      }),
      route('resources.put', 'POST', '/resources/:name', 'Add a record, or replace the one with its id (201 added, 200 replaced)', async (ctx) => {
        const target = resource(ctx)
        const { record, created } = await withControlErrors(async () => target.put(await readInput<JsonObject>(ctx)))
        return json(record, { status: created ? 201 : 200 })
      }),
      route('resources.delete', 'DELETE', '/resources/:name/:id', 'Delete one record of a resource', (ctx) => {
        const id = ctx.params.id ?? ''
        if (!resource(ctx).delete(id)) throw notFound(ctx, id)
        return noContent()
      }),
    ],
    docs: once(docs),
  }
}

/** Runs `operation`, the domain's refusals turned into the control plane's errors (`{"error", "field"}`). */
async function withControlErrors<T>(operation: () => Promise<T>): Promise<T> {
  try {
    return await operation()
  } catch (error) {
    if (error instanceof RouteFileError) throw new InvalidInputError(error.message, error.path || undefined)
    if (error instanceof RecordBodyError) throw new InvalidInputError(error.message)
    if (error instanceof RecordConflictError) throw new ConflictError(error.message)
    if (error instanceof RecordNotFoundError) throw new NotFoundError(error.message, 'id')
    throw error
  }
}

async function docs(): Promise<Readonly<Record<string, RouteDoc>>> {
  const { body, CHANGE_REFUSALS, json, noContent, READ_REFUSALS, refused } = await import('../kernel/control-docs.js')
  const AnyObject = z.record(z.string(), JsonValue)
  const RouteInfo = z.object({ id: z.string(), method: z.string(), path: z.string(), origin: z.string(), summary: z.string() })
  const named = { name: 'A resource.' }
  const record = { ...named, id: "A record's id." }
  return {
    'routes.add': {
      description:
        'Your routes and resources, as a route file holds them (docs/routes.md), served at once and until the next reset. A route of yours with the same id, or a resource with the same name (from a route file too), is replaced until then; a built-in route never. A refused document adds nothing: the 400 names the route, the field and the rule.',
      ...body(routeSchemas().RoutesDocumentSchema.meta({ id: 'RoutesDocument' })),
      responses: { '201': json('The routes it added.', z.array(RouteInfo)), ...CHANGE_REFUSALS },
    },
    'resources.list': {
      responses: { '200': json('Your resources.', z.array(z.object({ name: z.string(), path: z.string(), idField: z.string(), count: z.number().int() }))), ...READ_REFUSALS },
    },
    'resources.records': { params: named, responses: { '200': json('Its records, in the order they were added.', z.array(AnyObject)), '404': refused('No such resource.'), ...READ_REFUSALS } },
    'resources.get': { params: record, responses: { '200': json('The record.', AnyObject), '404': refused('No such resource or record.'), ...READ_REFUSALS } },
    'resources.put': {
      params: named,
      ...body(AnyObject),
      responses: { '200': json('Replaced the record with its id.', AnyObject), '201': json('Added (the id is made when absent).', AnyObject), '404': refused('No such resource.'), ...CHANGE_REFUSALS },
    },
    'resources.delete': { params: record, responses: { '204': noContent, '404': refused('No such resource or record.'), ...READ_REFUSALS } },
  }
}
