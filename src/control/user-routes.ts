/**
 * The control plane's operations on the user's routes and resources, thin translations of
 * `emu.userRoutes` and `emu.resources`: add a route document at run time (`POST /routes`, until
 * the next reset; a refused document is a 400 naming the route and the field, and adds nothing),
 * and list, read, add or replace, and delete a resource's records.
 */
import type { EmulatorCore } from '../emulator-api.js'
import { ConflictError, InvalidInputError, NotFoundError } from '../kernel/errors.js'
import type { JsonObject } from '../kernel/json.js'
import { json } from '../kernel/reply.js'
import type { RequestContext, RouteDefinition } from '../kernel/route.js'
import { RecordBodyError, RecordConflictError, RecordNotFoundError, RouteFileError, type RoutesDocumentInput } from '../user-routes/index.js'
import { readInput } from './body.js'
import { noContent, controlRoute as route } from './route.js'

export function userRoutesRoutes(emu: EmulatorCore): RouteDefinition[] {
  const resource = (ctx: RequestContext): ReturnType<EmulatorCore['resources']['get']> => emu.resources.get(ctx.params.name ?? '')
  return [
    route('routes.add', 'POST', '/routes', 'Add your routes and resources until the next reset: a route document {routes, resources}', async (ctx) =>
      json(await controlled(async () => emu.userRoutes.add(await readInput<RoutesDocumentInput>(ctx))), { status: 201 }),
    ),
    route('resources.list', 'GET', '/resources', 'Your resources: name, path, id field, how many records', () => json(emu.resources.list())),
    route('resources.records', 'GET', '/resources/:name', "A resource's records", (ctx) => json(resource(ctx).list())),
    route('resources.get', 'GET', '/resources/:name/:id', 'One record of a resource', (ctx) => {
      const id = ctx.params.id ?? ''
      const found = resource(ctx).get(id)
      if (!found) throw new NotFoundError(`No ${ctx.params.name ?? ''} record with id "${id}".`, 'id')
      return json(found)
    }),
    route('resources.put', 'POST', '/resources/:name', 'Add a record, or replace the one with its id (201 added, 200 replaced)', async (ctx) => {
      const target = resource(ctx)
      const { record, created } = await controlled(async () => target.put(await readInput<JsonObject>(ctx)))
      return json(record, { status: created ? 201 : 200 })
    }),
    route('resources.delete', 'DELETE', '/resources/:name/:id', 'Delete one record of a resource', (ctx) => {
      const id = ctx.params.id ?? ''
      if (!resource(ctx).delete(id)) throw new NotFoundError(`No ${ctx.params.name ?? ''} record with id "${id}".`, 'id')
      return noContent()
    }),
  ]
}

/** The domain's refusals in the control plane's words (`{"error", "field"}`). */
async function controlled<T>(operation: () => Promise<T>): Promise<T> {
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
