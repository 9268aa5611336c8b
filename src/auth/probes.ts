/**
 * The platform Python SDK's probes, which `get_celonis()` makes before anything else:
 * `GET /api/cloud` (the caller, in the platform's `UserTransport` shape), `GET
 * /api/cloud/permissions` (a list of `{serviceName, permissions}`) and `GET /api/team` (the team,
 * in the `TeamTransport` shape). Every valid credential gets them, each for its own identity: a
 * user API key or a code or device token answers as its user, an application key as the
 * application, a client-credentials token as the client. A key under the other scheme (a user key
 * as AppKey, an application key as Bearer) is the gate's 401, which is what makes the SDK try the
 * other scheme. Everything comes from the fixtures; what they do not say is derived (docs/assumptions.md).
 */
import type { Reply } from '../kernel/reply.js'
import { json } from '../kernel/reply.js'
import type { RequestContext, RouteDefinition } from '../kernel/route.js'
import type { Directory, UserRole } from './directory.js'
import type { AccessGate, Identity, ProtectedRoute } from './gate.js'
import type { ClientRegistry } from './oauth/clients.js'
import type { Permission } from './permissions.js'
import type { PlatformTeam } from './platform-team.js'

/** The platform's role numbers, as `role` and `effectiveRole` carry them. */
const ROLE_NUMBERS: Readonly<Record<UserRole, number>> = { member: 0, analyst: 1, admin: 2 }

/** What the probes read: the identities' records and the team. */
export interface ProbeDeps {
  readonly gate: AccessGate
  readonly directory: Directory
  readonly clients: ClientRegistry
  /** The team of the fixtures (it changes when fixtures load). */
  readonly team: () => PlatformTeam
  readonly baseUrl: string
}

/** The platform's `UserTransport`: who the credential acts as. */
export interface UserTransport {
  id: string
  email: string
  name: string
  teamId: string
  teamName: string
  teamDomain: string
  active: boolean
  language: string
  timeZone: string
  role: number
  effectiveRole: number
  lastLogInDate: string
  groupIds: string[]
  admin: boolean
  analyst: boolean
  member: boolean
  cloudAdmin: boolean
  nameOrEmail: string
  nameAndEmail: string
}

/** One entry of `GET /api/cloud/permissions`. */
export interface ServicePermissions {
  serviceName: string
  permissions: string[]
}

/** The platform's `TeamTransport` (the fields svc-mock knows; the SDK reads `trackingEnabled`). */
export interface TeamTransport {
  id: string
  name: string
  domain: string
  privacyType: string
  allowedDomain: string | null
  active: boolean
  activeUntil: string | null
  visible: boolean
  memberLimit: number | null
  trackingEnabled: boolean
}

export const CLOUD_PATH = '/api/cloud'
export const PERMISSIONS_PATH = '/api/cloud/permissions'
export const TEAM_INFO_PATH = '/api/team'

/** The three probes, each behind the gate: any valid credential. */
export function probeRoutes(deps: ProbeDeps): RouteDefinition[] {
  const base = { method: 'GET', origin: 'base' } as const
  const probes: ProtectedRoute[] = [
    { ...base, id: 'auth.cloud', path: CLOUD_PATH, summary: "Who am I: the caller as the platform's UserTransport (the Python SDK's first probe)", resolve: (ctx, caller) => json(userTransport(deps, caller, ctx)) },
    { ...base, id: 'auth.permissions', path: PERMISSIONS_PATH, summary: "The caller's permissions, a list of {serviceName, permissions}", resolve: (_, caller) => json(servicePermissions(caller.permissions)) },
    { ...base, id: 'auth.teamInfo', path: TEAM_INFO_PATH, summary: "The team as the platform's TeamTransport", resolve: () => teamInfo(deps) },
  ]
  return probes.map((route) => deps.gate.protect(route))
}

/** The host name clients see as the team's domain: the fixture's, else the host of `{base_url}`. */
function domainOf(deps: ProbeDeps): string {
  return deps.team().domain ?? new URL(deps.baseUrl).hostname
}

/** The caller's name, e-mail and role, from the fixture record of its identity. */
function caller(deps: ProbeDeps, identity: Identity): { id: string; name: string; email: string | undefined; role: UserRole } {
  if (identity.userId !== undefined) {
    const user = deps.directory.user(identity.userId)
    return { id: identity.userId, name: user?.name ?? identity.userId, email: user?.email, role: user?.role ?? 'member' }
  }
  if (identity.kind === 'client') return { id: identity.subject, name: deps.clients.get(identity.subject)?.name ?? identity.subject, email: undefined, role: 'member' }
  return { id: identity.subject, name: identity.subject, email: undefined, role: 'member' }
}

export function userTransport(deps: ProbeDeps, identity: Identity, ctx: RequestContext): UserTransport {
  const team = deps.team()
  const who = caller(deps, identity)
  // Identities without an address in the fixtures get one at the team's test domain.
  const email = who.email ?? `${who.id}@${team.id}.svc-mock.test`
  const role = ROLE_NUMBERS[who.role]
  return {
    id: who.id,
    email,
    name: who.name,
    teamId: team.id,
    teamName: team.name,
    teamDomain: domainOf(deps),
    active: true,
    language: 'en',
    timeZone: 'UTC',
    role,
    effectiveRole: role,
    lastLogInDate: new Date(ctx.receivedAt).toISOString(),
    groupIds: [],
    admin: role >= ROLE_NUMBERS.admin,
    analyst: role >= ROLE_NUMBERS.analyst,
    member: true,
    cloudAdmin: false,
    nameOrEmail: who.name === '' ? email : who.name,
    nameAndEmail: `${who.name} (${email})`,
  }
}

/** The permissions grouped by resource, in the order the fixtures give them: the resource is the service's name. */
export function servicePermissions(permissions: readonly Permission[]): ServicePermissions[] {
  const byService = new Map<string, string[]>()
  for (const { action, resource } of permissions) {
    const actions = byService.get(resource) ?? []
    if (!actions.includes(action)) actions.push(action)
    byService.set(resource, actions)
  }
  return [...byService].map(([serviceName, actions]) => ({ serviceName, permissions: actions }))
}

function teamInfo(deps: ProbeDeps): Reply {
  const team = deps.team()
  const body: TeamTransport = {
    id: team.id,
    name: team.name,
    domain: domainOf(deps),
    privacyType: 'PRIVATE',
    allowedDomain: null,
    active: true,
    activeUntil: null,
    visible: true,
    memberLimit: null,
    trackingEnabled: false,
  }
  return json(body)
}
