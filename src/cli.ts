/**
 * The `svc-mock` command: starts the standalone server, lists the scenario catalogue, or runs a
 * command against a fresh emulator (`exec`). Flags have environment twins (`--port` and
 * `SVC_MOCK_PORT`); a flag wins over its variable, and an error names whichever was used.
 * Exit codes: 0 after a clean shutdown, 1 when the port is in use or the server fails, 2 for a
 * bad flag, value, fixture or scenario file (the message names which, and the closest valid
 * flag or name); `exec` exits with its command's code.
 */
import { parseArgs } from 'node:util'
import { DEFAULT_HOST, DEFAULT_PORT } from './adapters/constants.js'
import type { RunningServer, ServerOptions } from './adapters/server.js'
import { closest } from './kernel/closest.js'
import { ScenarioError, SvcMockError, UnknownScenarioError } from './kernel/errors.js'
import { createLogger, type LogFormat, type Logger } from './kernel/logger.js'
import { packagePath } from './kernel/package-root.js'
import { HOMEPAGE, VERSION } from './version.js'

// The emulator and server are imported only when needed, so --help and --version answer at once.

/** Where the documentation is, named in every help text. */
function docsLine(): string {
  return `Docs: ${packagePath('README.md')} and ${packagePath('docs')}/ (scenarios.md, assumptions.md, openapi.json), also at ${HOMEPAGE}`
}

const OPTIONS_TEXT = `Options (environment variable in brackets; a flag wins over its variable):
  --port N              port to listen on, 0 for any free one       [SVC_MOCK_PORT]    default ${DEFAULT_PORT} (exec: 0)
  --host ADDR           address to bind                             [SVC_MOCK_HOST]    default ${DEFAULT_HOST}
  --public-url URL      address clients use, if not http://host:port [SVC_MOCK_PUBLIC_URL]
  --fixtures PATH       fixture file or folder, on top of the defaults; repeatable
                                                                    [SVC_MOCK_FIXTURES, paths separated by ":"]
  --no-default-fixtures start from your fixtures only               [SVC_MOCK_DEFAULT_FIXTURES=false]
  --scenario SPEC       switch a scenario on for the run; repeatable. SPEC is
                        name[:key=value,...], e.g. latency:ms=2000 or latency:ms=500,times=3
                                                                    [SVC_MOCK_SCENARIOS, comma-separated]
  --scenarios DIR       add your own scenario files (*.json); repeatable [SVC_MOCK_SCENARIO_DIRS, ":"]
  --seed N              seed for generated data and ids             [SVC_MOCK_SEED]    default 1
  --clock MODE          real or manual (moves only via the control plane) [SVC_MOCK_CLOCK] default real
  --time-scale X        real seconds per emulated second: 0.01 turns 40 s into 400 ms
                                                                    [SVC_MOCK_TIME_SCALE] default 1
  --log FORMAT          pretty, json (one JSON object a line, the banner too) or silent
                                                                    [SVC_MOCK_LOG]     default pretty
  --version-list-key K  elements, values or both: the name of the version list
                                                                    [SVC_MOCK_VERSION_LIST_KEY] default elements
  --versions-scope S    OAuth scope the versions operation needs     [SVC_MOCK_VERSIONS_SCOPE] default none
  --static-keys MODE    allowed or rejected (401, as once discontinued) [SVC_MOCK_STATIC_KEYS] default allowed
  --token-lifetime S    expires_in of access tokens, in seconds     [SVC_MOCK_TOKEN_LIFETIME] default 899
  --token-algorithm A   RS256, ES256, ES384 or EdDSA                [SVC_MOCK_TOKEN_ALGORITHM] default RS256
  --consent MODE        auto (consent at once) or page (HTML consent page) [SVC_MOCK_CONSENT] default auto
  -h, --help            this text
  -v, --version         the version`

const HELP = `svc-mock ${VERSION}: a local emulator of the platform's OAuth, REST and inbound-webhook APIs.

Usage:
  svc-mock [options]                     start the emulator (default http://127.0.0.1:${DEFAULT_PORT})
  svc-mock exec [options] -- <command…>  start it on a free port, run the command with SVC_MOCK_URL
                                         in its environment, stop it when the command ends
  svc-mock scenarios [options]           list the failure scenarios with what they do
  svc-mock help [command]                this text, or a command's
  svc-mock --help | --version

${OPTIONS_TEXT}

Exit codes: 0 after a clean stop (SIGINT, SIGTERM), 1 when the port is in use or the server fails,
2 for a bad flag, variable, fixture or scenario file; exec: the command's own code.
Dashboard (in a browser) and control plane: http://HOST:PORT/__svc-mock/ once running.
{docs}`

