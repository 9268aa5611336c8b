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
import { USER_ROUTES_FLAGS, type UserRoutesOptions, proxySettings } from './options.js'
import { proxyFallback } from './proxy-fallback.js'
import type { Recorder } from './recorder.js'
import { type UserRoutesDomainApi, userRoutesApi } from './api.js'
import { userRoutesControl } from './control.js'
import { RouteRegistry } from './registry.js'
import { resourcesApi } from './resources-api.js'
import type { SavedUserRoutesInput } from './saved.js'

export type { UserRoutesApi, UserRoutesDomainApi } from './api.js'
export type { Recording } from './recorder.js'
export type { UserRouteContext, UserRouteResolver } from './context.js'
export type { ResourceCollection, ResourcesApi } from './resources-api.js'
export type { ResourceInput, RouteAuthInput, RoutesDocumentInput, UserRouteInput } from './schema.js'
export type { RoutesInput } from './sources.js'
export type { UserRoutesOptions } from './options.js'
export { routeSchemas } from './schema.js'
export { RouteFileError } from './errors.js'
export { RecordBodyError, RecordConflictError, RecordNotFoundError, UpstreamError } from './wire.js'
export { RESERVED_PREFIX } from './constants.js'
export { userRoutesVerifyProbes } from './verify-probes.js'

/**
 * What the user's routes add to the public types: no fixture section, no settings, no scenario
 * target. `{}` adds nothing to the intersections (`object` there would switch off the
 * excess-property check of every fixture document).
 */
export interface UserRoutesInputs {
  readonly fixtures: {}
  readonly settings: never
  readonly targets: {}
  readonly saved: SavedUserRoutesInput
}

export const userRoutesSchemas: DomainSchemas = { fixtures: [], saved: async () => (await import('./saved.js')).SavedUserRoutes }

export const userRoutesDomain: DomainModule<'userRoutes', UserRoutesOptions, Domain<UserRoutesDomainApi>, UserRoutesInputs> = {
  name: 'userRoutes',
  schemas: userRoutesSchemas,
  flags: USER_ROUTES_FLAGS,
  define: ({ kernel, options, use }) => {
    const { gate } = use(authDomain)
    const resources = resourcesApi(() => registry.resources)
    const registry: RouteRegistry = new RouteRegistry(kernel, { gate, clock: kernel.clock, uuid: () => kernel.ids.uuid(), resources, logger: kernel.logger })
    const inputs = options.routes === undefined ? [] : Array.isArray(options.routes) ? options.routes : [options.routes]
    const settings = proxySettings(options)
    const proxy = settings === undefined ? undefined : proxyFallback(settings, kernel)
    const recorder = (): Recorder | undefined => proxy?.recorder()
    const api = userRoutesApi(registry, resources, recorder)
    return {
      get routes() {
        return registry.routes
      },
      ...(proxy ? { fallback: proxy.route } : {}),
      api,
      control: userRoutesControl(api),
      docs: async () => registry.docs(),
      load: async () => {
        await proxy?.start()
        await registry.start(inputs)
      },
      saved: async () => (await import('./saved.js')).savedUserRoutes(registry),
      reset: () => {
        recorder()?.reset()
        return registry.reset()
      },
      close: async () => void (await recorder()?.recorded()),
    }
  },
}
