/**
 * A standalone server's teams, as `server.teams` and the control plane drive them. Most runs make
 * none: until the first team is made (or `teams` asks for some at start, or a saved state loaded
 * into the main team holds some) the main team is listed alone, its saved state holds no other,
 * and the code that makes and tracks teams (registry.ts, launch.ts, the body's schema) is
 * import()ed on that first use.
 */
import type { Emulator } from '../emulator-api.js'
import type { TeamOptions } from './body.js'
import type { TeamsSetup } from './launch.js'
import type { TeamCounts } from './options.js'
import type { TeamRegistry } from './registry.js'
import { type ControlledTeams, type PreparedTeams, type RunningTeam, type SavedTeam, type TeamInfo, infoOf, mainTeam } from './team.js'

export class ServerTeams implements ControlledTeams {
  readonly #counts: TeamCounts
  readonly #setup: TeamsSetup
  #main: RunningTeam | undefined
  #registry: TeamRegistry | undefined
  #loading: Promise<TeamRegistry> | undefined
  #closed = false

  constructor(counts: TeamCounts, setup: TeamsSetup) {
    this.#counts = counts
    this.#setup = setup
  }

  /** The server's own team, once its emulator (built with these teams) is. */
  setMain(emulator: Emulator, port: number): void {
    this.#main = mainTeam(emulator, port)
  }

  list(): TeamInfo[] {
    return this.#registry?.list() ?? [infoOf(this.#mainTeam)]
  }

  get(name: string): RunningTeam | undefined {
    if (this.#registry) return this.#registry.get(name)
    return name === this.#mainTeam.name ? this.#mainTeam : undefined
  }

  async create(options?: TeamOptions): Promise<RunningTeam> {
    return await (await this.#loaded()).create(options)
  }

  async delete(name: string): Promise<void> {
    await (await this.#loaded()).delete(name)
  }

  async snapshotter(base: string): Promise<() => SavedTeam[]> {
    // The code that makes teams is not loaded yet: no team runs beside the main one.
    return this.#registry ? await this.#registry.snapshotter(base) : () => []
  }

  async prepare(base: string, teams: readonly SavedTeam[], refused: (index: number, field: string, rule: string) => Error): Promise<PreparedTeams> {
    return await (await this.#loaded()).prepare(base, teams, refused)
  }

  /** Makes the teams asked for at start, `team-1` … `team-N`. */
  async start(): Promise<void> {
    for (let i = 0; i < this.#counts.atStart; i++) await this.create()
  }

  /** Closes every team (the server is closing); resolves once all have closed. */
  async closeAll(): Promise<void> {
    this.#closed = true
    if (this.#loading) await (await this.#loading).closeAll()
  }

  get #mainTeam(): RunningTeam {
    if (!this.#main) throw new Error('The server has no main team yet.')
    return this.#main
  }

  #loaded(): Promise<TeamRegistry> {
    this.#loading ??= import('./registry.js').then(async ({ TeamRegistry }) => {
      const registry = new TeamRegistry(this.#mainTeam, this.#counts.limit, this.#setup, this)
      if (this.#closed) await registry.closeAll()
      this.#registry = registry
      return registry
    })
    return this.#loading
  }
}