const EXEC_HELP = `svc-mock exec [options] -- <command> [args…]

Starts the emulator (on a free port unless --port or SVC_MOCK_PORT says otherwise), runs the
command with these variables added to its environment, and stops the emulator when the command
ends, however it ends. Exits with the command's code (128 + the signal's number when a signal
ended it; 127 when the command is not found). SIGINT and SIGTERM sent to svc-mock are passed on
to the command; if svc-mock's own parent goes away (a wrapper killed without passing signals on),
the command gets SIGTERM too. Nothing is left running either way.

  SVC_MOCK_URL          the emulator's address, e.g. http://127.0.0.1:41234
  SVC_MOCK_AUTH_URL     {auth_url}: token, authorize, discovery
  SVC_MOCK_BASE_URL     {base_url}: the REST API and the control plane (/__svc-mock/)
  SVC_MOCK_WEBHOOK_URL  where webhook addresses live (/hooks/{token})

The emulator writes its log to standard error (standard output is the command's).
Takes every option of svc-mock (svc-mock help). Example:
  svc-mock exec --scenario latency:ms=200 -- npm test
{docs}`

const SCENARIOS_HELP = `svc-mock scenarios [options]

Lists the failure scenarios: each name with its parameters and defaults, and what it does
(--log json: one JSON object a scenario). --scenarios DIR adds your own files to the list.
Switch one on with --scenario NAME[:key=value,...], the x-svc-mock-scenario header, or
POST /__svc-mock/scenarios/NAME.
{docs}`

const HELP_HELP = `svc-mock help [command]

Prints the usage of svc-mock, or of one command: exec, scenarios, help.
{docs}`

const COMMAND_HELP: Readonly<Record<Command, string>> = { serve: HELP, exec: EXEC_HELP, scenarios: SCENARIOS_HELP, help: HELP_HELP }

type Command = 'serve' | 'exec' | 'scenarios' | 'help'
const NAMED_COMMANDS = ['exec', 'scenarios', 'help'] as const

const OPTIONS = {
  port: { type: 'string' },
  host: { type: 'string' },
  'public-url': { type: 'string' },
  fixtures: { type: 'string', multiple: true },
  'no-default-fixtures': { type: 'boolean' },
  scenario: { type: 'string', multiple: true },
  scenarios: { type: 'string', multiple: true },
  seed: { type: 'string' },
  clock: { type: 'string' },
  'time-scale': { type: 'string' },
  log: { type: 'string' },
  'version-list-key': { type: 'string' },
  'versions-scope': { type: 'string' },
  'static-keys': { type: 'string' },
  'token-lifetime': { type: 'string' },
  'token-algorithm': { type: 'string' },
  consent: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
} as const

const FLAGS: readonly string[] = Object.keys(OPTIONS).map((name) => `--${name}`)

/** A bad flag, variable or value: exit 2. */
class UsageError extends Error {}

export interface CliIo {
  out: (text: string) => void
  err: (text: string) => void
  env: Readonly<Record<string, string | undefined>>
  /** Called once the server listens (`serve`, `exec`): start-up is over (the bin then keeps its code cache). */
  listening?: () => void
}

/** The process's own standard output, standard error and environment. */
export const processIo: CliIo = {
  out: (text) => process.stdout.write(`${text}\n`),
  err: (text) => process.stderr.write(`${text}\n`),
  env: process.env,
}

/** Runs the command; resolves with the exit code once it is done (for the server: on shutdown). */
export async function main(argv: readonly string[], io: CliIo = processIo): Promise<number> {
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
    return fail(parseProblem(error), 2, 'ERR_USAGE')
  }
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
    const options = serverOptions(values, io.env, command === 'exec' ? 0 : undefined)
    if (command === 'scenarios') return await listScenarios(options, io)
    if (command === 'exec') return await execCommand(options, rest, io)
    return await serve(options, io)
  } catch (error) {
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
  throw new UsageError(`unknown command "${word}"${hint(word, NAMED_COMMANDS)} (commands: ${NAMED_COMMANDS.join(', ')}; svc-mock help lists them)`)
}

