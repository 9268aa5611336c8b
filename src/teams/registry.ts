/**
 * The running teams of a standalone server, beside its main one. It names them (`team-N` unless
 * given a DNS label), refuses a duplicate (409), a bad name, bad fixtures or a bad scenario (400,
 * before any port is opened), a saved state that cannot be loaded (400), one past the limit (429),
 * and closes them with the server. It writes the other teams' saved states into the main team's,
 * and makes those of a state loaded there again. Loaded with launch.ts when the first team is made.
 */
import { ConfigError, ConflictError, ControlError, FixtureError, InvalidInputError, NotFoundError, ScenarioError, UnknownScenarioError } from '../kernel/errors.js'
import { SavedStateError, SavedStateVersionError } from '../kernel/saved.js'
import { parseBody } from '../kernel/validation.js'
import { TeamBody, type TeamOptions } from './body.js'
import { TEAM_NAME_PREFIX } from './constants.js'
import { ServerClosingError, TeamDeletedError, TooManyTeamsError } from './errors.js'
import { type LaunchedTeam, type TeamsSetup, launchTeam } from './launch.js'
import { type ControlledTeams, type PreparedTeams, type RunningTeam, type SavedTeam, type TeamInfo, infoOf } from './team.js'

export class TeamRegistry implements ControlledTeams {
  readonly #main: RunningTeam
  readonly #limit: number
  readonly #launch: (name: string, options: TeamOptions) => Promise<LaunchedTeam>
  readonly #teams = new Map<string, LaunchedTeam>()
  /** Names being made: taken already for a duplicate and for the limit. */
  readonly #making = new Set<string>()
  readonly #closing = new Set<Promise<void>>()
  #closed = false

  /** `teams`: what each team's control plane drives (the server's teams). */
  constructor(main: RunningTeam, limit: number, setup: TeamsSetup, teams: ControlledTeams) {
    this.#main = main
    this.#limit = limit
    this.#launch = (name, options) => launchTeam(setup, teams, name, options)
  }

  list(): TeamInfo[] {
    return [infoOf(this.#main), ...[...this.#teams.values()].map(({ team }) => infoOf(team))]
  }

  get(name: string): RunningTeam | undefined {
    return name === this.#main.name ? this.#main : this.#teams.get(name)?.team
  }

  async create(options: TeamOptions = {}): Promise<RunningTeam> {
    const body = parseBody(TeamBody, options, 'team')
    if (this.#closed) throw new ConflictError('The server is closing: it makes no more teams.')
    const name = body.name ?? this.#nextName()
    if (this.get(name) !== undefined || this.#making.has(name)) throw new ConflictError(`A team named "${name}" exists already.`, 'name')
    if (this.#teams.size + this.#making.size >= this.#limit) throw new TooManyTeamsError(this.#limit)
    this.#making.add(name)
    try {
      const launched = await this.#launch(name, options).catch((error: unknown) => {
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
    if (name === this.#main.name) throw new ConflictError(`The main team "${name}" closes only with the server.`, 'name')
    const launched = this.#teams.get(name)
    if (!launched) throw new NotFoundError(`No team "${name}" (teams: ${this.list().map((t) => t.name).join(', ')}).`, 'name')
    this.#teams.delete(name)
    // The answer to this request may be going out through the team itself: do not wait for it.
    const closing = launched.close(new TeamDeletedError()).finally(() => this.#closing.delete(closing))
    this.#closing.add(closing)
  }

  /** The other teams' saved states, for the main team's document (none for any other team's). */
  async snapshotter(base: string): Promise<() => SavedTeam[]> {
    if (base !== this.#main.url) return () => []
    const takes = await Promise.all([...this.#teams.values()].map(async (launched) => ({ launched, take: await launched.stateSnapshotter() })))
    return () => takes.filter(({ launched }) => this.#teams.get(launched.team.name) === launched).map(({ launched: { team }, take }) => ({ name: team.name, seed: team.seed, state: take() }))
  }

  /**
   * Makes a saved state's teams aside, each from its own state, on a port of its own; applied,
   * each takes the place of a running team of its name (which closes). Teams it does not name run on.
   */
  async prepare(base: string, saved: readonly SavedTeam[], refused: (index: number, field: string, rule: string) => Error): Promise<PreparedTeams> {
    if (saved.length > 0 && base !== this.#main.url) throw refused(-1, '', `only the main team's control plane (${this.#main.url}) loads teams`)
    const names = new Set(saved.map((t) => t.name))
    const kept = [...this.#teams.keys()].filter((name) => !names.has(name)).length
    if (kept + saved.length > this.#limit) throw refused(-1, '', `the server runs at most ${this.#limit} teams beside the main one (--max-teams)`)
    const made: LaunchedTeam[] = []
    const discard = async (): Promise<void> => void (await Promise.all(made.map((t) => t.close(new ServerClosingError()))))
    try {
      for (const [index, team] of saved.entries()) {
        if (team.name === this.#main.name || made.some((m) => m.team.name === team.name)) throw refused(index, 'name', `"${team.name}" is the main team's, or another team's of the document`)
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
      const name = `${TEAM_NAME_PREFIX}${n}`
      if (this.get(name) === undefined && !this.#making.has(name)) return name
    }
  }
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
