/**
 * The flags, else their environment twins (`--port`, else `SVC_MOCK_PORT`), read into the
 * server's options through the one table of flags (flags.ts), remembering where each value came
 * from; and the errors those options meet, in the command's words. An option's rules are checked
 * where it is used, by the library (a ConfigError naming the option); here such an error, or text
 * a flag cannot read, names the flag or variable the user gave instead (exit 2).
 */
import type { ServerOptions } from '../adapters/server.js'
import { ConfigError, ScenarioError, UnknownScenarioError } from '../kernel/errors.js'
import { booleanText, type Flag, type FlagValue, FlagTextError } from '../kernel/flags.js'
import type { LogFormat, Logger } from '../kernel/logger.js'
import { FLAGS, flagOf, type ParsedValues } from './flags.js'
import type { CliIo } from './io.js'

/** A bad flag, variable or value: exit 2. */
export class UsageError extends Error {}

/** Where an option's value came from: the flag or its variable, and the text given. */
interface Given {
  readonly flag: Flag
  /** `--port` or `SVC_MOCK_PORT`. */
  readonly from: string
  readonly text: string
}

/** The server's options, the log format among them (the command prints its log: pretty by default). */
export interface CliOptions extends ServerOptions {
  log: LogFormat
}

/** What the flags and variables asked for. */
export interface CliRun {
  readonly options: CliOptions
  /** Where each option came from, by the option's name (`proxy`, `https.cert`). */
  readonly given: ReadonlyMap<string, Given>
}

/** The flags, else their variables, as the server's options; `defaultPort` is exec's 0. */
export function readOptions(values: ParsedValues, env: CliIo['env'], defaultPort: number | undefined): CliRun {
  const options: Record<string, unknown> = {}
  const given = new Map<string, Given>()
  for (const flag of FLAGS) {
    const read = readFlag(flag, values[flag.name], env)
    if (read === undefined) continue
    given.set(flag.option, read.given)
    setOption(options, flag.option, read.value)
  }
  if (options.port === undefined && defaultPort !== undefined) options.port = defaultPort
  options.log ??= 'pretty'
  return { options: options as unknown as CliOptions, given }
}

/** One flag's value, else its variable's (an empty variable is no value). */
function readFlag(flag: Flag, raw: ParsedValues[string], env: CliIo['env']): { value: FlagValue | FlagValue[]; given: Given } | undefined {
  const variable = env[flag.env]
  if (flag.kind === 'switch') {
    if (raw === true) return { value: flag.sets ?? true, given: { flag, from: `--${flag.name}`, text: '' } }
    if (variable === undefined || variable === '') return undefined
    const given = { flag, from: flag.env, text: variable }
    return { value: parsed(given, booleanText), given }
  }
  const texts = typeof raw === 'string' ? [raw] : Array.isArray(raw) ? raw : undefined
  if (texts !== undefined) {
    const given = { flag, from: `--${flag.name}`, text: texts.join(' ') }
    const value = texts.map((text) => parsed({ ...given, text }, flag.parse))
    return { value: flag.kind === 'list' ? value : (value[0] ?? ''), given }
  }
  if (variable === undefined || variable === '') return undefined
  const given = { flag, from: flag.env, text: variable }
  if (flag.kind !== 'list') return { value: parsed(given, flag.parse), given }
  const items = flag.split === undefined ? [variable] : variable.split(flag.split).filter((item) => item !== '')
  return { value: items.map((text) => parsed({ ...given, text }, flag.parse)), given }
}

function parsed(given: Given, parse: Flag['parse']): FlagValue {
  try {
    return parse === undefined ? given.text : parse(given.text)
  } catch (error) {
    if (error instanceof FlagTextError) throw new UsageError(`${subject(given)} ${error.problem}`)
    throw error
  }
}

/** Sets `clock.mode` or `port`; a member set (`https.cert`) wins over the whole (`https`). */
function setOption(options: Record<string, unknown>, path: string, value: unknown): void {
  const [head = '', ...rest] = path.split('.')
  const current = options[head]
  const isObject = typeof current === 'object' && current !== null && !Array.isArray(current)
  if (rest.length === 0) {
    if (!isObject) options[head] = value
    return
  }
  const inner: Record<string, unknown> = isObject ? (current as Record<string, unknown>) : {}
  options[head] = inner
  setOption(inner, rest.join('.'), value)
}

/** The emulator's options without the command's own: its logger in place of the format. */
export function emulatorOptions(options: CliOptions, logger: Logger): ServerOptions {
  return { ...options, log: logger }
}

/** `--port` or `SVC_MOCK_PORT`; with the path, for a value read from a file (`--tls-cert cert.pem`). */
function subject(given: Given): string {
  if (!given.flag.echo) return given.from
  return given.from.startsWith('--') ? `${given.from} ${given.text}` : `${given.from}=${given.text}`
}

/**
 * An error of the options in the command's words: a ConfigError, or a scenario switched on at
 * start, names the flag or variable it came from, and the others it mentions as the user would
 * give them. Anything else is left as it is.
 */
export function explained(error: unknown, run: CliRun): unknown {
  if (error instanceof ConfigError) {
    const given = run.given.get(error.option)
    if (given === undefined) return error
    const named = (option: string, value: string | undefined): string => {
      const flag = flagOf(option)
      if (flag === undefined) return option
      if (value !== undefined) return `--${flag.name} ${value}`
      const other = run.given.get(option)
      return other === undefined ? `--${flag.name}${flag.placeholder === undefined ? '' : ` ${flag.placeholder}`} (or ${flag.env})` : subject(other)
    }
    return new UsageError(`${subject(given)} ${error.explain(named, JSON.stringify(given.text))}`)
  }
  const scenarios = run.given.get('scenarios')
  if (scenarios === undefined || !(error instanceof ScenarioError || error instanceof UnknownScenarioError)) return error
  const texts = (run.options.scenarios ?? []).filter((item): item is string => typeof item === 'string')
  const names = new Set(texts.flatMap((text) => text.split(',').map((item) => item.trim().split(':')[0] ?? '')))
  const fromText = error instanceof ScenarioError ? texts.includes(error.file) || names.has(error.file) : names.has(error.scenario)
  return fromText ? new UsageError(`${scenarios.from}: ${error.message}`) : error
}
