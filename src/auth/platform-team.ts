/**
 * The platform team record (the fixtures' `team`: the team on the platform that every credential
 * belongs to, not an emulator team of a server), and the platform's who-am-I probe `GET {base_url}/api/cloud/team`: any valid
 * credential (an OAuth access token, a user API key as Bearer, an application key as AppKey) gets
 * the team's `id`, `name` and `domain`. The platform's CLI makes a key profile with it (Bearer
 * first, then AppKey) and needs `domain`. A bad credential gets the gate's 401.
 */
import * as z from 'zod'
import { fixtureSection, type FixtureSection } from '../kernel/fixtures.js'
import { once } from '../kernel/once.js'
import type { Reply } from '../kernel/reply.js'
import { platformTeamBody } from './wire.js'

/** The fixtures' `team` (made on first use: the default fixtures come validated from the build). */
const platformTeamSchema = once(() =>
  z.strictObject({
    id: z.string().min(1),
    name: z.string().min(1),
    /** The team's host name; default: the host of `{base_url}`. */
    domain: z.string().min(1).optional(),
  }),
)
export type PlatformTeam = z.infer<ReturnType<typeof platformTeamSchema>>
export type PlatformTeamInput = z.input<ReturnType<typeof platformTeamSchema>>

export const platformTeamSection: FixtureSection<PlatformTeam> = fixtureSection('team', platformTeamSchema)

export const TEAM_PATH = '/api/cloud/team'

/** The answer to a caller the gate let through. */
export function whoAmI(team: PlatformTeam, baseUrl: string): Reply {
  return platformTeamBody({ id: team.id, name: team.name, domain: team.domain ?? new URL(baseUrl).hostname })
}
