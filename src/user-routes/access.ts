/**
 * A user route's access, through the auth domain's gate exactly as the platform's own routes go:
 * the default is a valid credential (the gate's 401 with `WWW-Authenticate: Bearer` otherwise),
 * `scopes` (every one of them) and `permission` add the gate's 403 `ADMIN_ACCESS_ERROR`, and
 * `"none"` makes a public route. Static keys, tokens of every grant, expiry and the gate's
 * settings (rate limit, rejected static keys, no permissions) apply as they do everywhere.
 */
import { type AccessGate, type Identity, type Permission, gated } from '../auth/index.js'
import type { RequestContext, RouteDefinition } from '../kernel/route.js'

/** What a route or resource declares as its `auth`, as it was parsed. */
export type Access = 'none' | { readonly scopes?: readonly string[] | undefined; readonly permission?: Permission | undefined }

/** Checks the caller; undefined for a public route. */
export type AccessCheck = (ctx: RequestContext) => Promise<Identity | undefined>

export function accessCheck(gate: AccessGate, access: Access | undefined): AccessCheck {
  if (access === 'none') return async () => undefined
  const [first, ...more] = access?.scopes ?? []
  const requirement = { scope: first ?? null, ...(access?.permission ? { permission: access.permission } : {}) }
  return async (ctx) => {
    const identity = await gate.check(ctx, requirement)
    for (const scope of more) gate.authorize(identity, { scope })
    return identity
  }
}

/** The route, tagged as the gate's unless it is public: the gate's scenarios then reach it, as every gated route. */
export function guarded(route: RouteDefinition, access: Access | undefined): RouteDefinition {
  return access === 'none' ? route : gated(route)
}

/** The OpenAPI security of a route with this access. */
export function securityOf(access: Access | undefined): readonly string[] {
  return access === 'none' ? [] : ['bearer', 'appKey']
}
