/**
 * `svc-mock` serving: starts the server, prints the banner, and closes cleanly on SIGINT or SIGTERM
 * (exit 0), or, started through npm, when npm (or the shell it runs the bin with) goes away
 * (parent-watch.ts). The signal handling here serves `exec` too.
 */
import type { RunningServer } from '../adapters/server.js'
import { createLogger, type Logger } from '../kernel/logger.js'
import { banner, exposure, listeningEvent } from './banner.js'
import { type CliIo, reportError } from './io.js'
import { type CliOptions, emulatorOptions } from './options.js'
import { watchStarter } from './parent-watch.js'

/** Starts the server for `serve` and `exec`; on failure stops listening for signals. */
export async function startFor(options: CliOptions, logger: Logger, signals: Signals): Promise<RunningServer> {
  const { startServer } = await import('../adapters/server.js')
  try {
    return await startServer(emulatorOptions(options, logger))
  } catch (error) {
    signals.stop()
    throw error
  }
}

/** Serves until a signal; resolves with the exit code once the server has closed. */
export async function serve(options: CliOptions, io: CliIo): Promise<number> {
  const signals = new Signals()
  const logger = createLogger(options.log, io.out, io.err)
  // Started through npm (npx, npm exec, npm start), whose process may be killed without passing
  // the signal on: when it goes away, stop as on SIGTERM instead of serving on orphaned. Watched
  // from before anyone can see the server (parent-watch.ts).
  const starter = io.env.npm_command === undefined ? undefined : watchStarter(true)
  let server: RunningServer
  try {
    server = await startFor(options, logger, signals)
  } catch (error) {
    starter?.stop()
    throw error
  }
  if (options.log === 'pretty') io.out(banner(server, options))
  if (options.log === 'json') {
    io.out(JSON.stringify(listeningEvent(server)))
    const warning = exposure(server)
    if (warning) io.err(JSON.stringify({ level: 'warn', time: new Date().toISOString(), event: 'exposed', msg: warning }))
  }
  return await new Promise<number>((resolve) => {
    let stopping = false
    const stop = (signal: NodeJS.Signals): void => {
      if (stopping) return
      stopping = true
      starter?.stop()
      if (options.log === 'pretty') io.out(`\nsvc-mock: ${signal} received, closing.`)
      if (options.log === 'json') io.out(JSON.stringify({ level: 'info', time: new Date().toISOString(), event: 'stopping', signal }))
      server.close().then(
        () => {
          signals.stop()
          if (options.log === 'json') io.out(JSON.stringify({ level: 'info', time: new Date().toISOString(), event: 'stopped', exitCode: 0 }))
          resolve(0)
        },
        (error: unknown) => {
          signals.stop()
          reportError(io, options.log, `failed to close: ${error instanceof Error ? error.message : String(error)}`, 1, 'ERR_FAILED')
          resolve(1)
        },
      )
    }
    signals.listen(stop)
    starter?.whenGone(() => stop('SIGTERM'))
  })
}

/** SIGINT and SIGTERM (and any other `names`), caught from the start (a signal while starting still closes cleanly). */
export class Signals {
  #received: NodeJS.Signals | undefined
  #onSignal: ((signal: NodeJS.Signals) => void) | undefined
  readonly #names: readonly NodeJS.Signals[]
  readonly #handler = (signal: NodeJS.Signals): void => {
    if (this.#onSignal) this.#onSignal(signal)
    else this.#received ??= signal
  }

  constructor(names: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM']) {
    this.#names = names
    for (const name of names) process.on(name, this.#handler)
  }

  /** Calls `fn` for each signal from now on, and at once for one that arrived before. */
  listen(fn: (signal: NodeJS.Signals) => void): void {
    this.#onSignal = fn
    if (this.#received !== undefined) fn(this.#received)
  }

  stop(): void {
    for (const name of this.#names) process.off(name, this.#handler)
  }
}
