/**
 * The proxy's fallback route as the domain holds it: the route is known at once (its id, summary
 * and body limit), while the code that forwards (proxy.ts) and the recorder load with `import()`
 * when the domain starts, and only when the options ask for a proxy, so a test that never proxies
 * loads neither. The options are checked before, once, by `proxySettings` (options.ts).
 */
import type { KernelServices } from '../kernel/domain.js'
import type { Reply } from '../kernel/reply.js'
import type { RequestContext, RouteDefinition } from '../kernel/route.js'
import { PROXIED_ROUTE, PROXY_BODY_LIMIT } from './constants.js'
import type { ProxySettings } from './options.js'
import type { Recorder } from './recorder.js'

export interface ProxyFallback {
  /** The fallback route: `proxied` in the journal, and for scenario rules. */
  readonly route: RouteDefinition
  /** Loads the proxy (and the recorder, with `record`); the domain's `load()` awaits it. */
  start(): Promise<void>
  /** The recorder, once started; undefined without `record`. */
  recorder(): Recorder | undefined
}

type Forward = (ctx: RequestContext) => Promise<Reply>

export function proxyFallback(settings: ProxySettings, kernel: KernelServices): ProxyFallback {
  const { upstream, timeoutMs, record } = settings
  let recorder: Recorder | undefined
  let loading: Promise<Forward> | undefined
  const load = (): Promise<Forward> =>
    (loading ??= (async () => {
      const [{ forward }, recording] = await Promise.all([import('./proxy.js'), record === undefined ? undefined : import('./recorder.js')])
      if (recording !== undefined && record !== undefined) recorder = new recording.Recorder(record, kernel)
      const options = { upstream, timeoutMs, recorder }
      return (ctx: RequestContext) => forward(ctx, options)
    })())
  const route: RouteDefinition = {
    id: PROXIED_ROUTE,
    method: '*',
    path: '/*',
    origin: 'base',
    summary: `Forward a request no route serves to ${upstream.origin}`,
    bodyLimit: PROXY_BODY_LIMIT,
    foreign: true,
    resolve: async (ctx) => (await load())(ctx),
  }
  return {
    route,
    start: async () => void (await load()),
    recorder: () => recorder,
  }
}
