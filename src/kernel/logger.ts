/**
 * Logging: `pretty` (one line a request, for people), `json` (one object a line, for machines:
 * `{level, time, event, …}`, requests on standard output, warnings and errors on standard error)
 * or `silent` (the in-process default). Secrets never reach a log line: a request's line is read
 * from its journal record, its path redacted as the journal's entries are, and shows no header or body.
 */
import { oneOf } from './checks.js'

export const LOG_FORMATS = ['pretty', 'json', 'silent'] as const
export type LogFormat = (typeof LOG_FORMATS)[number]

/** What a request's log line shows (a journal entry has these fields too). */
export interface RequestLine {
  /** Emulator time the request arrived, ISO 8601. */
  readonly time: string
  /** Route id, or `unmatched`. */
  readonly route: string
  readonly method: string
  /** Path and query string, secrets redacted. */
  readonly path: string
  /** Status answered; 0 when the scenario made it a network error. */
  readonly status: number
  readonly identity: string | null
  readonly scenarios: readonly string[]
  /** Emulator milliseconds from arrival to answer. */
  readonly durationMs: number
  /**
   * What else the line is about, set by whoever serves the request (`{team: 'team-1'}` where a
   * server runs several teams): fields of the json line after its own (never one of their names),
   * `[value]` in the pretty one.
   */
  readonly labels?: Readonly<Record<string, string>>
}

export interface Logger {
  readonly format: LogFormat
  request(line: RequestLine): void
  info(message: string): void
  warn(message: string): void
  error(message: string, error?: unknown): void
}

export type LogSink = (line: string) => void

/** A logger of that format; an unknown format is a ConfigError naming the option `log`. */
export function createLogger(format: LogFormat, out: LogSink = stdoutSink, err: LogSink = stderrSink): Logger {
  oneOf('log', format, LOG_FORMATS)
  if (format === 'silent') {
    return { format, request() {}, info() {}, warn() {}, error() {} }
  }
  if (format === 'json') {
    const emit = (sink: LogSink, level: string, fields: Record<string, unknown>): void =>
      sink(JSON.stringify({ level, time: new Date().toISOString(), ...fields }))
    return {
      format,
      request: (line) =>
        emit(out, 'info', {
          event: 'request',
          msg: 'request',
          route: line.route,
          method: line.method,
          path: line.path,
          status: line.status,
          identity: line.identity,
          scenarios: line.scenarios,
          durationMs: line.durationMs,
          emulatorTime: line.time,
          ...line.labels,
        }),
      info: (message) => emit(out, 'info', { event: 'log', msg: message }),
      warn: (message) => emit(err, 'warn', { event: 'log', msg: message }),
      error: (message, error) => emit(err, 'error', { event: 'log', msg: message, error: describe(error) }),
    }
  }
  return {
    format,
    request(line) {
      const status = line.status === 0 ? 'network error' : String(line.status)
      const who = line.identity ? `  ${line.identity}` : ''
      const shaped = line.scenarios.length > 0 ? `  [scenario: ${line.scenarios.join(', ')}]` : ''
      const labels = line.labels === undefined ? '' : `[${Object.values(line.labels).join(' ')}] `
      out(`${line.time.slice(11, 23)}  ${labels}${line.method.padEnd(6)} ${line.path} -> ${status}  ${line.route}${who}${shaped}`)
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
