/**
 * The `svc-mock` command: starts the standalone server, or lists the scenario catalogue.
 * Flags have environment twins (`--port` and `SVC_MOCK_PORT`); a flag wins over its variable.
 * Exit codes: 0 after a clean shutdown, 1 when the port is in use or the server fails, 2 for a
 * bad flag, value, fixture or scenario file (the message names which).
 */
import { parseArgs } from 'node:util'
import { DEFAULT_HOST, DEFAULT_PORT } from './adapters/constants.js'
import type { RunningServer, ServerOptions } from './adapters/server.js'
import { SvcMockError } from './kernel/errors.js'
import type { LogFormat } from './kernel/logger.js'
import { VERSION } from './version.js'

// The emulator and server are imported only when needed, so --help and --version answer at once.

const HELP = `svc-mock ${VERSION}: a local emulator of the platform's OAuth, REST and inbound-webhook APIs.

Usage:
  svc-mock [options]            start the emulator (default http://127.0.0.1:4010)
  svc-mock scenarios [options]  list the failure scenarios with what they do
  svc-mock --help | --version

Options (environment variable in brackets; a flag wins over its variable):
  --port N              port to listen on, 0 for any free one       [SVC_MOCK_PORT]    default ${DEFAULT_PORT}
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
  --log FORMAT          pretty, json or silent                      [SVC_MOCK_LOG]     default pretty
  --version-list-key K  elements, values or both: the name of the version list
                                                                    [SVC_MOCK_VERSION_LIST_KEY] default elements
  --versions-scope S    OAuth scope the versions operation needs     [SVC_MOCK_VERSIONS_SCOPE] default none
  --static-keys MODE    allowed or rejected (401, as once discontinued) [SVC_MOCK_STATIC_KEYS] default allowed
  --token-lifetime S    expires_in of access tokens, in seconds     [SVC_MOCK_TOKEN_LIFETIME] default 899
  --token-algorithm A   RS256, ES256, ES384 or EdDSA                [SVC_MOCK_TOKEN_ALGORITHM] default RS256
  --consent MODE        auto (consent at once) or page (HTML consent page) [SVC_MOCK_CONSENT] default auto
  -h, --help            this text
  -v, --version         the version

Dashboard (in a browser) and control plane: http://HOST:PORT/__svc-mock/ once running; see README.md.`

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

/** A bad flag or value: exit 2. */
class UsageError extends Error {}

export interface CliIo {
  out: (text: string) => void
  err: (text: string) => void
  env: Readonly<Record<string, string | undefined>>
}

const defaultIo: CliIo = {
  out: (text) => process.stdout.write(`${text}\n`),
  err: (text) => process.stderr.write(`${text}\n`),
  env: process.env,
}

