/**
 * What `svc-mock verify` sends to check the user's own routes against the team: one GET per GET
 * route of the route files (`--routes`), with the API credential and no parameters. A route whose
 * path has parameters is listed as skipped: verify cannot know a value that exists on the team.
 */
import type { RouteInfo } from '../kernel/kernel.js'
import type { VerifyProbe } from '../kernel/verify-probe.js'

/** A path parameter (`:poolId`) or a wildcard. */
const PARAMETER = /[:*]/

/** The probes of the user's routes, one per GET route, in the order the route files give them. */
export function userRoutesVerifyProbes(routes: readonly RouteInfo[]): VerifyProbe[] {
  return routes
    .filter((route) => route.method === 'GET')
    .map((route) => ({
      id: `routes.${route.id}`,
      api: 'your routes',
      title: `GET ${route.path}`,
      address: route.origin,
      method: 'GET',
      path: route.path,
      credential: 'api',
      ...(PARAMETER.test(route.path) ? { skip: `its path has parameters (${route.path}): verify sends a GET only to routes without` } : {}),
    }))
}
