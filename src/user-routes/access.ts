/**
 * A user route's access, through the auth domain's gate exactly as the platform's own routes go:
 * the default is a valid credential (the gate's 401 with `WWW-Authenticate: Bearer` otherwise),
 * `scopes` (every one of them) and `permission` add the gate's 403 `ADMIN_ACCESS_ERROR`, and
 * `"none"` makes a public route. Static keys, tokens of every grant, expiry and the gate's
 * settings (rate limit, rejected static keys, no permissions) apply as they do everywhere.
 */
import type { AccessGate, Identity, Permission, ProtectedRoute } from '../auth/index.js'
import type { RouteDefinition } from '../kernel/route.js'

/** What a route or resource declares as its `auth`, as it was parsed. */
export type Access = 'none' | { readonly scopes?: readonly string[] | undefined; readonly permission?: Permission | undefined }

/**
 * The route behind the gate as its access says (tagged, so the gate's scenarios reach it, and
 * checked before it answers), or public with `"none"`, where its resolver gets no identity.
 */
export function withAccess(gate: AccessGate, access: Access | undefined, route: ProtectedRoute<Identity | undefined>): RouteDefinition {
  if (access === 'none') return { ...route, resolve: (ctx) => route.resolve(ctx, undefined) }
  return gate.protect(route, { scopes: access?.scopes ?? [], ...(access?.permission ? { permission: access.permission } : {}) })
}

/** The OpenAPI security of a route with this access. */
export function securityOf(access: Access | undefined): readonly string[] {
  return access === 'none' ? [] : ['bearer', 'appKey']
}
