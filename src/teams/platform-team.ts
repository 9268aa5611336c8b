/**
 * The platform team record an emulator team is given: on the platform's own routes (`/api/team`,
 * `/api/cloud/team`, `/api/cloud`) a team made at run time is its own team on the platform.
 */
import type { InlineFixtures } from '../emulator-api.js'

/**
 * The platform team record of an emulator team, as a fixture document: the team's name as the
 * record's id and name, its domain left to default to the host of the team's URL. It applies
 * after the run's fixtures, whose record names the main team, and before the team's own, which
 * may name another.
 */
export function platformTeamFixture(teamName: string): InlineFixtures {
  return { team: { id: teamName, name: teamName } }
}
