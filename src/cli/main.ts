/**
 * The `svc-mock` command once its flags are needed: starts the standalone server, lists the
 * scenario catalogue, or runs a command against a fresh emulator (`exec`). Flags have environment
 * twins (`--port` and `SVC_MOCK_PORT`); a flag wins over its variable, and an error names
 * whichever was used.
 * Exit codes: 0 after a clean shutdown, 1 when the port is in use or the server fails, 2 for a
 * bad flag, value, fixture or scenario file (the message names which, and the closest valid
 * flag or name); `exec` exits with its command's code.
 */
import { SvcMockError } from '../kernel/errors.js'
import { VERSION } from '../version.js'
import { printCa } from './ca.js'
import { execCommand } from './exec.js'
import { type Command, help, helpText, NAMED_COMMANDS } from './help.js'
import { type CliIo, reportError } from './io.js'
import { hint, logFormatHint, type ParsedValues, parse, parseProblem } from './flags.js'
import { type CliRun, explained, readOptions, UsageError } from './options.js'
import { listScenarios } from './scenarios.js'
import { serve } from './serve.js'

// The emulator and server are imported only when needed (serve.ts, scenarios.ts).

/** Runs the command; resolves with the exit code once it is done (for the server: on shutdown). */
export async function main(argv: readonly string[], io: CliIo): Promise<number> {
  const format = logFormatHint(argv, io.env)
  const fail = (message: string, exitCode: number, code: string): number => {
    reportError(io, format, message, exitCode, code)
    return exitCode
  }
  const split = argv.indexOf('--')
  const flags = split === -1 ? argv : argv.slice(0, split)
  const rest = split === -1 ? [] : argv.slice(split + 1)
  let values: ParsedValues
  let positionals: string[]
  try {
    ;({ values, positionals } = parse(flags))
  } catch (error) {
    return fail(parseProblem(error) + forgottenSeparator(argv, split), 2, 'ERR_USAGE')
  }
  let run: CliRun | undefined
  try {
    const command = commandOf(positionals)
    if (command === 'help') return help(positionals.slice(1), io)
    if (values.help) {
      io.out(helpText(command))
      return 0
    }
    if (values.version) {
      io.out(VERSION)
      return 0
    }
    if (command !== 'exec' && positionals.length > 1) throw new UsageError(`"${command}" takes no arguments, got "${positionals.slice(1).join(' ')}"`)
    if (command === 'exec') {
      if (positionals.length > 1) throw new UsageError(`put the command after --: svc-mock exec [options] -- ${positionals.slice(1).join(' ')}`)
      if (rest.length === 0) throw new UsageError('exec needs a command after --, e.g. svc-mock exec -- npm test')
    } else if (split !== -1) {
      throw new UsageError(`"--" and a command are for svc-mock exec; did you mean svc-mock exec -- ${rest.join(' ')}?`)
    }
    if (command === 'ca') return await printCa(logFormatHint(argv, io.env), io)
    run = readOptions(values, io.env, command === 'exec' ? 0 : undefined)
    if (command === 'scenarios') return await listScenarios(run.options, io)
    if (command === 'exec') return await execCommand(run.options, rest, io)
    return await serve(run.options, io)
  } catch (caught) {
    // An option's own check (a ConfigError) names the flag or variable it came from.
    const error = run === undefined ? caught : explained(caught, run)
    if (error instanceof SvcMockError && error.code === 'ERR_PORT_IN_USE') return fail(error.message, 1, error.code)
    if (error instanceof UsageError) return fail(error.message, 2, 'ERR_USAGE')
    if (error instanceof SvcMockError) return fail(error.message, 2, error.code)
    return fail(`failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`, 1, 'ERR_FAILED')
  }
}

function commandOf(positionals: readonly string[]): Command {
  const word = positionals[0]
  if (word === undefined) return 'serve'
  if ((NAMED_COMMANDS as readonly string[]).includes(word)) return word as Command
  const commands = [...NAMED_COMMANDS, 'verify']
  throw new UsageError(`unknown command "${word}"${hint(word, commands)} (commands: ${commands.join(', ')}; svc-mock help lists them)`)
}

/** `svc-mock exec node -e …`: the command's own flags read as svc-mock's; the hint to add `--`. */
function forgottenSeparator(argv: readonly string[], split: number): string {
  const exec = argv.indexOf('exec')
  if (exec === -1 || split !== -1) return ''
  return `\nWith exec, put -- before the command: svc-mock exec [options] -- ${argv.slice(exec + 1).join(' ')}`
}
