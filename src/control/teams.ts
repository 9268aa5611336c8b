/**
 * The control plane's teams, under `/__svc-mock/teams`: list, make and close the isolated
 * emulators a standalone server runs beside its main one, each on a port of its own. The control
 * plane only translates: the teams themselves are the server's (a `TeamHost` it hands the
 * emulator), and an emulator without one (in-process: there is no server to open a port on)
 * answers 501 saying what to do instead.
 */
import * as z from 'zod'
import type { InlineFixtures, SavedState, ScenarioActivation } from '../emulator-api.js'
import { ControlError } from '../kernel/errors.js'
import { type Reply, json } from '../kernel/reply.js'
import { type ControlRoute, noContent, readInput, controlRoute as route } from '../kernel/control.js'

/** A team's name: a DNS label (RFC 1123: lower-case letters, digits and inner hyphens, at most 63). */
export const TEAM_NAME = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/

/** The body of `POST /__svc-mock/teams`: every field optional. */
export const TeamBody = z.strictObject({
  name: z
    .string()
    .regex(TEAM_NAME, { message: 'must be a DNS label: lower-case letters, digits and hyphens, 1-63 characters, starting and ending with a letter or digit' })
    .optional()
    .meta({ description: 'A DNS label; default `team-N`, the next free number.' }),
  fixtures: z
    .union([z.record(z.string(), z.unknown()), z.array(z.record(z.string(), z.unknown()))])
    .optional()
    .meta({ description: "Fixture documents applied after the run's own (docs/fixtures.schema.json)." }),
  seed: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional().meta({ description: "Seed of the team's generated data; default the run's." }),
  scenarios: z
    .array(z.union([z.string().min(1), z.looseObject({ name: z.string().min(1) })]))
    .optional()
    .meta({ description: "Scenarios on for the team's whole run, after the run's own: `name`, `name:key=value` or `{name, times, params, …}`." }),
  port: z.number().int().min(0).max(65535).optional().meta({ description: 'Its port; default 0, a free one.' }),
  state: z
    .record(z.string(), z.unknown())
    .optional()
    .meta({ description: 'A saved state to start from (GET /__svc-mock/state/export, docs/state.schema.json); its seed is the team\'s unless `seed` is given. A reset of the team returns to it.' }),
})

/** What a team is made from: its name, its own fixtures after the run's, its seed, its scenarios, its port, a saved state. */
export type TeamInput = Omit<z.input<typeof TeamBody>, 'fixtures' | 'scenarios' | 'state'> & {
  fixtures?: InlineFixtures | InlineFixtures[]
  scenarios?: Array<string | ({ name: string } & ScenarioActivation)>
  state?: SavedState
}

/** A team as the main team's saved state holds it: its name, its seed, and its own saved state. */
export interface SavedTeam {
  name: string
  seed: number
  state: SavedState
}

/** Teams a saved state holds, made aside: `apply` serves each in place of a running team of its name. */
export interface PreparedTeams {
  apply(): void
  /** Closes them: another part of the document was refused. */
  discard(): Promise<void>
}

/** A team as the control plane lists it. */
export interface TeamInfo {
  readonly name: string
  /** Its origin: every endpoint, its control plane (`/__svc-mock/`) and its dashboard. */
  readonly url: string
  readonly port: number
  /** The server's own team, which closes only with the server. */
  readonly main: boolean
  /** The seed of its generated data. */
  readonly seed: number
  readonly dashboard: string
}

