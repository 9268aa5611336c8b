/**
 * Logging: `pretty` (one line a request, for people), `json` (one object a line, for machines:
 * `{level, time, event, …}`, requests on standard output, warnings and errors on standard error)
 * or `silent` (the in-process default). Secrets never reach a log line: requests are logged from
 * their journal entries, which are already redacted.
 */
import type { JournalEntry } from './journal.js'

export type LogFormat = 'pretty' | 'json' | 'silent'

export interface Logger {
  readonly format: LogFormat
  request(entry: JournalEntry): void
  info(message: string): void
  warn(message: string): void
  error(message: string, error?: unknown): void
}

export type LogSink = (line: string) => void

export function createLogger(format: LogFormat, out: LogSink = stdoutSink, err: LogSink = stderrSink): Logger {
  if (format === 'silent') {
    return { format, request() {}, info() {}, warn() {}, error() {} }
  }
  if (format === 'json') {
    const emit = (sink: LogSink, level: string, fields: Record<string, unknown>): void =>
      sink(JSON.stringify({ level, time: new Date().toISOString(), ...fields }))
    return {
      format,
      request: (entry) =>
        emit(out, 'info', {
          event: 'request',
          msg: 'request',
          route: entry.route,
          method: entry.method,
          path: entry.path,
          status: entry.status,
          identity: entry.identity,
          scenarios: entry.scenarios,
          durationMs: entry.durationMs,
          emulatorTime: entry.time,
        }),
      info: (message) => emit(out, 'info', { event: 'log', msg: message }),
      warn: (message) => emit(err, 'warn', { event: 'log', msg: message }),
      error: (message, error) => emit(err, 'error', { event: 'log', msg: message, error: describe(error) }),
    }
  }
  return {
    format,
    request(entry) {
      const status = entry.status === 0 ? 'network error' : String(entry.status)
      const who = entry.identity ? `  ${entry.identity}` : ''
      const shaped = entry.scenarios.length > 0 ? `  [scenario: ${entry.scenarios.join(', ')}]` : ''
      out(`${entry.time.slice(11, 23)}  ${entry.method.padEnd(6)} ${entry.path} -> ${status}  ${entry.route}${who}${shaped}`)
    },
    info: (message) => out(message),
    warn: (message) => err(`warning: ${message}`),
    error: (message, error) => err(`error: ${message}${error === undefined ? '' : `\n${describe(error)}`}`),
  }
}

function describe(error: unknown): string {
  if (error instanceof Error) return error.stack ?? `${error.name}: ${error.message}`
  return String(error)
}

function stdoutSink(line: string): void {
  process.stdout.write(`${line}\n`)
}

function stderrSink(line: string): void {
  process.stderr.write(`${line}\n`)
}
