/**
 * The API access gate, shared by every protected route. It reads only the `Authorization` header
 * (credentials in the URL or body are ignored, as on the platform), resolves an identity with its
 * permissions and scopes, and refuses with the platform's wire format. `Bearer` carries an OAuth
 * access token or a user API key; `AppKey` an application key. Static-key calls are answered with
 * `Deprecation: true`. When the settings set a rate limit, the gate counts every call. A route is
 * protected in one step, `gate.protect(route, requirement)`: tagged for the gate's scenarios and
 * checked before its resolver runs, which gets the caller's identity.
 */
import type { Reply } from '../kernel/reply.js'
import type { RequestContext, RouteDefinition } from '../kernel/route.js'
import type { Directory } from './directory.js'
import { ApiAccessError, MALFORMED_HEADER_TEXT } from './wire.js'
import { type Permission, describePermission, hasPermission } from './permissions.js'
import { RateLimiter } from './rate-limit.js'
import { authSettings } from './settings.js'

export { AuthSettings, authSettings } from './settings.js'

/**
 * The tag of every route the gate guards: the gate scenarios (`static-keys-rejected`,
 * `rate-limited`, `insufficient-permissions`, `tokens-expired`) select them all as `@gated`,
 * wherever they are declared.
 */
const GATED_TAG = 'gated'

export type IdentityKind = 'user-api-key' | 'app-key' | 'client' | 'user'

export interface Identity {
  readonly kind: IdentityKind
  /** User id, client id, or the id (not the value) of an application key. */
  readonly subject: string
  /** For the journal and logs: who, never a secret. */
  readonly label: string
  readonly permissions: readonly Permission[]
  /** Granted scopes; null for static keys, which are not bound by scopes. */
  readonly scopes: readonly string[] | null
  readonly clientId?: string
  readonly userId?: string
}

export interface AccessRequirement {
  /** The OAuth scopes the route needs, every one (static keys are not bound by scopes). */
  readonly scopes?: readonly string[]
  /** The platform permission the route needs. */
  readonly permission?: Permission
}

/** What a route needs of each request: a valid credential (`{}`), or more; or read from the request. */
export type Requirement = AccessRequirement | ((ctx: RequestContext) => AccessRequirement)

/** What a route needs of a request that may need nothing: `'none'` lets it through without a credential. */
export type ConditionalRequirement = (ctx: RequestContext) => AccessRequirement | 'none'

/** A route whose resolver is handed the caller's identity (`undefined` where a conditional requirement said `'none'`). */
export interface ProtectedRoute<Caller extends Identity | undefined = Identity> extends Omit<RouteDefinition, 'resolve'> {
  resolve(ctx: RequestContext, caller: Caller): Promise<Reply> | Reply
}

/**
 * Verifies a Bearer value that is not a user API key (an OAuth access token). Returns undefined
 * when the value is not of its kind, so the next verifier (or the user-key lookup) can try.
 */
export type BearerVerifier = (token: string, ctx: RequestContext) => Promise<Identity | undefined>

const BEARER = /^bearer\s+/i
const APPKEY = /^appkey\s+/i

export class AccessGate {
  readonly #directory: Directory
  readonly #verifiers: BearerVerifier[] = []
  readonly #limiter = new RateLimiter()

  constructor(directory: Directory) {
    this.#directory = directory
  }

  /** Adds an OAuth token verifier (the OAuth domain plugs in here). */
  addVerifier(verifier: BearerVerifier): void {
    this.#verifiers.push(verifier)
  }

