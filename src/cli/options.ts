/**
 * The flags and their environment twins (`--port` and `SVC_MOCK_PORT`): parsed, checked and turned
 * into the server's options (the HTTPS flags in https-flags.ts).
 * A flag wins over its variable; a bad one is a UsageError (exit 2) that names whichever was used,
 * and an unknown flag or value names the closest valid one.
 */
import { parseArgs } from 'node:util'
import { DEFAULT_HOST, DEFAULT_MAX_TEAMS } from '../adapters/constants.js'
import type { ServerOptions } from '../adapters/server.js'
import { closest } from '../kernel/closest.js'
import { ScenarioError, UnknownScenarioError } from '../kernel/errors.js'
import type { LogFormat, Logger } from '../kernel/logger.js'
import { httpsOption } from './https-flags.js'
import type { CliIo } from './io.js'
import { pick, type Sourced, UsageError } from './sourced.js'

export { UsageError } from './sourced.js'

/** The flags parseArgs knows; serverOptions reads each with its environment twin. */
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
  routes: { type: 'string', multiple: true },
  proxy: { type: 'string' },
  record: { type: 'string' },
  'proxy-timeout': { type: 'string' },
  https: { type: 'boolean' },
  'tls-cert': { type: 'string' },
  'tls-key': { type: 'string' },
  teams: { type: 'string' },
  'max-teams': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
} as const

const FLAGS: readonly string[] = Object.keys(OPTIONS).map((name) => `--${name}`)


/** ` (did you mean "x"?)`, or nothing when no candidate is near. */
export function hint(word: string, candidates: readonly string[]): string {
  const near = closest(word, candidates)
  return near === undefined ? '' : ` (did you mean ${near}?)`
}

/** parseArgs' complaint in svc-mock's words: the flag it did not know, and the closest it does. */
export function parseProblem(error: unknown): string {
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
  const examples: Record<string, string> = {
    '--routes': 'routes/',
    '--proxy': 'https://acme.eu-1.celonis.cloud',
    '--record': 'recorded/',
    '--tls-cert': 'cert.pem',
    '--tls-key': 'key.pem',
    '--teams': '4',
    '--port': '4010',
    '--host': '127.0.0.1',
    '--log': 'json',
    '--clock': 'manual',
    '--seed': '7',
    '--scenario': 'latency:ms=2000',
  }
  return examples[flag] ?? '…'
}

/** The log format asked for, read before the full parse so even a parse error can be JSON. */
export function logFormatHint(argv: readonly string[], env: CliIo['env']): LogFormat {
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

/** The flags before `--`, read strictly: an unknown flag throws. */
export function parse(argv: readonly string[]): { values: ParsedValues; positionals: string[] } {
  const { values, positionals } = parseArgs({ args: [...argv], options: OPTIONS, allowPositionals: true, strict: true })
  return { values: values as ParsedValues, positionals }
}

export type ParsedValues = {
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
  routes?: string[]
  proxy?: string
  record?: string
  'proxy-timeout'?: string
  https?: boolean
  'tls-cert'?: string
  'tls-key'?: string
  teams?: string
  'max-teams'?: string
  help?: boolean
  version?: boolean
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

/** The server's options and the CLI's own: the log format and where the start-up scenarios came from. */
export interface CliOptions extends ServerOptions {
  log: LogFormat
  /** Where each start-up scenario text came from, to name it in an error. */
  scenarioSource: string
}

/** The flags, else their variables, checked and turned into the server's options; `defaultPort` is exec's 0. */
export function serverOptions(values: ParsedValues, env: CliIo['env'], defaultPort: number | undefined): CliOptions {
  const port = integer(pick('--port', values.port, 'SVC_MOCK_PORT', env), 0, 65535) ?? defaultPort
  const hostRaw = pick('--host', values.host, 'SVC_MOCK_HOST', env)
  const host = hostRaw?.value
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
  const routes = values.routes ?? env.SVC_MOCK_ROUTES?.split(':').filter((p) => p !== '') ?? []
  const proxy = pick('--proxy', values.proxy, 'SVC_MOCK_PROXY', env)
  const record = pick('--record', values.record, 'SVC_MOCK_RECORD', env)
  const proxyTimeoutMs = integer(pick('--proxy-timeout', values['proxy-timeout'], 'SVC_MOCK_PROXY_TIMEOUT', env), 1, 24 * 3600 * 1000)
  if (proxy !== undefined) {
    let url: URL | undefined
    try {
      url = new URL(proxy.value)
    } catch {
      url = undefined
    }
    if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:')) throw new UsageError(`${proxy.from} must be your team's http or https URL, e.g. https://acme.eu-1.celonis.cloud, got "${proxy.value}"`)
  }
  if (record !== undefined && proxy === undefined) throw new UsageError(`${record.from} records what the proxy forwards: give --proxy URL (or SVC_MOCK_PROXY) too`)
  if (proxyTimeoutMs !== undefined && proxy === undefined) throw new UsageError('--proxy-timeout applies to the proxy: give --proxy URL (or SVC_MOCK_PROXY) too')
  const maxTeamsRaw = pick('--max-teams', values['max-teams'], 'SVC_MOCK_MAX_TEAMS', env)
  const maxTeams = integer(maxTeamsRaw, 0, 1_000_000)
  const teamsRaw = pick('--teams', values.teams, 'SVC_MOCK_TEAMS', env)
  const teams = integer(teamsRaw, 0, maxTeams ?? DEFAULT_MAX_TEAMS)
  if (publicUrl !== undefined) {
    try {
      new URL(publicUrl.value)
    } catch {
      throw new UsageError(`${publicUrl.from} must be an absolute URL, got "${publicUrl.value}"`)
    }
  }
  const https = httpsOption(values, env, hostRaw ?? { value: DEFAULT_HOST, from: '--host' }, publicUrl)
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
    ...(routes.length === 0 ? {} : { routes }),
    ...(proxy === undefined ? {} : { proxy: proxy.value }),
    ...(record === undefined ? {} : { record: record.value }),
    ...(proxyTimeoutMs === undefined ? {} : { proxyTimeoutMs }),
    ...(https === undefined ? {} : { https }),
    ...(teams === undefined ? {} : { teams }),
    ...(maxTeams === undefined ? {} : { maxTeams }),
  }
}

/** The emulator's options without the CLI's own fields. */
export function emulatorOptions(options: CliOptions, logger: Logger): ServerOptions {
  const { scenarioSource: _source, log: _log, ...rest } = options
  return { ...rest, log: logger }
}

/** A start-up scenario error names the flag or variable it came from (`--scenario` or `SVC_MOCK_SCENARIOS`). */
export function naming(options: CliOptions, error: unknown): unknown {
  const texts = (options.scenarios ?? []).filter((item): item is string => typeof item === 'string')
  const names = new Set(texts.flatMap((text) => text.split(',').map((item) => item.trim().split(':')[0] ?? '')))
  const fromText =
    (error instanceof ScenarioError && (texts.includes(error.file) || names.has(error.file))) ||
    (error instanceof UnknownScenarioError && names.has(error.scenario))
  return fromText && error instanceof Error ? new UsageError(`${options.scenarioSource}: ${error.message}`) : error
}
