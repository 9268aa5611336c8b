/**
 * The teams' refusals, one class per code: teams need a server (501), one team too many (429), a
 * port that cannot be opened (503); and the answers of a long poll whose port closes under it, its
 * team deleted (410) or the server closing (503).
 */
import { ControlError } from '../kernel/errors.js'
import { type Reply, json } from '../kernel/reply.js'

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