  /**
   * The route behind the gate: tagged `gated`, so the gate's scenarios reach it, and checked
   * before its resolver runs, which gets the caller's identity. A refusal is thrown, so the
   * route's `renderError` renders it in its wire format.
   */
  protect(route: ProtectedRoute, requirement?: Requirement): RouteDefinition
  protect(route: ProtectedRoute<Identity | undefined>, requirement: ConditionalRequirement): RouteDefinition
  protect(route: ProtectedRoute<Identity | undefined>, requirement: Requirement | ConditionalRequirement = {}): RouteDefinition {
    return {
      ...route,
      tags: [...(route.tags ?? []), GATED_TAG],
      resolve: async (ctx) => {
        const needed = typeof requirement === 'function' ? requirement(ctx) : requirement
        return route.resolve(ctx, needed === 'none' ? undefined : await this.#check(ctx, needed))
      },
    }
  }

  /**
   * Authenticates, counts the call against the rate limit (when one is set) and authorizes; the
   * identity is recorded on the request context. The `insufficient-permissions` setting leaves
   * every identity without permissions, so the real check answers 403.
   */
  async #check(ctx: RequestContext, requirement: AccessRequirement): Promise<Identity> {
    let identity = await this.#authenticate(ctx)
    const settings = authSettings(ctx)
    if (settings.rateLimit) this.#limiter.check(ctx, `${identity.kind}:${identity.subject}`, settings.rateLimit)
    if (settings.permissions === 'none') identity = { ...identity, permissions: [] }
    this.#authorize(identity, requirement)
    return identity
  }

  /** The rate limit's open windows (a saved state holds them; a reset forgets them). */
  get limiter(): RateLimiter {
    return this.#limiter
  }

  /** Forgets the rate-limit windows (on emulator reset). */
  reset(): void {
    this.#limiter.reset()
  }

  async #authenticate(ctx: RequestContext): Promise<Identity> {
    const header = ctx.headers.get('authorization')
    if (header === null || header.trim() === '') {
      throw new ApiAccessError('missing-credential', 'No credential: send "Authorization: Bearer <token>" or "Authorization: AppKey <key>".')
    }
    const value = header.trim()
    if (APPKEY.test(value)) return this.#staticKey(ctx, value.replace(APPKEY, '').trim(), 'app')
    if (!BEARER.test(value)) {
      throw new ApiAccessError('malformed-header', MALFORMED_HEADER_TEXT)
    }
    const token = value.replace(BEARER, '').trim()
    if (token === '') throw new ApiAccessError('unknown-credential', 'The Bearer credential is empty.')
    for (const verify of this.#verifiers) {
      const identity = await verify(token, ctx)
      if (identity) {
        ctx.identity = identity.label
        return identity
      }
    }
    return this.#staticKey(ctx, token, 'user')
  }

  #authorize(identity: Identity, requirement: AccessRequirement): void {
    const { scopes = [], permission } = requirement
    const granted = identity.scopes
    const missing = granted === null ? undefined : scopes.find((scope) => !granted.includes(scope))
    if (missing !== undefined) {
      throw new ApiAccessError('insufficient-scope', `The token lacks the scope "${missing}" this operation needs (it has: ${granted?.join(' ') || 'none'}).`)
    }
    if (permission && !hasPermission(identity.permissions, permission)) {
      throw new ApiAccessError('missing-permission', `${identity.label} lacks the permission ${describePermission(permission)}.`)
    }
  }

  #staticKey(ctx: RequestContext, value: string, scheme: 'user' | 'app'): Identity {
    const key = value === '' ? undefined : this.#directory.apiKey(value)
    if (!key || key.kind !== scheme) {
      const what = scheme === 'app' ? 'application key' : 'access token or user API key'
      throw new ApiAccessError('unknown-credential', `The ${what} is not known to the platform (it may have been deleted).`)
    }
    const label = key.kind === 'user' ? `${key.userId ?? '?'} (user API key ${key.id})` : `application key ${key.id}`
    ctx.identity = label
    if (authSettings(ctx).staticKeys === 'rejected') {
      throw new ApiAccessError('static-keys-rejected', 'Static API keys are no longer supported. Migrate to OAuth 2.0.')
    }
    ctx.responseHeaders.set('deprecation', 'true')
    return {
      kind: key.kind === 'user' ? 'user-api-key' : 'app-key',
      subject: key.kind === 'user' ? (key.userId ?? key.id) : key.id,
      label,
      permissions: this.#directory.keyPermissions(key),
      scopes: null,
      ...(key.userId === undefined ? {} : { userId: key.userId }),
    }
  }
}