function help(topics: readonly string[], io: CliIo): number {
  if (topics.length > 1) throw new UsageError(`help takes one command, got "${topics.join(' ')}"`)
  const topic = topics[0]
  if (topic === undefined) {
    io.out(helpText('serve'))
    return 0
  }
  if (!(NAMED_COMMANDS as readonly string[]).includes(topic)) {
    throw new UsageError(`no help for "${topic}"${hint(topic, NAMED_COMMANDS)} (commands: ${NAMED_COMMANDS.join(', ')})`)
  }
  io.out(helpText(topic as Command))
  return 0
}

function helpText(command: Command): string {
  return COMMAND_HELP[command].replace('{docs}', docsLine())
}

/** ` (did you mean "x"?)`, or nothing when no candidate is near. */
function hint(word: string, candidates: readonly string[]): string {
  const near = closest(word, candidates)
  return near === undefined ? '' : ` (did you mean ${near}?)`
}

/** parseArgs' complaint in svc-mock's words: the flag it did not know, and the closest it does. */
function parseProblem(error: unknown): string {
  const code = (error as { code?: unknown }).code
  const message = error instanceof Error ? error.message : String(error)
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    const flag = /'(-[^']*)'/.exec(message)?.[1] ?? message
    const name = flag.replace(/=.*$/, '')
    const near = name.startsWith('--') ? closest(name, FLAGS) : undefined
    return `unknown flag ${name}${near === undefined ? '' : ` (did you mean ${near}?)`}. svc-mock --help lists the flags.`
  }
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    const flag = /--[a-z-]+/.exec(message)?.[0]
    if (flag && /argument missing|argument is ambiguous/.test(message)) return `${flag} needs a value, e.g. ${flag} ${exampleOf(flag)}`
    if (flag && /does not take an argument/.test(message)) return `${flag} takes no value`
  }
  return `${message}. svc-mock --help lists the flags.`
}

function exampleOf(flag: string): string {
  const examples: Record<string, string> = { '--port': '4010', '--host': '127.0.0.1', '--log': 'json', '--clock': 'manual', '--seed': '7', '--scenario': 'latency:ms=2000' }
  return examples[flag] ?? '…'
}

/** The log format asked for, read before the full parse so even a parse error can be JSON. */
function logFormatHint(argv: readonly string[], env: CliIo['env']): LogFormat {
  let value: string | undefined
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i] ?? ''
    if (token === '--') break
    if (token === '--log') value = argv[i + 1]
    else if (token.startsWith('--log=')) value = token.slice('--log='.length)
  }
  value ??= env.SVC_MOCK_LOG
  return value === 'json' || value === 'silent' ? value : 'pretty'
}

/** An error on standard error: plain text, or one JSON object with `--log json`. */
function reportError(io: CliIo, format: LogFormat, message: string, exitCode: number, code: string): void {
  if (format === 'json') io.err(JSON.stringify({ level: 'error', time: new Date().toISOString(), event: 'error', code, message, exitCode }))
  else io.err(`svc-mock: ${message}${code === 'ERR_USAGE' && !/svc-mock (--)?help/.test(message) ? '\nRun svc-mock --help for the options.' : ''}`)
}

function parse(argv: readonly string[]): { values: ParsedValues; positionals: string[] } {
  const { values, positionals } = parseArgs({ args: [...argv], options: OPTIONS, allowPositionals: true, strict: true })
  return { values: values as ParsedValues, positionals }
}

type ParsedValues = {
  port?: string
  host?: string
  'public-url'?: string
  fixtures?: string[]
  'no-default-fixtures'?: boolean
  scenario?: string[]
  scenarios?: string[]
  seed?: string
  clock?: string
  'time-scale'?: string
  log?: string
  'version-list-key'?: string
  'versions-scope'?: string
  'static-keys'?: string
  'token-lifetime'?: string
  'token-algorithm'?: string
  consent?: string
  help?: boolean
  version?: boolean
}

/** A value with where it came from (`--port` or `SVC_MOCK_PORT`), so an error names the right one. */
interface Sourced {
  readonly value: string
  readonly from: string
}

function pick(flag: string, flagValue: string | undefined, variable: string, env: CliIo['env']): Sourced | undefined {
  if (flagValue !== undefined) return { value: flagValue, from: flag }
  const raw = env[variable]
  return raw === undefined || raw === '' ? undefined : { value: raw, from: variable }
}

