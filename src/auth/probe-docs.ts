/**
 * The platform clients' who-am-I probes as the OpenAPI document shows them (the Python SDK's
 * `/api/cloud`, its permissions and team info): each answer's schema, tied to the wire type the
 * code builds (a type-level check below fails if they drift apart), and the refusals they share.
 */
import * as z from 'zod'
import type { RouteDoc } from '../kernel/route.js'
import { RATE_LIMIT_HEADERS, RateLimitBody } from './answers.js'
import type { ServicePermissions, TeamTransport, UserTransport } from './probes.js'

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false

/** A 401 of the gate: no or a bad credential. */
export const UnauthorizedBody = z.object({ error: z.literal('Unauthorized'), message: z.string().optional() })

/** The refusals every probe shares: no or a bad credential (a key under the other scheme too), and the rate limit. */
const PROBE_REFUSALS: RouteDoc['responses'] = {
  '401': {
    description: 'No or a bad credential, or a key under the other scheme (a user key as AppKey, an application key as Bearer): what makes the Python SDK try the other scheme.',
    content: { 'application/json': UnauthorizedBody, 'text/plain': z.string() },
    headers: { 'WWW-Authenticate': 'Bearer, with the error.' },
  },
  '429': { description: 'Scenario `rate-limited`.', content: { 'application/json': RateLimitBody }, headers: RATE_LIMIT_HEADERS },
}

export const UserTransportBody = z
  .object({
    id: z.string().meta({ description: 'The user id; for an application key its id, for a client-credentials token the client id.' }),
    email: z.string().meta({ description: 'From the fixtures; else `{id}@{team id}.svc-mock.test`.' }),
    name: z.string().meta({ description: "The user's name; an application key's id; the OAuth client's name." }),
    teamId: z.string(),
    teamName: z.string(),
    teamDomain: z.string(),
    active: z.boolean(),
    language: z.string(),
    timeZone: z.string(),
    role: z.number().int().meta({ description: '0 member, 1 analyst, 2 admin (the user fixture\'s `role`; default member).' }),
    effectiveRole: z.number().int(),
    lastLogInDate: z.string().meta({ description: 'ISO 8601: the time of this request, on the emulator clock.' }),
    groupIds: z.array(z.string()),
    admin: z.boolean(),
    analyst: z.boolean(),
    member: z.boolean(),
    cloudAdmin: z.boolean(),
    nameOrEmail: z.string(),
    nameAndEmail: z.string(),
  })
  .meta({ id: 'UserTransport' })
const userShape: Same<z.output<typeof UserTransportBody>, UserTransport> = true

export const ServicePermissionsBody = z
  .object({
    serviceName: z.string().meta({ description: 'A resource of the fixtures\' permissions (`storage/acme-collection/acme-tenant`), or a service name a fixture gives as the resource (`package-manager`).' }),
    permissions: z.array(z.string()).meta({ description: 'The actions on it (`read`, `CREATE_SPACE`).' }),
  })
  .meta({ id: 'ServicePermissions' })
const permissionsShape: Same<z.output<typeof ServicePermissionsBody>, ServicePermissions> = true

export const TeamTransportBody = z
  .object({
    id: z.string(),
    name: z.string(),
    domain: z.string().meta({ description: 'The host of {base_url} unless the team fixture says otherwise.' }),
    privacyType: z.string(),
    allowedDomain: z.string().nullable(),
    active: z.boolean(),
    activeUntil: z.string().nullable(),
    visible: z.boolean(),
    memberLimit: z.number().int().nullable(),
    trackingEnabled: z.boolean().meta({ description: 'Always false: the Python SDK then sends no usage tracking.' }),
  })
  .meta({ id: 'TeamTransport' })
const teamShape: Same<z.output<typeof TeamTransportBody>, TeamTransport> = true

export const CLOUD_DOC: RouteDoc = {
  description:
    "The Python SDK's first probe (`get_celonis()` calls it as AppKey, then as Bearer when that is refused): the identity the credential acts as. " +
    'A user API key, an authorization-code or device-code token: the user; an application key: the application; a client-credentials token: the client.',
  security: ['bearer', 'appKey'],
  responses: { '200': { description: 'The caller.', content: { 'application/json': UserTransportBody } }, ...PROBE_REFUSALS },
}

export const PERMISSIONS_DOC: RouteDoc = {
  description: "The caller's permissions, grouped by resource in the order the fixtures give them: `[{serviceName, permissions}]` (an empty list for an identity without any).",
  security: ['bearer', 'appKey'],
  responses: { '200': { description: 'The permissions.', content: { 'application/json': z.array(ServicePermissionsBody) } }, ...PROBE_REFUSALS },
}

export const TEAM_INFO_DOC: RouteDoc = {
  description: 'The team of any valid credential, in the platform\'s `TeamTransport` shape; `trackingEnabled` is false.',
  security: ['bearer', 'appKey'],
  responses: { '200': { description: 'The team.', content: { 'application/json': TeamTransportBody } }, ...PROBE_REFUSALS },
}

// Used only by the type checks above.
void userShape
void permissionsShape
void teamShape
