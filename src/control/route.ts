/**
 * How the control plane serves an operation, its own or a domain's: under `/__svc-mock/` on
 * `{base_url}`, as a control route (no scenario ever shapes it), named `control.<id>`, and behind
 * the guard (other pages, other sites, other host names).
 */
import { CONTROL_PREFIX, type ControlRoute } from '../kernel/control.js'
import type { RouteDefinition } from '../kernel/route.js'
import { guard } from './guard.js'

export function mounted(route: ControlRoute, hosts: ReadonlySet<string>): RouteDefinition {
  const { id, path, resolve, ...rest } = route
  return {
    ...rest,
    id: `control.${id}`,
    path: `${CONTROL_PREFIX}${path}`,
    origin: 'base',
    control: true,
    resolve: async (ctx) => {
      await guard(ctx, hosts)
      return resolve(ctx)
    },
  }
}
