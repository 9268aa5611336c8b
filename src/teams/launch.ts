/**
 * Making one team and closing it: the run's emulator at an origin of its own, on a port the server
 * opens, with its platform team record, its own fixtures, seed and scenarios after the run's, its
 * own saved state (never the run's), and its log lines labelled with its name. The server hands in how it opens a port and builds an
 * emulator (`TeamsSetup`), so a team is served exactly as the main one is.
 */
import type { Emulator, EmulatorCore, EmulatorOptions, SavedState } from '../emulator-api.js'
import { type HttpError, SvcMockError } from '../kernel/errors.js'
import type { Logger } from '../kernel/logger.js'
import { type RunInputs, withFixtures } from '../run-inputs.js'
import type { TeamOptions } from './body.js'
import { ServerClosingError, TeamPortError } from './errors.js'
import { platformTeamFixture } from './platform-team.js'
import { type ControlledTeams, type RunningTeam, runningTeam } from './team.js'

/** A port the server opened for a team: it serves an emulator from `serve()` on, until `close()`. */
export interface TeamPort {
  /** `http://host:port` (or `https://`) as clients on this machine reach it. */
  readonly url: string
  readonly port: number
  serve(emulator: EmulatorCore): void
  /** Stops taking connections, answers long polls with `reason`; resolves once requests in flight are answered and the emulator is closed. */
  close(reason: HttpError): Promise<void>
}

/** What every team of a server is made from, and how the server opens a port and builds an emulator. */
export interface TeamsSetup {
  /** The server's options: every team's emulator is made with them, at an origin of its own. */
  readonly options: EmulatorOptions
  /** The run's fixtures and scenario catalogue, read and checked once. */
  readonly run: RunInputs
  /** The server's one log. */
  readonly logger: Logger
  /** The address the server binds, for messages. */
  readonly host: string
  /** Opens a port on the server's host, served as the server's own (plain or TLS). */
  openPort(port: number): Promise<TeamPort>
  /** Builds an emulator, with its transports, whose control plane drives `teams`. */
  build(options: EmulatorOptions, host: { readonly run: RunInputs; readonly teams: ControlledTeams }): Promise<EmulatorCore & Emulator>
}

/** A team made: its record, and how to close it. */
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

/** Makes the team `name` (checked already) of `teams`; a bad fixture or scenario throws before its port opens. */
export async function launchTeam(setup: TeamsSetup, teams: ControlledTeams, name: string, options: TeamOptions): Promise<LaunchedTeam> {
  const named = withFixtures(setup.run, [platformTeamFixture(name)], `the platform team of "${name}"`)
  const run = withFixtures(named, options.fixtures === undefined ? [] : [options.fixtures].flat(), 'fixtures')
  const port = options.port ?? 0
  const opened = await setup.openPort(port).catch((error: unknown) => {
    throw new TeamPortError(`The team's port ${port} on ${setup.host} could not be opened: ${reasonOf(error)}.`, 'port')
  })
  const seed = options.seed ?? setup.options.seed
  try {
    // A team starts from its own saved state, never from the run's.
    const { state: _runState, ...runOptions } = setup.options
    const emulatorOptions: EmulatorOptions = {
      ...runOptions,
      ...(options.state === undefined ? {} : { state: options.state }),
      origin: opened.url,
      name,
      ...(seed === undefined ? {} : { seed }),
      scenarios: [...(setup.options.scenarios ?? []), ...(options.scenarios ?? [])],
      log: labelled(setup.logger, name),
    }
    const emulator = await setup.build(emulatorOptions, { run, teams })
    opened.serve(emulator)
    return {
      team: runningTeam(name, opened.url, opened.port, emulator),
      close: (reason) => opened.close(reason),
      stateSnapshotter: async () => (await emulator.stateSnapshotter()) as () => SavedState,
    }
  } catch (error) {
    await opened.close(new ServerClosingError())
    throw error
  }
}

/** The server's logger, its request lines labelled with the team that answered. */
function labelled(logger: Logger, team: string): Logger {
  return { ...logger, format: logger.format, request: (line) => logger.request({ ...line, labels: { ...line.labels, team } }) }
}

function reasonOf(error: unknown): string {
  if (error instanceof SvcMockError && error.code === 'ERR_PORT_IN_USE') return 'another process listens there (EADDRINUSE)'
  const code = (error as NodeJS.ErrnoException).code
  const message = error instanceof Error ? error.message : String(error)
  return code === undefined ? message : `${message} (${code})`
}
