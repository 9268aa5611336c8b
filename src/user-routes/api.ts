/**
 * What the user-routes domain adds to the emulator object: `emu.userRoutes` (add routes and
 * resources at run time, list the user's routes) and `emu.resources` (the resources' records).
 * The control plane's `POST /__svc-mock/routes` and `/__svc-mock/resources/…` call the same.
 */
import type { RouteInfo } from '../kernel/kernel.js'
import type { Recorder, Recording } from './recorder.js'
import type { RouteRegistry } from './registry.js'
import type { ResourcesApi } from './resources-api.js'
import type { RoutesDocumentInput } from './schema.js'

export interface UserRoutesApi {
  /**
   * Adds the routes and resources of a route document until the next reset, and answers the
   * routes it added. A route of yours with the same id, or a resource with the same name (from a
   * route file too), is replaced until then; a built-in route's id is refused. A document with a
   * problem adds nothing: RouteFileError names the route, the field and the rule. A `bodyFile`
   * needs a file to be beside: give `body` (or `resolve`).
   */
  add(document: RoutesDocumentInput): Promise<RouteInfo[]>
  /** The user's routes now (route files, documents given in code, and those added since). */
  list(): RouteInfo[]
  /**
   * With `record`: waits until every recording begun so far is on disk (a recording begins when
   * the answer's body has ended, before the client reads its end), and answers what was recorded
   * since the start or the last reset, oldest first. Without `record`: none.
   */
  recorded(): Promise<Recording[]>
}

export interface UserRoutesDomainApi {
  readonly userRoutes: UserRoutesApi
  readonly resources: ResourcesApi
}

export function userRoutesApi(registry: RouteRegistry, resources: ResourcesApi, recorder: () => Recorder | undefined): UserRoutesDomainApi {
  return {
    userRoutes: {
      add: (document) => registry.add(document),
      list: () => registry.routes.map(({ id, method, path, origin, summary }) => ({ id, method, path, origin, summary })),
      recorded: async () => (await recorder()?.recorded()) ?? [],
    },
    resources,
  }
}
