/**
 * The teams of a standalone server: isolated emulators beside the main one, each listening on a
 * port of its own (the server opens it: `launch`). This registry names them (`team-N` unless
 * given a DNS label), refuses a duplicate (409), a bad name, bad fixtures or a bad scenario (400,
 * before any port is opened), one past the limit (429), and closes them with the server. It is
 * the `TeamHost` the control plane drives and, through `server.teams`, the same from code.
 */
import { type PreparedTeams, type SavedTeam, ServerClosingError, TeamBody, TeamDeletedError, type TeamHost, type TeamInfo, type TeamInput, TooManyTeamsError } from '../control/index.js'
import type { Emulator, InlineFixtures, SavedState } from '../emulator-api.js'
import { ConfigError, ConflictError, ControlError, FixtureError, type HttpError, InvalidInputError, NotFoundError, ScenarioError, UnknownScenarioError } from '../kernel/errors.js'
import { SavedStateError, SavedStateVersionError } from '../kernel/saved.js'
import { parseBody } from '../kernel/validation.js'

export type { TeamInfo, TeamInput }

/** A team that runs: what the control plane lists, and its emulator (the object tests use in-process). */
export interface RunningTeam extends TeamInfo {
  readonly emulator: Emulator
}

/** `server.teams`: the server's teams from code, as the control plane's `/__svc-mock/teams` drives them. */
export interface TeamsApi {
  /** Every team, the main one first. */
  list(): TeamInfo[]
  /** A running team by name, with its emulator. */
  get(name: string): RunningTeam | undefined
  /** Makes a team (refusals as over HTTP: InvalidInputError, ConflictError, TooManyTeamsError, TeamPortError). */
  create(input?: TeamInput): Promise<RunningTeam>
  /** Closes a team: its long polls are answered 410, and its port takes no more connections once this resolves. */
  delete(name: string): Promise<void>
}

/** A team the server launched: its record, and how to close it. */
export interface LaunchedTeam {
  readonly team: RunningTeam
  /** What takes its saved state, synchronously, once loaded (the main team's document holds it). */
  stateSnapshotter(): Promise<() => SavedState>
  /**
   * Stops taking connections at once and answers its long polls with `reason`; resolves once
   * requests in flight are answered and its emulator is closed.
   */
  close(reason: HttpError): Promise<void>
}

/** What the server does to launch a team: open its port, build its emulator (throws to refuse). */
export type Launch = (name: string, input: TeamInput) => Promise<LaunchedTeam>

export class TeamRegistry implements TeamsApi {
  #main: RunningTeam | undefined
  readonly #limit: number
  readonly #launch: Launch
  readonly #teams = new Map<string, LaunchedTeam>()
  /** Names being made: taken already for a duplicate and for the limit. */
  readonly #making = new Set<string>()
  readonly #closing = new Set<Promise<void>>()
  #closed = false

  constructor(limit: number, launch: Launch) {
    this.#limit = limit
    this.#launch = launch
  }

  /** The server's own team, once its emulator is built (it is built with this registry's host). */
  setMain(team: RunningTeam): void {
    this.#main = team
  }

  get #mainTeam(): RunningTeam {
    if (!this.#main) throw new Error('The server has no main team yet.')
    return this.#main
  }

  /** What the control plane drives: the same operations, answering with the teams' records. */
  host(): TeamHost {
    return {
      list: () => this.list(),
      create: async (input) => infoOf(await this.create(input)),
      delete: (name) => this.delete(name),
      snapshotter: (base) => this.#snapshotter(base),
      prepare: (base, teams, refused) => this.#prepare(base, teams, refused),
    }
  }