function integer(raw: Sourced | undefined, min: number, max: number): number | undefined {
  if (raw === undefined) return undefined
  const n = Number(raw.value)
  if (raw.value.trim() === '' || !Number.isInteger(n) || n < min || n > max) {
    throw new UsageError(`${raw.from} must be a whole number from ${min} to ${max}, got "${raw.value}"`)
  }
  return n
}

function oneOf<T extends string>(raw: Sourced | undefined, allowed: readonly T[]): T | undefined {
  if (raw === undefined) return undefined
  if (!(allowed as readonly string[]).includes(raw.value)) {
    throw new UsageError(`${raw.from} must be one of ${allowed.join(', ')}, got "${raw.value}"${hint(raw.value, allowed)}`)
  }
  return raw.value as T
}

interface CliOptions extends ServerOptions {
  log: LogFormat
  /** Where each start-up scenario text came from, to name it in an error. */
  scenarioSource: string
}

function serverOptions(values: ParsedValues, env: CliIo['env'], defaultPort: number | undefined): CliOptions {
  const port = integer(pick('--port', values.port, 'SVC_MOCK_PORT', env), 0, 65535) ?? defaultPort
  const host = pick('--host', values.host, 'SVC_MOCK_HOST', env)?.value
  const publicUrl = pick('--public-url', values['public-url'], 'SVC_MOCK_PUBLIC_URL', env)
  const fixtures = values.fixtures ?? env.SVC_MOCK_FIXTURES?.split(':').filter((p) => p !== '') ?? []
  const defaultFixturesVar = env.SVC_MOCK_DEFAULT_FIXTURES
  if (defaultFixturesVar !== undefined && defaultFixturesVar !== '' && !['true', 'false'].includes(defaultFixturesVar)) {
    throw new UsageError(`SVC_MOCK_DEFAULT_FIXTURES must be true or false, got "${defaultFixturesVar}"`)
  }
  const defaultFixtures = values['no-default-fixtures'] ? false : defaultFixturesVar !== 'false'
  // Read by the emulator, which knows what a scenario can be aimed at; a bad one exits 2 naming it.
  const scenarios = values.scenario ?? (env.SVC_MOCK_SCENARIOS ? [env.SVC_MOCK_SCENARIOS] : [])
  const scenarioSource = values.scenario ? '--scenario' : 'SVC_MOCK_SCENARIOS'
  const scenarioDirs = values.scenarios ?? env.SVC_MOCK_SCENARIO_DIRS?.split(':').filter((p) => p !== '') ?? []
  const seed = integer(pick('--seed', values.seed, 'SVC_MOCK_SEED', env), 0, Number.MAX_SAFE_INTEGER)
  const clock = oneOf(pick('--clock', values.clock, 'SVC_MOCK_CLOCK', env), ['real', 'manual'] as const)
  const timeScaleRaw = pick('--time-scale', values['time-scale'], 'SVC_MOCK_TIME_SCALE', env)
  let timeScale: number | undefined
  if (timeScaleRaw !== undefined) {
    timeScale = Number(timeScaleRaw.value)
    if (!Number.isFinite(timeScale) || timeScale <= 0) throw new UsageError(`${timeScaleRaw.from} must be a number above 0, got "${timeScaleRaw.value}"`)
    if (clock === 'manual') throw new UsageError(`${timeScaleRaw.from} applies to the real clock only; drop it or use --clock real`)
  }
  const log = oneOf<LogFormat>(pick('--log', values.log, 'SVC_MOCK_LOG', env), ['pretty', 'json', 'silent'])
  const versionListKey = oneOf(pick('--version-list-key', values['version-list-key'], 'SVC_MOCK_VERSION_LIST_KEY', env), ['elements', 'values', 'both'] as const)
  const versionsScope = pick('--versions-scope', values['versions-scope'], 'SVC_MOCK_VERSIONS_SCOPE', env)?.value
  const staticKeys = oneOf(pick('--static-keys', values['static-keys'], 'SVC_MOCK_STATIC_KEYS', env), ['allowed', 'rejected'] as const)
  const tokenLifetime = integer(pick('--token-lifetime', values['token-lifetime'], 'SVC_MOCK_TOKEN_LIFETIME', env), 1, 10 * 365 * 24 * 3600)
  const tokenAlgorithm = oneOf(pick('--token-algorithm', values['token-algorithm'], 'SVC_MOCK_TOKEN_ALGORITHM', env), ['RS256', 'ES256', 'ES384', 'EdDSA'] as const)
  const consent = oneOf(pick('--consent', values.consent, 'SVC_MOCK_CONSENT', env), ['auto', 'page'] as const)
  if (publicUrl !== undefined) {
    try {
      new URL(publicUrl.value)
    } catch {
      throw new UsageError(`${publicUrl.from} must be an absolute URL, got "${publicUrl.value}"`)
    }
  }
  return {
    ...(port === undefined ? {} : { port }),
    ...(host === undefined ? {} : { host }),
    ...(publicUrl === undefined ? {} : { publicUrl: publicUrl.value }),
    fixtures,
    defaultFixtures,
    scenarios,
    scenarioSource,
    scenarioDirs,
    ...(seed === undefined ? {} : { seed }),
    clock: { mode: clock ?? 'real', ...(timeScale === undefined ? {} : { timeScale }) },
    log: log ?? 'pretty',
    ...(versionListKey === undefined ? {} : { versionListKey }),
    ...(versionsScope === undefined ? {} : { versionsScope }),
    ...(staticKeys === undefined ? {} : { staticKeys }),
    ...(tokenLifetime === undefined ? {} : { tokenLifetime }),
    ...(tokenAlgorithm === undefined ? {} : { tokenAlgorithm }),
    ...(consent === undefined ? {} : { consent }),
  }
}

