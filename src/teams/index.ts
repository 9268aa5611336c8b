/**
 * Teams, the one door: the isolated emulators a standalone server runs beside its main one, each on
 * a port of its own (docs/teams.md). The server hands them how it opens a port and builds an
 * emulator (`serverTeams`); the control plane mounts their operations (`teamsControl`) and writes
 * and loads them in the main team's saved state (`ControlledTeams`); the banner asks them for its
 * lines. What makes and tracks teams is import()ed when the first one is made, so a server that
 * makes none never loads it.
 */
import type { TeamsSetup } from './launch.js'
import type { TeamCounts } from './options.js'
import { ServerTeams } from './server-teams.js'

export type { TeamOptions } from './body.js'
export { TEAM_NAME } from './constants.js'
export { ServerClosingError, TeamDeletedError, TeamPortError, TeamsUnavailableError, TooManyTeamsError } from './errors.js'
export type { TeamPort, TeamsSetup } from './launch.js'
export { type ServerTeamsOptions, type TeamCounts, TEAMS_FLAGS, teamCounts } from './options.js'
export type { ServerTeams } from './server-teams.js'
export type { ControlledTeams, PreparedTeams, RunningTeam, SavedTeam, TeamInfo, TeamsApi } from './team.js'
export { teamsBannerLines } from './banner.js'
export { teamsControl } from './control.js'

/** A server's teams: `counts` checked by `teamCounts()`; the main team set once its emulator is built. */
export function serverTeams(counts: TeamCounts, setup: TeamsSetup): ServerTeams {
  return new ServerTeams(counts, setup)
}
