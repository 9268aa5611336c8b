/**
 * The names and limits of a standalone server's teams, in one place (the command line reads the
 * defaults without loading the code that makes teams).
 */

/** A team's name: a DNS label (RFC 1123: lower-case letters, digits and inner hyphens, at most 63). */
export const TEAM_NAME = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/

/** A team made without a name is `team-N`, the lowest N no team has. */
export const TEAM_NAME_PREFIX = 'team-'

/** The name the server's own team is listed under. */
export const MAIN_TEAM = 'main'

/** How many teams a server runs beside its main one, unless `maxTeams` (`--max-teams`) says otherwise. */
export const DEFAULT_MAX_TEAMS = 1000

/** The most `maxTeams` may allow. */
export const MAX_TEAMS_LIMIT = 1_000_000