  /** The other teams' saved states, for the main team's document (none for any other team's). */
  async #snapshotter(base: string): Promise<() => SavedTeam[]> {
    if (base !== this.#mainTeam.url) return () => []
    const takes = await Promise.all([...this.#teams.values()].map(async (launched) => ({ launched, take: await launched.stateSnapshotter() })))
    return () => takes.filter(({ launched }) => this.#teams.get(launched.team.name) === launched).map(({ launched: { team }, take }) => ({ name: team.name, seed: team.seed, state: take() }))
  }

  /**
   * Makes a saved state's teams aside, each from its own state, on a port of its own; applied,
   * each takes the place of a running team of its name (which closes). Teams it does not name run on.
   */
  async #prepare(base: string, saved: readonly SavedTeam[], refused: (index: number, field: string, rule: string) => Error): Promise<PreparedTeams> {
    if (saved.length > 0 && base !== this.#mainTeam.url) throw refused(-1, '', `only the main team's control plane (${this.#mainTeam.url}) loads teams`)
    const names = new Set(saved.map((t) => t.name))
    const kept = [...this.#teams.keys()].filter((name) => !names.has(name)).length
    if (kept + saved.length > this.#limit) throw refused(-1, '', `the server runs at most ${this.#limit} teams beside the main one (--max-teams)`)
    const made: LaunchedTeam[] = []
    const discard = async (): Promise<void> => void (await Promise.all(made.map((t) => t.close(new ServerClosingError()))))
    try {
      for (const [index, team] of saved.entries()) {
        if (team.name === this.#mainTeam.name || made.some((m) => m.team.name === team.name)) throw refused(index, 'name', `"${team.name}" is the main team's, or another team's of the document`)
        made.push(await this.#launch(team.name, { name: team.name, seed: team.seed, state: team.state }).catch((error: unknown) => {
          const problem = refusal(error)
          throw problem instanceof ControlError ? refused(index, problem.field ?? '', problem.message) : problem
        }))
      }
    } catch (error) {
      await discard()
      throw error
    }
    return {
      discard,
      apply: () => {
        for (const launched of made) {
          const running = this.#teams.get(launched.team.name)
          this.#teams.set(launched.team.name, launched)
          if (running) {
            const closing = running.close(new TeamDeletedError()).finally(() => this.#closing.delete(closing))
            this.#closing.add(closing)
          }
        }
      },
    }
  }

  list(): TeamInfo[] {
    return [infoOf(this.#mainTeam), ...[...this.#teams.values()].map(({ team }) => infoOf(team))]
  }

  get(name: string): RunningTeam | undefined {
    return name === this.#mainTeam.name ? this.#mainTeam : this.#teams.get(name)?.team
  }

  async create(input: TeamInput = {}): Promise<RunningTeam> {
    const body = parseBody(TeamBody, input, 'team')
    if (this.#closed) throw new ConflictError('The server is closing: it makes no more teams.')
    const name = body.name ?? this.#nextName()
    if (this.get(name) !== undefined || this.#making.has(name)) throw new ConflictError(`A team named "${name}" exists already.`, 'name')
    if (this.#teams.size + this.#making.size >= this.#limit) throw new TooManyTeamsError(this.#limit)
    this.#making.add(name)
    try {
      const launched = await this.#launch(name, input).catch((error: unknown) => {
        throw refusal(error)
      })
      if (this.#closed) {
        await launched.close(new ServerClosingError())
        throw new ConflictError('The server closed while the team was being made.')
      }
      this.#teams.set(name, launched)
      return launched.team
    } finally {
      this.#making.delete(name)
    }
  }

  async delete(name: string): Promise<void> {
    if (name === this.#mainTeam.name) throw new ConflictError(`The main team "${name}" closes only with the server.`, 'name')
    const launched = this.#teams.get(name)
    if (!launched) throw new NotFoundError(`No team "${name}" (teams: ${this.list().map((t) => t.name).join(', ')}).`, 'name')
    this.#teams.delete(name)
    // The answer to this request may be going out through the team itself: do not wait for it.
    const closing = launched.close(new TeamDeletedError()).finally(() => this.#closing.delete(closing))
    this.#closing.add(closing)
  }

  /** Closes every team (the server is closing); resolves once all have closed. */
  async closeAll(): Promise<void> {
    this.#closed = true
    const teams = [...this.#teams.values()]
    this.#teams.clear()
    await Promise.all([...teams.map((t) => t.close(new ServerClosingError())), ...this.#closing])
  }

  /** `team-N`: the lowest N no team has. */
  #nextName(): string {
    for (let n = 1; ; n++) {
      const name = `team-${n}`
      if (this.get(name) === undefined && !this.#making.has(name)) return name
    }
  }
}

/**
 * The platform's team record of an emulator team, as a fixture document: the team's name as the
 * record's id and name, its domain left to default to the host of the team's URL. It applies
 * after the run's fixtures, whose record names the main team, and before the team's own, which
 * may name another.
 */
export function platformTeamRecord(teamName: string): InlineFixtures {
  return { team: { id: teamName, name: teamName } }
}

function infoOf(team: RunningTeam): TeamInfo {
  const { name, url, port, main, seed, dashboard } = team
  return { name, url, port, main, seed, dashboard }
}

/** A bad fixture, scenario, saved state or option of the team's body is the caller's: 400 naming it. */
function refusal(error: unknown): unknown {
  if (error instanceof FixtureError) return new InvalidInputError(`Invalid team: ${error.message}`, 'fixtures')
  if (error instanceof ConfigError && error.cause instanceof SavedStateError) return new InvalidInputError(`Invalid team: ${error.cause.message}`, error.cause.member === '' ? 'state' : `state.${error.cause.member}`)
  if (error instanceof ConfigError && error.cause instanceof SavedStateVersionError) return new InvalidInputError(`Invalid team: ${error.cause.message}`, 'state.svcMockState')
  if (error instanceof ScenarioError || error instanceof UnknownScenarioError) return new InvalidInputError(`Invalid team: ${error.message}`, 'scenarios')
  if (error instanceof ConfigError) return new InvalidInputError(`Invalid team: ${error.message}`, error.option)
  return error
}
