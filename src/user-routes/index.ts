/**
 * Routes and resources of the user's own, the user-routes domain's one door: a domain made from
 * data, as `versions` is made from fixtures. Route files (`--routes PATH`, `createEmulator({ routes })`)
 * and documents added at run time declare routes that answer through the same gate, scenarios,
 * journal and documents as the built-in ones, and resources on `@msw/data` collections. With
 * `proxy`, requests no route serves go to the user's real team (and, with `record`, become route
 * files).
 */
import { authDomain } from '../auth/index.js'
import type { Domain, DomainModule, DomainSchemas, KernelServices } from '../kernel/domain.js'
import { ConfigError } from '../kernel/errors.js'
import type { Reply } from '../kernel/reply.js'
import type { RequestContext, RouteDefinition } from '../kernel/route.js'
import { DEFAULT_PROXY_TIMEOUT_MS, PROXIED_ROUTE, PROXY_BODY_LIMIT } from './constants.js'
import type { Recorder } from './recorder.js'
import { type UserRoutesDomainApi, userRoutesApi } from './api.js'
import { RouteRegistry } from './registry.js'
import { resourcesApi } from './resources-api.js'
import type { RoutesInput } from './sources.js'

export type { UserRoutesApi, UserRoutesDomainApi } from './api.js'
export type { Recording } from './recorder.js'
export type { UserRouteContext, UserRouteResolver } from './context.js'
export type { ResourceCollection, ResourcesApi } from './resources-api.js'
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
  /**
   * Your real team's URL: every request whose path no route serves is forwarded there (the
   * caller's credential included) and journaled as `proxied`. Never a path svc-mock emulates.
   */
  proxy?: string
  /** With `proxy`: write each proxied exchange as a route file in this folder (made when missing). */
  record?: string
  /** How long the proxy waits for the team's answer to begin, in emulator milliseconds (default 30 000): then 504. */
  proxyTimeoutMs?: number
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

/** The proxy's fallback route, and its start: the proxy and the recorder load then, only when the options ask for them. */
interface ProxyFallback {
  readonly route: RouteDefinition
  start(): Promise<unknown>
  readonly recorder: () => Recorder | undefined
}

function proxyOf(options: UserRoutesOptions, kernel: KernelServices): ProxyFallback | undefined {
  const { proxy, record, proxyTimeoutMs = DEFAULT_PROXY_TIMEOUT_MS } = options
  if (proxy === undefined) {
    if (record !== undefined) throw new ConfigError('record', 'records what the proxy forwards: give proxy (--proxy URL) too')
    return undefined
  }
  let upstream: URL
  try {
    upstream = new URL(proxy)
  } catch {
    throw new ConfigError('proxy', `must be an absolute URL such as https://acme.eu-1.celonis.cloud, got "${proxy}"`)
  }
  if (upstream.protocol !== 'http:' && upstream.protocol !== 'https:') throw new ConfigError('proxy', `must use http or https, got "${proxy}"`)
  if (!Number.isInteger(proxyTimeoutMs) || proxyTimeoutMs < 1) throw new ConfigError('proxyTimeoutMs', `must be a whole number of milliseconds >= 1, got ${String(proxyTimeoutMs)}`)
  let recorder: Recorder | undefined
  let started: Promise<(ctx: RequestContext) => Promise<Reply>> | undefined
  const start = (): Promise<(ctx: RequestContext) => Promise<Reply>> =>
    (started ??= (async () => {
      const [{ forward }, recorderModule] = await Promise.all([import('./proxy.js'), record === undefined ? undefined : import('./recorder.js')])
      recorder = recorderModule && record !== undefined ? new recorderModule.Recorder(record, kernel) : undefined
      const settings = { upstream, timeoutMs: proxyTimeoutMs, recorder }
      return (ctx: RequestContext) => forward(ctx, settings)
    })())
  const route: RouteDefinition = {
    id: PROXIED_ROUTE,
    method: '*',
    path: '/*',
    origin: 'base',
    summary: `Forward a request no route serves to ${upstream.origin}`,
    bodyLimit: PROXY_BODY_LIMIT,
    foreign: true,
    resolve: async (ctx) => (await start())(ctx),
  }
  return { route, start, recorder: () => recorder }
}

export const userRoutesDomain: DomainModule<'userRoutes', UserRoutesOptions, Domain<UserRoutesDomainApi>, UserRoutesInputs> = {
  name: 'userRoutes',
  schemas: userRoutesSchemas,
  define: ({ kernel, options, use }) => {
    const { gate } = use(authDomain)
    const resources = resourcesApi(() => registry.resources)
    const registry: RouteRegistry = new RouteRegistry(kernel, { gate, clock: kernel.clock, uuid: () => kernel.ids.uuid(), resources, logger: kernel.logger })
    const inputs = options.routes === undefined ? [] : Array.isArray(options.routes) ? options.routes : [options.routes]
    const proxy = proxyOf(options, kernel)
    const recorder = (): Recorder | undefined => proxy?.recorder()
    return {
      get routes() {
        return registry.routes
      },
      ...(proxy ? { fallback: proxy.route } : {}),
      api: userRoutesApi(registry, resources, recorder),
      docs: async () => registry.docs(),
      load: async () => {
        await proxy?.start()
        await registry.start(inputs)
      },
      reset: () => {
        recorder()?.reset()
        return registry.reset()
      },
      close: async () => void (await recorder()?.recorded()),
    }
  },
}
