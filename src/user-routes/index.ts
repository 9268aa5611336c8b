/**
 * Routes and resources of the user's own, the user-routes domain's one door: a domain made from
 * data, as `versions` is made from fixtures. Route files (`--routes PATH`, `createEmulator({ routes })`)
 * and documents added at run time declare routes that answer through the same gate, scenarios,
 * journal and documents as the built-in ones, and resources on `@msw/data` collections. With
 * `proxy`, requests no route serves go to the user's real team (and, with `record`, become route
 * files).
 */
import { authDomain } from '../auth/index.js'
import type { Domain, DomainModule, DomainSchemas } from '../kernel/domain.js'
import { type UserRoutesDomainApi, userRoutesApi } from './api.js'
import { RouteRegistry } from './registry.js'
import { resourcesApi } from './resources.js'
import type { RoutesInput } from './sources.js'

export type { UserRoutesApi, UserRoutesDomainApi } from './api.js'
export type { UserRouteContext, UserRouteResolver } from './context.js'
export type { ResourceCollection, ResourcesApi } from './resources.js'
export type { ResourceInput, RouteAuthInput, RoutesDocumentInput, UserRouteInput } from './schema.js'
export type { RoutesInput } from './sources.js'
export { RoutesDocumentSchema } from './schema.js'
export { RouteFileError } from './errors.js'
export { RecordBodyError, RecordConflictError, RecordNotFoundError, UpstreamError } from './wire.js'
export { RESERVED_PREFIX } from './constants.js'

/** The run options of the user's routes (`createEmulator()` and the command line). */
export interface UserRoutesOptions {
  /** Route files, folders of them, or route documents (in-process, a route may `resolve` instead of `response`). */
  routes?: RoutesInput | RoutesInput[]
}

/**
 * What the user's routes add to the public types: no fixture section, no settings, no scenario
 * target. `{}` adds nothing to the intersections (`object` there would switch off the
 * excess-property check of every fixture document).
 */
export interface UserRoutesInputs {
  readonly fixtures: {}
  readonly settings: never
  readonly targets: {}
}

export const userRoutesSchemas: DomainSchemas = { fixtures: [] }

export const userRoutesDomain: DomainModule<'userRoutes', UserRoutesOptions, Domain<UserRoutesDomainApi>, UserRoutesInputs> = {
  name: 'userRoutes',
  schemas: userRoutesSchemas,
  define: ({ kernel, options, use }) => {
    const { gate } = use(authDomain)
    const resources = resourcesApi(() => registry.resources)
    const registry: RouteRegistry = new RouteRegistry(kernel, { gate, clock: kernel.clock, uuid: () => kernel.ids.uuid(), resources, logger: kernel.logger })
    const inputs = options.routes === undefined ? [] : Array.isArray(options.routes) ? options.routes : [options.routes]
    return {
      get routes() {
        return registry.routes
      },
      api: userRoutesApi(registry, resources),
      docs: async () => registry.docs(),
      load: () => registry.start(inputs),
      reset: () => registry.reset(),
    }
  },
}
