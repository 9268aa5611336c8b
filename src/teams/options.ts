/**
 * The teams' options of a standalone server (`startServer({ teams, maxTeams })`), their flags
 * (`--teams`, `--max-teams`) and their check.
 */
import { wholeNumber } from '../kernel/checks.js'
import { type Flag, numberText } from '../kernel/flags.js'
import { DEFAULT_MAX_TEAMS, MAX_TEAMS_LIMIT } from './constants.js'

export interface ServerTeamsOptions {
  /** Teams to make at start, named `team-1` … `team-N`, each on a free port (docs/teams.md). Default 0. */
  teams?: number
  /** How many teams may run beside the main one; one more is refused (429). Default 1000. */
  maxTeams?: number
}

/** The options checked: how many teams to make at start, how many may run. */
export interface TeamCounts {
  readonly atStart: number
  readonly limit: number
}

/** Checks the options (ConfigErrors naming `maxTeams` or `teams`). */
export function teamCounts(options: ServerTeamsOptions): TeamCounts {
  const limit = wholeNumber('maxTeams', options.maxTeams ?? DEFAULT_MAX_TEAMS, 0, MAX_TEAMS_LIMIT)
  return { atStart: wholeNumber('teams', options.teams ?? 0, 0, limit), limit }
}

export const TEAMS_FLAGS: readonly Flag<ServerTeamsOptions>[] = [
  {
    name: 'teams',
    env: 'SVC_MOCK_TEAMS',
    option: 'teams',
    placeholder: 'N',
    example: '4',
    help: 'make N isolated teams at start, team-1 … team-N, each on a free port of its own\n(more with POST /__svc-mock/teams; docs/teams.md)',
    default: '0',
    parse: numberText,
  },
  {
    name: 'max-teams',
    env: 'SVC_MOCK_MAX_TEAMS',
    option: 'maxTeams',
    placeholder: 'N',
    example: '10',
    help: 'how many teams may run beside the main one (one more: 429)',
    default: String(DEFAULT_MAX_TEAMS),
    parse: numberText,
  },
]
