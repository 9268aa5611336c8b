/**
 * `svc-mock exec -- <command>`: runs a command against a fresh emulator, with the emulator's
 * addresses in its environment, and stops the emulator when the command ends, however it ends;
 * svc-mock exits with the command's code. The command runs in a process group (a session) of its
 * own, and when it ends, or svc-mock is told to stop, that whole group ends too (SIGTERM, then
 * SIGKILL after a grace period), so what a shell or npm started in the background ends with it:
 * after `exec` returns, nothing it started is running. SIGINT, SIGTERM and SIGHUP sent to svc-mock
 * are passed on to the group; the death of the process that started svc-mock (parent-watch.ts)
 * ends the group at once. At a terminal the command still reads keys (the terminal is its standard
 * input), and Ctrl-C reaches it through svc-mock.
 */
import type { RunningServer } from '../adapters/server.js'
import { createLogger } from '../kernel/logger.js'
import { VERSION } from '../version.js'
import { listeningEvent } from './banner.js'
import { type CliIo, reportError } from './io.js'
import type { CliOptions } from './options.js'
import { watchStarter } from './parent-watch.js'
import { endGroup, signalGroup } from './processes.js'
import { Signals, startFor } from './serve.js'
import { trustEnvironment } from './trust.js'

/** How long the command has to exit after a signal svc-mock received is passed on, before SIGKILL. */
const EXEC_KILL_GRACE_MS = 10_000
/**
 * How long what is left of the group has after SIGTERM, once the command has ended (its background
 * children) or the process that started svc-mock died, before SIGKILL; short, so that svc-mock is
 * gone within 2 s of that death.
 */
const GROUP_GRACE_MS = 1_000

/** Runs the command; resolves with its exit code once its group has ended and the emulator has closed. */
export async function execCommand(options: CliOptions, command: readonly string[], io: CliIo): Promise<number> {
  const signals = new Signals(['SIGINT', 'SIGTERM', 'SIGHUP'])
  // A wrapper (npx, a CI step) killed without passing signals on: end the command at once, then
  // svc-mock. Watched from before the command can run (parent-watch.ts).
  const starter = watchStarter(io.env.npm_command !== undefined)
  // Standard output is the command's: everything the emulator says goes to standard error.
  const logger = createLogger(options.log, io.err, io.err)
  const { spawn } = await import('node:child_process')
  const { constants } = await import('node:os')
  let server: RunningServer
  try {
    server = await startFor(options, logger, signals)
  } catch (error) {
    starter.stop()
    throw error
  }
  const trust = await trustEnvironment(server.caFile, io.env, (message) => logger.warn(message))
  const urls = server.emulator.urls
  const env: Record<string, string | undefined> = {
    ...io.env,
    SVC_MOCK_URL: server.url,
    SVC_MOCK_AUTH_URL: urls.auth,
    SVC_MOCK_BASE_URL: urls.base,
    SVC_MOCK_WEBHOOK_URL: urls.webhook,
    ...trust.env,
  }
  const [file = '', ...args] = command
  if (options.log === 'pretty') io.err(`svc-mock ${VERSION} listening on ${server.url} (SVC_MOCK_URL); running: ${command.join(' ')}`)
  if (options.log === 'json') io.err(JSON.stringify({ ...listeningEvent(server), command: [...command] }))

  return await new Promise<number>((resolve) => {
    let finished = false
    let forwarded: NodeJS.Signals | undefined
    let killTimer: NodeJS.Timeout | undefined
    // Windows has no process groups: there the command alone is signalled.
    const ownGroup = process.platform !== 'win32'
    const child = spawn(file, args, { stdio: 'inherit', env, detached: ownGroup })
    const group = ownGroup ? child.pid : undefined
    const signal = (name: NodeJS.Signals): void => {
      if (group === undefined) child.kill(name)
      else signalGroup(group, name)
    }

    const finish = (exitCode: number, reason: string): void => {
      if (finished) return
      finished = true
      starter.stop()
      clearTimeout(killTimer)
      signals.stop()
      if (options.log === 'json') io.err(JSON.stringify({ level: 'info', time: new Date().toISOString(), event: 'stopping', reason, exitCode }))
      // The command is gone; what it left running in its group goes too, then the bundle and the emulator.
      const ended = group === undefined ? Promise.resolve() : endGroup(group, GROUP_GRACE_MS)
      ended
        .then(() => trust.remove())
        .then(() => server.close())
        .then(
          () => resolve(exitCode),
          () => resolve(exitCode === 0 ? 1 : exitCode),
        )
    }
    const running = (): boolean => !finished && child.exitCode === null && child.signalCode === null
    // Passes a signal on to the group; if the command does not end within `graceMs`, SIGKILL.
    const pass = (received: NodeJS.Signals, graceMs = EXEC_KILL_GRACE_MS): void => {
      if (!running()) return
      forwarded ??= received
      signal(received)
      if (killTimer !== undefined && graceMs >= EXEC_KILL_GRACE_MS) return
      clearTimeout(killTimer)
      killTimer = setTimeout(() => signal('SIGKILL'), graceMs)
      killTimer.unref()
    }
    signals.listen((received) => pass(received))
    starter.whenGone(() => pass('SIGTERM', GROUP_GRACE_MS))

    child.once('error', (error: NodeJS.ErrnoException) => {
      const exitCode = error.code === 'ENOENT' ? 127 : error.code === 'EACCES' ? 126 : 1
      reportError(io, options.log, `cannot run ${file}: ${error.code === 'ENOENT' ? 'command not found' : error.message}`, exitCode, error.code ?? 'ERR_FAILED')
      finish(exitCode, 'spawn-failed')
    })
    child.once('exit', (code, signalName) => {
      const exitCode = code ?? (signalName ? 128 + (constants.signals[signalName] ?? 0) : 1)
      finish(exitCode, forwarded ? `signal ${forwarded}` : 'command exited')
    })
  })
}
