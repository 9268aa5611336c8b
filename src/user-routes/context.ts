/**
 * What an in-process route's `resolve(request, context)` is given, typed: who called, the path
 * parameters, the emulator clock, and the user's resource collections. It answers with a Fetch
 * `Response`.
 */
import type { Identity } from '../auth/index.js'
import type { ResourceCollection, ResourcesApi } from './resources-api.js'

export interface UserRouteContext {
  /** Who called, as the gate resolved the credential; undefined on a route with `auth: "none"`. */
  readonly identity: Identity | undefined
  /** The path template's parameters, percent-decoded (`{poolId}` → `params.poolId`). */
  readonly params: Readonly<Record<string, string>>
  /** When the request arrived, on the emulator clock. */
  readonly receivedAt: Date
  /** The emulator clock (manual in tests: it moves only when the test advances it). */
  readonly clock: { now(): Date }
  /** The user's resources (`context.resources.get('pools').list()`). */
  readonly resources: ResourcesApi
}

/** An in-process route's answer, instead of `response`. */
export type UserRouteResolver = (request: Request, context: UserRouteContext) => Response | Promise<Response>

export type { ResourceCollection, ResourcesApi }