/** The emulator's options without the CLI's own fields. */
function emulatorOptions(options: CliOptions, logger: Logger): ServerOptions {
  const { scenarioSource: _source, log: _log, ...rest } = options
  return { ...rest, log: logger }
}

/** A start-up scenario error names the flag or variable it came from (`--scenario` or `SVC_MOCK_SCENARIOS`). */
function naming(options: CliOptions, error: unknown): unknown {
  const texts = (options.scenarios ?? []).filter((item): item is string => typeof item === 'string')
  const names = new Set(texts.flatMap((text) => text.split(',').map((item) => item.trim().split(':')[0] ?? '')))
  const fromText =
    (error instanceof ScenarioError && (texts.includes(error.file) || names.has(error.file))) ||
    (error instanceof UnknownScenarioError && names.has(error.scenario))
  return fromText && error instanceof Error ? new UsageError(`${options.scenarioSource}: ${error.message}`) : error
}

/** Starts the server for `serve` and `exec`; on failure stops listening for signals and names the flag at fault. */
async function startFor(options: CliOptions, logger: Logger, signals: Signals): Promise<RunningServer> {
  const { startServer } = await import('./adapters/server.js')
  try {
    return await startServer(emulatorOptions(options, logger))
  } catch (error) {
    signals.stop()
    throw naming(options, error)
  }
}

async function listScenarios(options: CliOptions, io: CliIo): Promise<number> {
  const { buildEmulator } = await import('./emulator.js')
  const emulator = await buildEmulator(emulatorOptions(options, createLogger('silent'))).catch((error: unknown) => {
    throw naming(options, error)
  })
  const listing = emulator.scenarios.list()
  if (options.log === 'json') {
    for (const scenario of listing) {
      io.out(JSON.stringify({ event: 'scenario', name: scenario.name, description: scenario.description, params: scenario.params, active: scenario.active }))
    }
  } else if (options.log === 'pretty') {
    const lines: string[] = []
    for (const scenario of listing) {
      const params = Object.entries(scenario.params)
        .map(([key, spec]) => `${key}=${spec.default === undefined ? `<${spec.type}>` : String(spec.default)}`)
        .join(',')
      lines.push(`${scenario.name}${params ? `:${params}` : ''}${scenario.active ? '  (on)' : ''}`)
      lines.push(...wrap(scenario.description, 76).map((line) => `    ${line}`))
      lines.push('')
    }
    lines.push('Switch one on: svc-mock --scenario NAME[:key=value,...], the x-svc-mock-scenario header,')
    lines.push('or POST /__svc-mock/scenarios/NAME. See docs/scenarios.md.')
    io.out(lines.join('\n'))
  }
  await emulator.close()
  return 0
}

function wrap(text: string, width: number): string[] {
  const lines: string[] = []
  let line = ''
  for (const word of text.split(/\s+/)) {
    if (line !== '' && line.length + word.length + 1 > width) {
      lines.push(line)
      line = word
    } else {
      line = line === '' ? word : `${line} ${word}`
    }
  }
  if (line !== '') lines.push(line)
  return lines
}

