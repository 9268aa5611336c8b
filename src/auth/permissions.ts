/**
 * Platform permissions. A permission names an action on a resource, e.g. `read` on
 * `storage/acme-collection/acme-tenant`. A call needs the permission (and, for OAuth, the scope):
 * a scope never adds a permission. `*` as the action, or a resource ending in `*`, is a wildcard.
 */
import * as z from 'zod'
import { once } from '../kernel/once.js'

/** A permission in fixtures, control-plane bodies and route files (made on first use). */
export const permissionSchema = once(() =>
  z.strictObject({
    action: z.string().min(1),
    resource: z.string().min(1),
  }),
)
export type Permission = z.infer<ReturnType<typeof permissionSchema>>

export function hasPermission(granted: readonly Permission[], needed: Permission): boolean {
  return granted.some(
    (p) =>
      (p.action === '*' || p.action === needed.action) &&
      (p.resource === needed.resource || (p.resource.endsWith('*') && needed.resource.startsWith(p.resource.slice(0, -1)))),
  )
}

export function describePermission(p: Permission): string {
  return `${p.action} on ${p.resource}`
}

/** The resource name of a storage, as permissions name it. */
export function storageResource(collectionId: string, storageId: string): string {
  return `storage/${collectionId}/${storageId}`
}
