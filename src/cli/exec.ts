/**
 * `svc-mock exec -- <command>`: runs a command against a fresh emulator, with the emulator's
 * addresses in its environment, and stops the emulator when the command ends, however it ends.
 * Signals sent to svc-mock, or its parent going away, are passed on to the command; svc-mock exits
 * with the command's code. Without a terminal (CI), the command runs in its own process group and
 * signals go to the whole group, so a shell's or npm's children end too (`sh -c 'sleep 31'` left
 * `sleep` running); at a terminal it stays in the terminal's foreground group, which it needs to
 * read keys (vitest's watch mode) and which Ctrl-C reaches as a whole.
 */
import { createLogger } from '../kernel/logger.js'
import { VERSION } from '../version.js'
import { listeningEvent } from './banner.js'
import { type CliIo, reportError } from './io.js'
import type { CliOptions } from './options.js'
import { Signals, startFor, watchParent } from './serve.js'
import { trustEnvironment } from './trust.js'

/** How long `exec` gives its command to exit after passing a signal on, before SIGKILL. */
const EXEC_KILL_GRACE_MS = 10_000

/** Runs the command; resolves with its exit code once the emulator has closed. */
export async function execCommand(options: CliOptions, command: readonly string[], io: CliIo): Promise<number> {
  const signals = new Signals()
  // Standard output is the command's: everything the emulator says goes to standard error.
  const logger = createLogger(options.log, io.err, io.err)
  const { spawn } = await import('node:child_process')
  const { constants } = await import('node:os')
  const server = await startFor(options, logger, signals)
  const urls = server.emulator.urls
  const env: Record<string, string | undefined> = {
    ...io.env,
    SVC_MOCK_URL: server.url,
    SVC_MOCK_AUTH_URL: urls.auth,
    SVC_MOCK_BASE_URL: urls.base,
    SVC_MOCK_WEBHOOK_URL: urls.webhook,
    ...(await trustEnvironment(server.caFile, io.env)),
  }
  const [file = '', ...args] = command
  if (options.log === 'pretty') io.err(`svc-mock ${VERSION} listening on ${server.url} (SVC_MOCK_URL); running: ${command.join(' ')}`)
  if (options.log === 'json') io.err(JSON.stringify({ ...listeningEvent(server), command: [...command] }))

  return await new Promise<number>((resolve) => {
    let finished = false
    let forwarded: NodeJS.Signals | undefined
    let killTimer: NodeJS.Timeout | undefined
    const ownGroup = process.platform !== 'win32' && !process.stdin.isTTY
    const child = spawn(file, args, { stdio: 'inherit', env, detached: ownGroup })
    const signal = (name: NodeJS.Signals): void => {
      if (!ownGroup || child.pid === undefined) return void child.kill(name)
      try {
        process.kill(-child.pid, name)
      } catch {
        // The group is gone already.
      }
    }

    const finish = (exitCode: number, reason: string): void => {
      if (finished) return
      finished = true
      unwatch()
      clearTimeout(killTimer)
      signals.stop()
      if (options.log === 'json') io.err(JSON.stringify({ level: 'info', time: new Date().toISOString(), event: 'stopping', reason, exitCode }))
      server.close().then(
        () => resolve(exitCode),
        () => resolve(exitCode === 0 ? 1 : exitCode),
      )
    }
    // Passes a signal on to the command; if it does not end, SIGKILL after a grace period.
    const pass = (received: NodeJS.Signals): void => {
      if (finished || child.exitCode !== null || child.signalCode !== null) return
      forwarded ??= received
      signal(received)
      killTimer ??= setTimeout(() => signal('SIGKILL'), EXEC_KILL_GRACE_MS)
      killTimer.unref()
    }
    signals.listen(pass)
    // A wrapper (npx) killed without passing signals on leaves svc-mock with a new parent: end the command too.
    const unwatch = watchParent(() => pass('SIGTERM'))

    child.once('error', (error: NodeJS.ErrnoException) => {
      const exitCode = error.code === 'ENOENT' ? 127 : error.code === 'EACCES' ? 126 : 1
      reportError(io, options.log, `cannot run ${file}: ${error.code === 'ENOENT' ? 'command not found' : error.message}`, exitCode, error.code ?? 'ERR_FAILED')
      finish(exitCode, 'spawn-failed')
    })
    child.once('exit', (code, signal) => {
      const exitCode = code ?? (signal ? 128 + (constants.signals[signal] ?? 0) : 1)
      finish(exitCode, forwarded ? `signal ${forwarded}` : 'command exited')
    })
  })
}