/** SIGINT and SIGTERM, caught from the start (a signal while starting still closes cleanly). */
class Signals {
  #received: NodeJS.Signals | undefined
  #onSignal: ((signal: NodeJS.Signals) => void) | undefined
  readonly #handler = (signal: NodeJS.Signals): void => {
    if (this.#onSignal) this.#onSignal(signal)
    else this.#received ??= signal
  }

  constructor() {
    process.on('SIGINT', this.#handler)
    process.on('SIGTERM', this.#handler)
  }

  /** Calls `fn` for each signal from now on, and at once for one that arrived before. */
  listen(fn: (signal: NodeJS.Signals) => void): void {
    this.#onSignal = fn
    if (this.#received !== undefined) fn(this.#received)
  }

  stop(): void {
    process.off('SIGINT', this.#handler)
    process.off('SIGTERM', this.#handler)
  }
}

async function serve(options: CliOptions, io: CliIo): Promise<number> {
  const signals = new Signals()
  const logger = createLogger(options.log, io.out, io.err)
  const server = await startFor(options, logger, signals)
  io.listening?.()
  if (options.log === 'pretty') io.out(banner(server, options))
  if (options.log === 'json') {
    io.out(JSON.stringify(listening(server)))
    const warning = exposure(server)
    if (warning) io.err(JSON.stringify({ level: 'warn', time: new Date().toISOString(), event: 'exposed', msg: warning }))
  }
  return await new Promise<number>((resolve) => {
    let stopping = false
    // Started through npm (npx, npm exec, npm start), whose process may be killed without passing
    // the signal on: when that parent goes away, stop as on SIGTERM instead of serving on orphaned.
    const unwatch = io.env.npm_command === undefined ? () => undefined : watchParent(() => stop('SIGTERM'))
    const stop = (signal: NodeJS.Signals): void => {
      if (stopping) return
      stopping = true
      unwatch()
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
  })
}

/** Calls `onGone` once if this process's parent goes away (it is then re-parented); returns the stop function. */
function watchParent(onGone: () => void): () => void {
  const parent = process.ppid
  const timer = setInterval(() => {
    if (process.ppid === parent) return
    clearInterval(timer)
    onGone()
  }, PARENT_CHECK_MS)
  timer.unref()
  return () => clearInterval(timer)
}

/** How often `exec` checks that its parent is still there. */
const PARENT_CHECK_MS = 500
/** How long `exec` gives its command to exit after passing a signal on, before SIGKILL. */
const EXEC_KILL_GRACE_MS = 10_000

async function execCommand(options: CliOptions, command: readonly string[], io: CliIo): Promise<number> {
  const signals = new Signals()
  // Standard output is the command's: everything the emulator says goes to standard error.
  const logger = createLogger(options.log, io.err, io.err)
  const { spawn } = await import('node:child_process')
  const { constants } = await import('node:os')
  const server = await startFor(options, logger, signals)
  io.listening?.()
  const urls = server.emulator.urls
  const env: Record<string, string | undefined> = {
    ...io.env,
    SVC_MOCK_URL: server.url,
    SVC_MOCK_AUTH_URL: urls.auth,
    SVC_MOCK_BASE_URL: urls.base,
    SVC_MOCK_WEBHOOK_URL: urls.webhook,
  }
  const [file = '', ...args] = command
  if (options.log === 'pretty') io.err(`svc-mock ${VERSION} listening on ${server.url} (SVC_MOCK_URL); running: ${command.join(' ')}`)
  if (options.log === 'json') io.err(JSON.stringify({ ...listening(server), command: [...command] }))

  return await new Promise<number>((resolve) => {
    let finished = false
    let forwarded: NodeJS.Signals | undefined
    let killTimer: NodeJS.Timeout | undefined
    const child = spawn(file, args, { stdio: 'inherit', env })

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
    const pass = (signal: NodeJS.Signals): void => {
      if (finished || child.exitCode !== null || child.signalCode !== null) return
      forwarded ??= signal
      child.kill(signal)
      killTimer ??= setTimeout(() => child.kill('SIGKILL'), EXEC_KILL_GRACE_MS)
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

/** The start-up banner as one JSON object (`--log json`): addresses, and the credentials' labels (never their values). */
function listening(server: RunningServer): Record<string, unknown> {
  const emu = server.emulator
  const base = emu.urls.base
  const warning = exposure(server)
  return {
    level: 'info',
    time: new Date().toISOString(),
    event: 'listening',
    version: VERSION,
    url: server.url,
    host: server.host,
    port: server.port,
    urls: { auth: emu.urls.auth, base, webhook: emu.urls.webhook },
    dashboard: `${base}/__svc-mock/`,
    controlPlane: `${base}/__svc-mock`,
    openapi: `${base}/__svc-mock/openapi.json`,
    webhooks: emu.webhooks.list().map((w) => w.url),
    credentials: emu.credentials().map((c) => ({ kind: c.kind, id: c.id, label: c.label })),
    clock: emu.clock.state(),
    seed: emu.seed,
    scenarios: emu.scenarios.list().filter((s) => s.active).map((s) => s.name),
    ...(warning ? { warning } : {}),
  }
}

function isLoopback(host: string): boolean {
  return ['127.0.0.1', 'localhost', '::1'].includes(host) || host.startsWith('127.')
}

/** The warning for a server bound beyond loopback, or undefined. */
function exposure(server: RunningServer): string | undefined {
  if (isLoopback(server.host)) return undefined
  return `svc-mock listens beyond loopback, and its control plane (${server.url}/__svc-mock/) needs no credential: anyone who can reach this port can reset it, switch scenarios on and mint tokens. Bind to 127.0.0.1 unless you need this.`
}

function banner(server: RunningServer, options: CliOptions): string {
  const emu = server.emulator
  const base = emu.urls.base
  const sample = `${base}/acme-collection/acme-tenant/_api/rest/facets/processes/views/default/elements/0f8fad5b-d9cb-469f-a165-70867728950e/versions`
  const on = emu.scenarios.list().filter((s) => s.active)
  const clock = emu.clock.state()
  const loopback = isLoopback(server.host)
  const bound = server.host.includes(':') ? `[${server.host}]` : server.host
  const lines = [
    loopback
      ? `svc-mock ${VERSION} listening on ${server.url}`
      : `svc-mock ${VERSION} listening on http://${bound}:${server.port}${bound === '0.0.0.0' || bound === '[::]' ? ' (every network interface of this machine)' : ''}; from here: ${server.url}`,
    ...(loopback
      ? []
      : [
          `WARNING: svc-mock listens beyond loopback, and its control plane (${server.url}/__svc-mock/) needs no credential:`,
          '  anyone who can reach this port can reset it, switch scenarios on and mint tokens. Bind to 127.0.0.1 unless you need this.',
        ]),
    '',
    `  REST API ({base_url})   ${base}/{collectionId}/{storageId}/_api/rest/facets/{facetId}/views/{viewId}/elements/{elementId}/versions`,
    `  OAuth ({auth_url})      ${emu.urls.auth}/oauth2/token, ${emu.urls.auth}/oauth2/authorize, ${emu.urls.auth}/.well-known/openid-configuration`,
    `  Webhooks                ${emu.urls.webhook}/hooks/{token}  (${emu.webhooks.list().map((w) => w.id).join(', ') || 'none'})`,
    `  Dashboard               ${base}/__svc-mock/  (open it in a browser: see the requests, steer scenarios, flows, clock)`,
    `  Control plane           ${base}/__svc-mock/{health, reset, scenarios, clock, journal, elements, webhooks, oauth-clients, state, events}`,
    `  OpenAPI document        ${base}/__svc-mock/openapi.json`,
    '',
    'Default credentials (public test values, from the default fixtures):',
    ...emu.credentials().map((c) => `  ${c.kind.padEnd(17)} ${c.value}  (${c.label})`),
    '',
    'Try:',
    `  curl -H 'Authorization: AppKey svcmock-app-key' ${sample}`,
    `  curl -u ci-client:ci-secret -d grant_type=client_credentials ${emu.urls.auth}/oauth2/token`,
    '',
    `Clock: ${clock.mode}${clock.mode === 'real' && clock.timeScale !== 1 ? `, time scale ${clock.timeScale}` : ''}; seed ${emu.seed}.` +
      (on.length > 0 ? ` Scenarios on: ${on.map((s) => s.name).join(', ')}.` : ''),
    options.log === 'pretty' ? 'Requests are logged below. Ctrl+C stops.' : '',
  ]
  return lines.join('\n')
}