/** Runs the command; resolves with the exit code once it is done (for the server: on shutdown). */
export async function main(argv: readonly string[], io: CliIo = defaultIo): Promise<number> {
  let values: ReturnType<typeof parse>['values']
  let positionals: string[]
  try {
    ;({ values, positionals } = parse(argv))
  } catch (error) {
    io.err(`svc-mock: ${error instanceof Error ? error.message : String(error)}\nRun svc-mock --help for the options.`)
    return 2
  }
  if (values.help) {
    io.out(HELP)
    return 0
  }
  if (values.version) {
    io.out(VERSION)
    return 0
  }
  try {
    const command = positionals[0]
    if (positionals.length > 1 || (command !== undefined && command !== 'scenarios')) {
      throw new UsageError(`unknown command "${positionals.join(' ')}" (commands: scenarios)`)
    }
    const options = serverOptions(values, io.env)
    if (command === 'scenarios') return await listScenarios(options, io)
    return await serve(options, io)
  } catch (error) {
    if (error instanceof SvcMockError && error.code === 'ERR_PORT_IN_USE') {
      io.err(`svc-mock: ${error.message}`)
      return 1
    }
    if (error instanceof UsageError || error instanceof SvcMockError) {
      io.err(`svc-mock: ${error.message}`)
      return 2
    }
    io.err(`svc-mock: failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`)
    return 1
  }
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

function pick(flag: string | undefined, env: string | undefined): string | undefined {
  return flag ?? (env === '' ? undefined : env)
}

function integer(name: string, raw: string | undefined, min: number, max: number): number | undefined {
  if (raw === undefined) return undefined
  const n = Number(raw)
  if (!Number.isInteger(n) || n < min || n > max) throw new UsageError(`--${name} must be a whole number from ${min} to ${max}, got "${raw}"`)
  return n
}

function oneOf<T extends string>(name: string, raw: string | undefined, allowed: readonly T[]): T | undefined {
  if (raw === undefined) return undefined
  if (!(allowed as readonly string[]).includes(raw)) throw new UsageError(`--${name} must be one of ${allowed.join(', ')}, got "${raw}"`)
  return raw as T
}

function serverOptions(values: ParsedValues, env: CliIo['env']): ServerOptions {
  const port = integer('port', pick(values.port, env.SVC_MOCK_PORT), 0, 65535)
  const host = pick(values.host, env.SVC_MOCK_HOST)
  const publicUrl = pick(values['public-url'], env.SVC_MOCK_PUBLIC_URL)
  const fixtures = values.fixtures ?? env.SVC_MOCK_FIXTURES?.split(':').filter((p) => p !== '') ?? []
  const defaultFixtures = values['no-default-fixtures'] ? false : env.SVC_MOCK_DEFAULT_FIXTURES !== 'false'
  const scenarioTexts = values.scenario ?? (env.SVC_MOCK_SCENARIOS ? [env.SVC_MOCK_SCENARIOS] : [])
  // Read by the emulator, which knows what a scenario can be aimed at; a bad one exits 2 naming it.
  const scenarios = scenarioTexts
  const scenarioDirs = values.scenarios ?? env.SVC_MOCK_SCENARIO_DIRS?.split(':').filter((p) => p !== '') ?? []
  const seed = integer('seed', pick(values.seed, env.SVC_MOCK_SEED), 0, Number.MAX_SAFE_INTEGER)
  const clock = oneOf('clock', pick(values.clock, env.SVC_MOCK_CLOCK), ['real', 'manual'] as const)
  const timeScaleRaw = pick(values['time-scale'], env.SVC_MOCK_TIME_SCALE)
  let timeScale: number | undefined
  if (timeScaleRaw !== undefined) {
    timeScale = Number(timeScaleRaw)
    if (!Number.isFinite(timeScale) || timeScale <= 0) throw new UsageError(`--time-scale must be a number above 0, got "${timeScaleRaw}"`)
    if (clock === 'manual') throw new UsageError('--time-scale applies to the real clock only; drop it or use --clock real')
  }
  const log = oneOf<LogFormat>('log', pick(values.log, env.SVC_MOCK_LOG), ['pretty', 'json', 'silent'])
  const versionListKey = oneOf('version-list-key', pick(values['version-list-key'], env.SVC_MOCK_VERSION_LIST_KEY), ['elements', 'values', 'both'] as const)
  const versionsScope = pick(values['versions-scope'], env.SVC_MOCK_VERSIONS_SCOPE)
  const staticKeys = oneOf('static-keys', pick(values['static-keys'], env.SVC_MOCK_STATIC_KEYS), ['allowed', 'rejected'] as const)
  const tokenLifetime = integer('token-lifetime', pick(values['token-lifetime'], env.SVC_MOCK_TOKEN_LIFETIME), 1, 10 * 365 * 24 * 3600)
  const tokenAlgorithm = oneOf('token-algorithm', pick(values['token-algorithm'], env.SVC_MOCK_TOKEN_ALGORITHM), ['RS256', 'ES256', 'ES384', 'EdDSA'] as const)
  const consent = oneOf('consent', pick(values.consent, env.SVC_MOCK_CONSENT), ['auto', 'page'] as const)
  if (publicUrl !== undefined) {
    try {
      new URL(publicUrl)
    } catch {
      throw new UsageError(`--public-url must be an absolute URL, got "${publicUrl}"`)
    }
  }
  return {
    ...(port === undefined ? {} : { port }),
    ...(host === undefined ? {} : { host }),
    ...(publicUrl === undefined ? {} : { publicUrl }),
    fixtures,
    defaultFixtures,
    scenarios,
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

async function listScenarios(options: ServerOptions, io: CliIo): Promise<number> {
  const { buildEmulator } = await import('./emulator.js')
  const emulator = await buildEmulator({ ...options, log: 'silent' })
  const lines: string[] = []
  for (const scenario of emulator.scenarios.list()) {
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

async function serve(options: ServerOptions, io: CliIo): Promise<number> {
  // Signal handlers come first: a SIGTERM that arrives while starting, or right after the banner,
  // still closes the server cleanly instead of killing the process.
  let requested: string | undefined
  let onSignal: (signal: string) => void = (signal) => {
    requested = signal
  }
  const handler = (signal: NodeJS.Signals): void => onSignal(signal)
  process.once('SIGINT', handler)
  process.once('SIGTERM', handler)
  const { startServer } = await import('./adapters/server.js')
  const server = await startServer(options).catch((error: unknown) => {
    process.off('SIGINT', handler)
    process.off('SIGTERM', handler)
    throw error
  })
  io.out(banner(server, options))
  return await new Promise<number>((resolve) => {
    let stopping = false
    onSignal = (signal) => {
      if (stopping) return
      stopping = true
      io.out(`\nsvc-mock: ${signal} received, closing.`)
      server.close().then(
        () => resolve(0),
        () => resolve(1),
      )
    }
    if (requested !== undefined) onSignal(requested)
  })
}

function banner(server: RunningServer, options: ServerOptions): string {
  const emu = server.emulator
  const base = emu.urls.base
  const sample = `${base}/acme-collection/acme-tenant/_api/rest/facets/processes/views/default/elements/0f8fad5b-d9cb-469f-a165-70867728950e/versions`
  const on = emu.scenarios.list().filter((s) => s.active)
  const clock = emu.clock.state()
  const loopback = ['127.0.0.1', 'localhost', '::1'].includes(server.host) || server.host.startsWith('127.')
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
    options.log === 'silent' ? '' : 'Requests are logged below. Ctrl+C stops.',
  ]
  return lines.join('\n')
}

