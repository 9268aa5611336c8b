/**
 * Where the command reads and writes (CliIo: standard output, standard error, the environment; the
 * process's own in processIo), and an error as the user sees it: plain text, or JSON with --log json.
 */
import type { LogFormat } from '../kernel/logger.js'

/** The command's outputs and environment. */
export interface CliIo {
  out: (text: string) => void
  err: (text: string) => void
  env: Readonly<Record<string, string | undefined>>
}

/** The process's own standard output, standard error and environment. */
export const processIo: CliIo = {
  out: (text) => process.stdout.write(`${text}\n`),
  err: (text) => process.stderr.write(`${text}\n`),
  env: process.env,
}

/** An error on standard error: plain text, or one JSON object with `--log json`. */
export function reportError(io: CliIo, format: LogFormat, message: string, exitCode: number, code: string): void {
  if (format === 'json') io.err(JSON.stringify({ level: 'error', time: new Date().toISOString(), event: 'error', code, message, exitCode }))
  else io.err(`svc-mock: ${message}${code === 'ERR_USAGE' && !/svc-mock (--)?help/.test(message) ? '\nRun svc-mock --help for the options.' : ''}`)
}