/** The server's teams, as the control plane drives them (the server implements it; in-process there is none). */
export interface TeamHost {
  list(): TeamInfo[]
  /** Makes a team: 201 with it, or one of the refusals (400, 409, 429, 503). */
  create(input: TeamInput): Promise<TeamInfo>
  /**
   * Closes one (404 for no such team, 409 for the main one): resolves once its port takes no more
   * connections; requests in flight there still get their answers.
   */
  delete(name: string): Promise<void>
  /**
   * For the main team's saved state (`base`: the address of the emulator asking; any other gets
   * none): loads what writing the other teams' states needs, and answers what takes them, synchronously.
   */
  snapshotter(base: string): Promise<() => SavedTeam[]>
  /**
   * Makes the teams of a saved state loaded into the main team, aside (each from its own state);
   * `refused(index, field, rule)` names a team that cannot be made.
   */
  prepare(base: string, teams: readonly SavedTeam[], refused: (index: number, field: string, rule: string) => Error): Promise<PreparedTeams>
}

/** 501: teams need a server (in-process there is no port to open). */
export class TeamsUnavailableError extends ControlError<'ERR_NO_TEAMS'> {
  readonly code = 'ERR_NO_TEAMS'
  readonly status = 501
  constructor() {
    super(
      'Teams need the standalone server (npx svc-mock, or startServer() from svc-mock/server): each team listens on a port of its own. ' +
        "In-process, make another emulator with an origin of its own instead: createEmulator({ origin: 'https://team-2.svc-mock.test', name: 'team-2' }) (docs/teams.md).",
    )
  }
}

/** 429: the server runs as many teams as its limit allows. */
export class TooManyTeamsError extends ControlError<'ERR_TOO_MANY_TEAMS'> {
  readonly code = 'ERR_TOO_MANY_TEAMS'
  readonly status = 429
  readonly limit: number
  constructor(limit: number) {
    super(`The server runs ${limit} teams, its limit: delete one (DELETE /__svc-mock/teams/{name}), or start it with a higher --max-teams.`)
    this.limit = limit
  }
  override toReply(): Reply {
    return json({ error: this.message, limit: this.limit }, { status: this.status })
  }
}

/** 503: the team's port could not be opened. */
export class TeamPortError extends ControlError<'ERR_TEAM_PORT'> {
  readonly code = 'ERR_TEAM_PORT'
  readonly status = 503
}

/** 410: a long poll's team was deleted while it waited; its port closes next. */
export class TeamDeletedError extends ControlError<'ERR_TEAM_DELETED'> {
  readonly code = 'ERR_TEAM_DELETED'
  readonly status = 410
  constructor() {
    super('team deleted')
  }
  override toReply(): Reply {
    return closing(this)
  }
}

/** 503: the server closed while a long poll waited there; ask again once a server runs. */
export class ServerClosingError extends ControlError<'ERR_SERVER_CLOSING'> {
  readonly code = 'ERR_SERVER_CLOSING'
  readonly status = 503
  constructor() {
    super('server closing')
  }
  override toReply(): Reply {
    return closing(this)
  }
}

/** The answer of a port about to close: `connection: close`, so the client sends nothing more on it. */
function closing(error: TeamDeletedError | ServerClosingError): Reply {
  return json({ error: error.message }, { status: error.status, headers: { connection: 'close' } })
}

/** `base`: this emulator's `{base_url}`, which names the team answering. */
export function teamsRoutes(base: string, teams: TeamHost | undefined): ControlRoute[] {
  const host = (): TeamHost => {
    if (!teams) throw new TeamsUnavailableError()
    return teams
  }
  return [
    route('teams.list', 'GET', '/teams', "The server's teams, the main one first; `current` is the one answering", () =>
      json(host().list().map((team) => ({ ...team, current: team.url === base }))),
    ),
    route('teams.create', 'POST', '/teams', 'Make a team: an isolated emulator on a port of its own {name, fixtures, seed, scenarios, port}', async (ctx) => {
      const hosting = host()
      return json(await hosting.create(await readInput(ctx)), { status: 201 })
    }),
    route('teams.delete', 'DELETE', '/teams/:name', 'Close a team: its port, its store, its keys', async (ctx) => {
      await host().delete(ctx.params.name ?? '')
      return noContent()
    }),
  ]
}
