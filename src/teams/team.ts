/**
 * What an emulator team is: an isolated emulator of a standalone server, on a port of its own, as
 * the control plane lists it (`TeamInfo`), with its emulator (`RunningTeam`), the server's teams as
 * code drives them (`TeamsApi`, `server.teams`), and as the control plane drives them, their part
 * of the main team's saved state included (`ControlledTeams`, `SavedTeam`).
 */
import type { Emulator, SavedState } from '../emulator-api.js'
import type { TeamOptions } from './body.js'
import { MAIN_TEAM } from './constants.js'

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
  create(options?: TeamOptions): Promise<RunningTeam>
  /** Closes a team: its long polls are answered 410, and its port takes no more connections once this resolves. */
  delete(name: string): Promise<void>
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

/** The server's teams as the control plane drives them: as code does, and their part of the main team's saved state. */
export interface ControlledTeams extends TeamsApi {
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

/** A team served at `url` (`http://host:port`); `main`: the server's own. */
export function runningTeam(name: string, url: string, port: number, emulator: Emulator, main = false): RunningTeam {
  return { name, url, port, main, seed: emulator.seed, dashboard: `${url}/__svc-mock/`, emulator }
}

/** The server's own team, served at its emulator's `{base_url}`. */
export function mainTeam(emulator: Emulator, port: number): RunningTeam {
  return runningTeam(MAIN_TEAM, emulator.urls.base, port, emulator, true)
}

/** What the control plane and the banner show of a team: everything but its emulator. */
export function infoOf(team: TeamInfo): TeamInfo {
  const { name, url, port, main, seed, dashboard } = team
  return { name, url, port, main, seed, dashboard }
}
