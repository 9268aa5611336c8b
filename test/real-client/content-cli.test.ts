/**
 * The platform's own CLI, `@celonis/content-cli` 1.15.0, against the standalone server over a
 * socket: every profile type it creates (Device Code, its default; Client Credentials with a
 * basic and a post client; Key with a user API key and an application key; the environment
 * profile), then a request with the token it stored, made by its own HTTP client, then its
 * refresh path once the stored token has expired; and the device flow's failure answers, switched
 * on by scenario. If these pass, `content-cli profile create` works against `npx svc-mock`.
 *
 * How content-cli is driven, and why:
 * - In-process, through its own program builder `createProgram(context, { modules })`
 *   (content-cli.js; "Build a fully-configured Commander program without parsing argv"), running
 *   `profile create` exactly as its bin does. Its bin is not usable from a test: its prompts use
 *   readline on stdin, which drops every answer but the first when they are piped in at once, and
 *   the device flow would sleep for real in a child process.
 * - Its prompts are answered by a scripted stand-in for its QuestionService
 *   (core/utils/question.service.js), the only part of it replaced.
 * - HOME is a scratch directory (profiles, its log files and config land there), and
 *   `@github/keytar` is stubbed to fail, so content-cli takes its own fallback (secrets in the
 *   profile file) and never touches the developer's keychain.
 * - Its logger (core/utils/logger.js) exits the process on a FatalError; here that exit becomes an
 *   exception, which its command wrapper turns into exit code 1, as for any failed command.
 * - The device flow's wait: openid-client 5's DeviceFlowHandle.poll() sleeps `interval` seconds
 *   before every poll, the first one included, and takes `interval * 1000 || 5000`, so no server
 *   answer avoids the wait (an interval of 0 becomes 5 s, and RFC 8628 makes 5 s the default).
 *   Global fake timers would also freeze the server's and Node's own timers in this process. So
 *   that one module (lib/device_flow_handle.js) is loaded with its own `setTimeout`: it records
 *   each wait, moves the emulator clock by it (the server sees a client that honours the interval
 *   on its clock), and continues at once.
 * - Token expiry: content-cli refreshes when `expires_at` (wall clock at receipt + `expires_in`)
 *   minus 5 s has passed by `new Date()`. The tests move the emulator clock and fake only `Date`
 *   by the same amount.
 */
import { mkdtempSync, readFileSync, existsSync, rmSync } from 'node:fs'
import Module, { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import vm from 'node:vm'
import { createRemoteJWKSet, jwtVerify } from 'jose'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { startServer, type RunningServer } from '../../src/adapters/server.js'

// ---------------------------------------------------------------------------------------------
// content-cli, loaded in-process (CommonJS, compiled TypeScript; no type declarations shipped)
// ---------------------------------------------------------------------------------------------

type ProfileType = 'Device Code' | 'Client Credentials' | 'Key'

/** What content-cli keeps in `~/.celonis-content-cli-profiles/<name>.json` (core/profile/profile.interface). */
interface StoredProfile {
  name: string
  team: string
  type: ProfileType
  apiToken?: string
  refreshToken?: string
  expiresAt?: number
  clientId?: string
  clientSecret?: string
  clientAuthenticationMethod?: 'client_secret_basic' | 'client_secret_post'
  scopes?: string[]
  authenticationType?: 'Bearer' | 'AppKey'
  secretsStoredSecurely?: boolean
}

interface ContentCliContext {
  profile: StoredProfile | undefined
  init(): Promise<void>
  readonly httpClient: { getStatusAndData(url: string): Promise<{ status: number; data: unknown }> }
}

interface CommanderProgram {
  exitOverride(): CommanderProgram
  parseAsync(argv: string[], options: { from: 'user' }): Promise<unknown>
}

interface Logger {
  silent: boolean
  info(message: unknown): Logger
  warn(message: unknown): Logger
  debug(message: unknown): Logger
  error(message: unknown): Logger
}

const OAUTH_SCOPES = ['studio', 'package-manager', 'integration.data-pools', 'action-engine.projects']
const OAUTH_SCOPES_WITHOUT_ACTION_ENGINE = ['studio', 'package-manager', 'integration.data-pools']
const SEED_ELEMENT = '0f8fad5b-d9cb-469f-a165-70867728950e'
const VERSIONS = `/acme-collection/acme-tenant/_api/rest/facets/processes/views/default/elements/${SEED_ELEMENT}/versions`
/** A device flow that polls more often than this has gone wrong (the expiry is 300 s, the interval 5 s or more). */
const MAX_POLLS = 40

const HOME = mkdtempSync(join(tmpdir(), 'svc-mock-content-cli-'))
const savedHome = process.env.HOME
const savedUserProfile = process.env.USERPROFILE
process.env.HOME = HOME // os.homedir(): read by content-cli when its modules load
process.env.USERPROFILE = HOME

const require = createRequire(import.meta.url)
const CLI_ROOT = dirname(require.resolve('@celonis/content-cli/package.json'))
const cliRequire = createRequire(join(CLI_ROOT, 'content-cli.js'))
const cliPackage = cliRequire('./package.json') as { version: string }
if (cliPackage.version !== '1.15.0') throw new Error(`these tests read content-cli 1.15.0's source; installed: ${cliPackage.version}`)

/** Puts `exports` in the CommonJS cache under `filename`, so content-cli's own `require` gets it. */
function seedModule(filename: string, exports: unknown): void {
  const mod = new Module(filename)
  mod.filename = filename
  mod.exports = exports
  mod.loaded = true
  require.cache[filename] = mod
}

// No keychain: content-cli's SecureSecretStorageService falls back to the profile file.
const keytarFile = createRequire(join(CLI_ROOT, 'core/profile/secret-storage.service.js')).resolve('@github/keytar')
const noKeychain = (): Promise<never> => Promise.reject(new Error('no keychain in these tests'))
seedModule(keytarFile, { setPassword: noKeychain, getPassword: noKeychain, deletePassword: noKeychain, findCredentials: noKeychain, findPassword: noKeychain })

// openid-client 5's DeviceFlowHandle, with a setTimeout of its own (see the header).
const openidClientFile = cliRequire.resolve('openid-client')
const openidClientVersion = (createRequire(openidClientFile)('../package.json') as { version: string }).version
if (!openidClientVersion.startsWith('5.')) throw new Error(`content-cli's openid-client should be 5.x, got ${openidClientVersion}`)
const deviceFlowHandleFile = join(dirname(openidClientFile), 'device_flow_handle.js')

/** The waits openid-client asked for before each poll, in ms, in order. */
const pollWaits: number[] = []
const pollSleepFailures: unknown[] = []
let server: RunningServer

function pollSleep(callback: () => void, ms: number): { ref(): void; unref(): void; hasRef(): boolean } {
  pollWaits.push(ms)
  // Thrown inside `new Promise(resolve => setTimeout(resolve, ms))`, this rejects the poll.
  if (pollWaits.length > MAX_POLLS) throw new Error(`content-cli polled the token endpoint more than ${MAX_POLLS} times`)
  control('POST', '/clock/advance', { ms }).then(
    () => callback(),
    (error: unknown) => {
      pollSleepFailures.push(error)
      callback()
    },
  )
  return { ref() {}, unref() {}, hasRef: () => false }
}

{
  const mod = new Module(deviceFlowHandleFile)
  mod.filename = deviceFlowHandleFile
  mod.paths = [join(dirname(openidClientFile), '..', 'node_modules'), join(dirname(openidClientFile), '..', '..')]
  const load = vm.compileFunction(readFileSync(deviceFlowHandleFile, 'utf8'), ['exports', 'require', 'module', '__filename', '__dirname', 'setTimeout'], {
    filename: deviceFlowHandleFile,
  })
  load.call(mod.exports, mod.exports, createRequire(deviceFlowHandleFile), mod, deviceFlowHandleFile, dirname(deviceFlowHandleFile), pollSleep)
  mod.loaded = true
  require.cache[deviceFlowHandleFile] = mod
}

// Its logger: nothing printed or written; every line recorded; a FatalError ends the command.
class ContentCliExit extends Error {}
const cliLog: Array<{ level: string; message: string }> = []
const { logger } = cliRequire('./core/utils/logger') as { logger: Logger }
logger.silent = true
const textOf = (message: unknown): string => (message instanceof Error ? message.message : String(message))
for (const level of ['info', 'warn', 'debug'] as const) {
  logger[level] = (message: unknown) => {
    cliLog.push({ level, message: textOf(message) })
    return logger
  }
}
logger.error = (message: unknown) => {
  cliLog.push({ level: 'error', message: textOf(message) })
  // content-cli's CustomTransport calls process.exit(1) for a logged error that carries `error` (a FatalError).
  if (message instanceof Error && 'error' in message) throw new ContentCliExit(message.message)
  return logger
}

// Its prompts, answered from a script.
const prompts: string[] = []
let answers: string[] = []
const questionModule = cliRequire('./core/utils/question.service') as { QuestionService: unknown }
questionModule.QuestionService = class ScriptedQuestions {
  ask(question: string): Promise<string> {
    prompts.push(question)
    const answer = answers.shift()
    return answer === undefined ? Promise.reject(new Error(`content-cli asked "${question}" and the script has no answer left`)) : Promise.resolve(answer)
  }
  close(): Promise<void> {
    return Promise.resolve()
  }
}

const { createProgram } = cliRequire('./content-cli.js') as { createProgram(context: ContentCliContext, options: { modules: unknown[] }): CommanderProgram }
const ProfileModule = cliRequire('./commands/profile/module.js') as unknown
const { Context } = cliRequire('./core/command/cli-context') as { Context: new (options: { profile?: string }) => ContentCliContext }

if (require.cache[deviceFlowHandleFile]?.exports !== (createRequire(openidClientFile)('./device_flow_handle.js') as unknown)) {
  throw new Error("content-cli's openid-client did not pick up the test's DeviceFlowHandle")
}

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

interface JournalEntry {
  seq: number
  route: string
  method: string
  path: string
  status: number
  request: { headers: Record<string, string>; body?: unknown }
  response: { headers: Record<string, string>; body?: string }
}

async function control<T = unknown>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
  const response = await fetch(`${server.url}/__svc-mock${path}`, {
    method,
    ...(method === 'GET' ? {} : { headers: { 'content-type': 'application/json' } }),
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  const text = await response.text()
  return { status: response.status, body: (text === '' ? undefined : JSON.parse(text)) as T }
}

/** Every platform request the server saw (the control plane left out), oldest first. */
async function exchanges(): Promise<JournalEntry[]> {
  const { body } = await control<JournalEntry[]>('GET', '/journal')
  return body.filter((entry) => !entry.path.startsWith('/__svc-mock'))
}

const form = (entry: JournalEntry): Record<string, string> => (entry.request.body ?? {}) as Record<string, string>
const answer = (entry: JournalEntry): Record<string, unknown> => JSON.parse(entry.response.body ?? '{}') as Record<string, unknown>
const scheme = (entry: JournalEntry): string | undefined => entry.request.headers.authorization?.split(' ')[0]
const tokenRequests = (log: JournalEntry[], grantType?: string): JournalEntry[] =>
  log.filter((e) => e.method === 'POST' && e.path === '/oauth2/token' && (grantType === undefined || form(e).grant_type === grantType))
const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code'

/** Runs `content-cli profile create`, answering its prompts; returns its exit code and what it logged. */
async function profileCreate(script: string[]): Promise<{ exitCode: number; errors: string[]; info: string[] }> {
  answers = [...script]
  const logFrom = cliLog.length
  const savedExitCode = process.exitCode
  process.exitCode = undefined
  try {
    const program = createProgram(new Context({}), { modules: [ProfileModule] }).exitOverride()
    await program.parseAsync(['profile', 'create'], { from: 'user' })
    const lines = cliLog.slice(logFrom)
    return {
      exitCode: Number(process.exitCode ?? 0),
      errors: lines.filter((l) => l.level === 'error').map((l) => l.message),
      info: lines.filter((l) => l.level === 'info').map((l) => l.message),
    }
  } finally {
    process.exitCode = savedExitCode
    expect(answers, 'content-cli asked fewer questions than scripted').toEqual([])
  }
}

const profileFile = (name: string): string => join(HOME, '.celonis-content-cli-profiles', `${name}.json`)
const storedProfile = (name: string): StoredProfile => JSON.parse(readFileSync(profileFile(name), 'utf8')) as StoredProfile

/** What every content-cli command does first: load the profile (refreshing it when due) and build its HTTP client. */
async function loadProfile(name?: string): Promise<ContentCliContext> {
  const context = new Context(name === undefined ? {} : { profile: name })
  await context.init()
  const debug = cliLog.filter((l) => l.level === 'debug').map((l) => l.message)
  expect(context.profile, `content-cli could not load profile ${name ?? '(environment)'}: ${debug.slice(-3).join(' | ')}`).toBeDefined()
  return context
}

const versionsVia = (context: ContentCliContext): Promise<{ status: number; data: unknown }> => context.httpClient.getStatusAndData(VERSIONS)

const versionsWith = (authorization: string): Promise<Response> => fetch(`${server.url}${VERSIONS}`, { headers: { authorization } })

/** Moves the emulator clock and content-cli's `Date` forward together. */
async function passTime(ms: number): Promise<void> {
  expect((await control('POST', '/clock/advance', { ms })).status).toBe(200)
  const now = Date.now()
  vi.useFakeTimers({ toFake: ['Date'] })
  vi.setSystemTime(now + ms)
}

const nowSeconds = (): number => Math.floor(Date.now() / 1000)

async function verify(accessToken: string): Promise<Record<string, unknown>> {
  const { payload } = await jwtVerify(accessToken, createRemoteJWKSet(new URL(`${server.url}/.well-known/jwks.json`)), { issuer: server.url })
  return payload
}

/** The device-code polls, grouped by the device authorization request each one follows. */
function deviceSessions(log: JournalEntry[]): Array<{ authorization: JournalEntry; polls: JournalEntry[] }> {
  const sessions: Array<{ authorization: JournalEntry; polls: JournalEntry[] }> = []
  for (const entry of log) {
    if (entry.method === 'POST' && entry.path === '/oauth2/device_authorization') sessions.push({ authorization: entry, polls: [] })
    else if (tokenRequests([entry], DEVICE_GRANT).length === 1) sessions.at(-1)?.polls.push(entry)
  }
  return sessions
}

// ---------------------------------------------------------------------------------------------

beforeAll(async () => {
  server = await startServer({ port: 0, log: 'silent', clock: 'manual' })
})

afterAll(async () => {
  await server.close()
  process.env.HOME = savedHome
  process.env.USERPROFILE = savedUserProfile
  rmSync(HOME, { recursive: true, force: true })
})

beforeEach(async () => {
  expect((await control('POST', '/reset')).status).toBe(200)
  pollWaits.length = 0
  pollSleepFailures.length = 0
  prompts.length = 0
})

afterEach(() => {
  vi.useRealTimers()
  vi.unstubAllEnvs()
  expect(pollSleepFailures, 'moving the emulator clock during a poll wait failed').toEqual([])
})

describe('Device Code profile (content-cli default): public client content-cli, RFC 8628', () => {
  it('creates the profile: discovery, device authorization for all four scopes, one poll after 5 s, approved at once as alice', async () => {
    const run = await profileCreate(['device', server.url, '1'])
    expect(run.errors).toEqual([])
    expect(run.exitCode).toBe(0)
    expect(prompts).toEqual(['Name of the profile: ', 'Your team (please provide the full url): ', 'Profile type: OAuth Device Code (1), OAuth Client Credentials (2) or Application Key / API Key (3): '])
    expect(run.info).toContain('Profile created successfully!')

    const log = await exchanges()
    expect(log.map((e) => `${e.method} ${e.path} ${e.status}`)).toEqual([
      'GET /.well-known/openid-configuration 200',
      'POST /oauth2/device_authorization 200',
      'POST /oauth2/token 200',
    ])
    const [discovery, deviceAuthorization, poll] = log as [JournalEntry, JournalEntry, JournalEntry]
    expect(answer(discovery)).toMatchObject({ device_authorization_endpoint: `${server.url}/oauth2/device_authorization`, token_endpoint: `${server.url}/oauth2/token` })
    expect(form(deviceAuthorization)).toEqual({ client_id: 'content-cli', scope: OAUTH_SCOPES.join(' ') })
    expect(deviceAuthorization.request.headers.authorization).toBeUndefined()
    const device = answer(deviceAuthorization)
    expect(device).toMatchObject({ verification_uri: `${server.url}/oauth2/device_verification`, expires_in: 300, interval: 5 })
    expect(device.user_code).toEqual(expect.any(String))
    // content-cli prints verification_uri_complete for the person to open.
    expect(run.info).toContain(`Continue authorization here: ${String(device.verification_uri_complete)}`)
    expect(String(device.verification_uri_complete)).toMatch(new RegExp(`^${server.url}/oauth2/device_verification\\?.+`))

    expect(form(poll)).toMatchObject({ grant_type: DEVICE_GRANT, client_id: 'content-cli' })
    expect(poll.request.headers.authorization).toBeUndefined()
    expect(pollWaits).toEqual([5000])

    const profile = storedProfile('device')
    expect(profile).toMatchObject({ name: 'device', team: server.url, type: 'Device Code', secretsStoredSecurely: false })
    expect(profile.refreshToken).toEqual(expect.any(String))
    expect(profile.expiresAt).toBeGreaterThanOrEqual(nowSeconds() + 899 - 2)
    expect(profile.expiresAt).toBeLessThanOrEqual(nowSeconds() + 899)
    const claims = await verify(profile.apiToken ?? '')
    expect(claims).toMatchObject({ sub: 'alice', client_id: 'content-cli' })
    expect(String(claims.scope).split(' ').sort()).toEqual([...OAUTH_SCOPES].sort())
  })

  it('the stored token works on the versions operation, sent by content-cli as Bearer', async () => {
    expect((await profileCreate(['device-use', server.url, '1'])).exitCode).toBe(0)
    const context = await loadProfile('device-use')
    const { status, data } = await versionsVia(context)
    expect(status).toBe(200)
    expect(data).toMatchObject({ count: 3 })
    const call = (await exchanges()).at(-1)
    expect(call?.path).toBe(VERSIONS)
    expect(scheme(call as JournalEntry)).toBe('Bearer')
  })

  it('once the stored token has expired, content-cli refreshes it (public client, rotated refresh token) and the new token works, twice over', async () => {
    expect((await profileCreate(['device-refresh', server.url, '1'])).exitCode).toBe(0)
    const first = storedProfile('device-refresh')

    await passTime(900_000)
    expect((await versionsWith(`Bearer ${first.apiToken}`)).status).toBe(401)
    const context = await loadProfile('device-refresh')
    const refreshes = tokenRequests(await exchanges(), 'refresh_token')
    expect(refreshes).toHaveLength(1)
    expect(form(refreshes[0] as JournalEntry)).toMatchObject({ grant_type: 'refresh_token', client_id: 'content-cli' })
    expect(form(refreshes[0] as JournalEntry)).not.toHaveProperty('scope')
    expect(refreshes[0]?.request.headers.authorization).toBeUndefined()
    expect(refreshes[0]?.status).toBe(200)

    const second = storedProfile('device-refresh')
    expect(second.apiToken).not.toBe(first.apiToken)
    expect(second.refreshToken).toEqual(expect.any(String))
    expect(second.refreshToken).not.toBe(first.refreshToken)
    expect(second.expiresAt).toBe(nowSeconds() + 899)
    expect((await versionsVia(context)).status).toBe(200)

    // The refresh token content-cli stored is the rotated one, and it works for the next refresh.
    await passTime(900_000)
    const again = await loadProfile('device-refresh')
    expect(storedProfile('device-refresh').apiToken).not.toBe(second.apiToken)
    expect((await versionsVia(again)).status).toBe(200)
  })
})

describe('Device Code profile: the failure answers reach content-cli as RFC 8628 says', () => {
  const switchOn = async (scenario: string, activation: { times?: number; route?: string } = {}): Promise<void> => {
    const { status, body } = await control('POST', `/scenarios/${scenario}`, activation)
    expect(status, JSON.stringify(body)).toBeLessThan(300)
  }

  it('device-pending: authorization_pending (400) keeps content-cli polling every 5 s on the same device code, then the token comes', async () => {
    await switchOn('device-pending')
    const run = await profileCreate(['device-pending', server.url, '1'])
    expect(run.errors).toEqual([])
    const sessions = deviceSessions(await exchanges())
    expect(sessions).toHaveLength(1)
    const polls = sessions[0]?.polls ?? []
    expect(polls.length).toBeGreaterThan(1)
    for (const poll of polls.slice(0, -1)) {
      expect(poll.status).toBe(400)
      expect(answer(poll)).toMatchObject({ error: 'authorization_pending' })
    }
    expect(polls.at(-1)?.status).toBe(200)
    expect(pollWaits).toEqual(polls.map(() => 5000))
    expect((await versionsVia(await loadProfile('device-pending'))).status).toBe(200)
  })

  it('device-slow-down (once): slow_down (400) makes content-cli wait 5 s longer before each following poll, then the token comes', async () => {
    // Once, on the first poll: on for every poll, slow_down would only stretch the interval (5, 10, 15 s…) until the code expired.
    await switchOn('device-slow-down', { times: 1, route: 'auth.token' })
    const run = await profileCreate(['device-slow', server.url, '1'])
    expect(run.errors).toEqual([])
    const polls = deviceSessions(await exchanges())[0]?.polls ?? []
    const errors = polls.map((p) => answer(p).error)
    expect(errors).toEqual(['slow_down', undefined])
    for (const poll of polls.filter((p) => p.status !== 200)) expect(poll.status).toBe(400)
    expect(polls.at(-1)?.status).toBe(200)
    const expectedWaits = polls.map((_, i) => 5000 + 5000 * errors.slice(0, i).filter((e) => e === 'slow_down').length)
    expect(pollWaits).toEqual(expectedWaits)
    expect((await versionsVia(await loadProfile('device-slow'))).status).toBe(200)
  })

  for (const [scenario, error] of [
    ['device-denied', 'access_denied'],
    ['device-expired', 'expired_token'],
  ] as const) {
    it(`${scenario}: ${error} (400) stops the polling; content-cli retries without action-engine.projects, then fails the command`, async () => {
      await switchOn(scenario)
      const run = await profileCreate([scenario, server.url, '1'])
      expect(run.exitCode).toBe(1)
      expect(run.errors.join('\n')).toContain('Device code authorization failed. The provided team or requested scopes may be invalid.')
      expect(existsSync(profileFile(scenario))).toBe(false)

      const sessions = deviceSessions(await exchanges())
      expect(sessions.map((s) => form(s.authorization).scope)).toEqual([OAUTH_SCOPES.join(' '), OAUTH_SCOPES_WITHOUT_ACTION_ENGINE.join(' ')])
      for (const { polls } of sessions) {
        const last = polls.at(-1)
        expect(last?.status).toBe(400)
        expect(answer(last as JournalEntry)).toMatchObject({ error })
        for (const poll of polls.slice(0, -1)) expect(answer(poll).error).toMatch(/^(authorization_pending|slow_down)$/)
      }
    })
  }
})

describe('Client Credentials profile: scope subsets largest first, client_secret_basic then client_secret_post', () => {
  it('basic client ci-client: the profile is created and its token works on the versions operation', async () => {
    const run = await profileCreate(['cc-basic', server.url, '2', 'ci-client', 'ci-secret'])
    expect(run.errors).toEqual([])
    expect(prompts.slice(3)).toEqual(['Your client id: ', 'Your client secret: '])
    const profile = storedProfile('cc-basic')
    expect(profile).toMatchObject({ type: 'Client Credentials', clientId: 'ci-client', clientAuthenticationMethod: 'client_secret_basic' })
    expect(profile.refreshToken).toBeUndefined()
    expect((await versionsVia(await loadProfile('cc-basic'))).status).toBe(200)
  })

  it('basic client ci-client gets all four scopes, package-manager included, on its first token request', async () => {
    expect((await profileCreate(['cc-scopes', server.url, '2', 'ci-client', 'ci-secret'])).exitCode).toBe(0)
    const requests = tokenRequests(await exchanges())
    expect(requests.map((e) => [scheme(e), form(e).scope, e.status])).toEqual([['Basic', OAUTH_SCOPES.join(' '), 200]])
    expect(storedProfile('cc-scopes').scopes).toEqual(OAUTH_SCOPES)
  })

  it('post client ci-post-client: 15 Basic attempts get invalid_client (401), the first post attempt gets all four scopes', async () => {
    const run = await profileCreate(['cc-post', server.url, '2', 'ci-post-client', 'ci-post-secret'])
    expect(run.errors).toEqual([])
    const profile = storedProfile('cc-post')
    expect(profile).toMatchObject({ clientAuthenticationMethod: 'client_secret_post' })
    expect((await versionsVia(await loadProfile('cc-post'))).status).toBe(200)

    const requests = tokenRequests(await exchanges())
    const basic = requests.filter((e) => scheme(e) === 'Basic')
    expect(basic).toHaveLength(15)
    for (const attempt of basic) {
      expect(attempt.status).toBe(401)
      expect(answer(attempt)).toMatchObject({ error: 'invalid_client' })
    }
    const post = requests.filter((e) => scheme(e) === undefined)
    expect(post.map((e) => [form(e).client_id, form(e).scope, e.status])).toEqual([['ci-post-client', OAUTH_SCOPES.join(' '), 200]])
    expect(profile.scopes).toEqual(OAUTH_SCOPES)
  })

  it('once the stored token has expired, content-cli runs the grant again with the stored method and scopes, and the new token works', async () => {
    expect((await profileCreate(['cc-refresh', server.url, '2', 'ci-client', 'ci-secret'])).exitCode).toBe(0)
    const first = storedProfile('cc-refresh')
    await passTime(900_000)
    expect((await versionsWith(`Bearer ${first.apiToken}`)).status).toBe(401)
    const before = tokenRequests(await exchanges()).length
    const context = await loadProfile('cc-refresh')
    const again = tokenRequests(await exchanges()).slice(before)
    expect(again.map((e) => [scheme(e), form(e).grant_type, form(e).scope, e.status])).toEqual([['Basic', 'client_credentials', first.scopes?.join(' '), 200]])
    expect(storedProfile('cc-refresh').apiToken).not.toBe(first.apiToken)
    expect((await versionsVia(context)).status).toBe(200)
  })
})

describe('Key profile: GET {team}/api/cloud/team, Bearer then AppKey, needs 200 with domain', () => {
  it('user API key: the Bearer probe answers 200 with domain; the profile sends Bearer and works on the versions operation', async () => {
    const run = await profileCreate(['key-user', server.url, '3', 'svcmock-user-key-alice'])
    expect(run.errors).toEqual([])
    expect(prompts.slice(3)).toEqual(['Your api token: '])
    const probes = (await exchanges()).filter((e) => e.path === '/api/cloud/team')
    expect(probes.map((e) => [scheme(e), e.status])).toEqual([['Bearer', 200]])
    expect(answer(probes[0] as JournalEntry)).toMatchObject({ id: expect.any(String), name: expect.any(String), domain: expect.stringMatching(/.+/) })
    expect(storedProfile('key-user')).toMatchObject({ type: 'Key', authenticationType: 'Bearer', apiToken: 'svcmock-user-key-alice' })
    expect((await versionsVia(await loadProfile('key-user'))).status).toBe(200)
  })

  it('application key: the Bearer probe is refused (401), the AppKey probe answers 200 with domain; the profile sends AppKey and works', async () => {
    const run = await profileCreate(['key-app', server.url, '3', 'svcmock-app-key'])
    expect(run.errors).toEqual([])
    const probes = (await exchanges()).filter((e) => e.path === '/api/cloud/team')
    expect(probes.map((e) => [scheme(e), e.status])).toEqual([
      ['Bearer', 401],
      ['AppKey', 200],
    ])
    expect(answer(probes[1] as JournalEntry).domain).toEqual(expect.stringMatching(/.+/))
    expect(storedProfile('key-app')).toMatchObject({ type: 'Key', authenticationType: 'AppKey' })
    const context = await loadProfile('key-app')
    expect((await versionsVia(context)).status).toBe(200)
    expect(scheme((await exchanges()).at(-1) as JournalEntry)).toBe('AppKey')
  })

  it('a wrong key: both probes get the gate 401, content-cli says so and exits 1 without storing the profile', async () => {
    const run = await profileCreate(['key-wrong', server.url, '3', 'not-a-key'])
    expect(run.exitCode).toBe(1)
    expect(run.errors.join('\n')).toContain('The provided team or api key is wrong.')
    expect(existsSync(profileFile('key-wrong'))).toBe(false)
    const probes = (await exchanges()).filter((e) => e.path === '/api/cloud/team')
    expect(probes.map((e) => [scheme(e), e.status])).toEqual([
      ['Bearer', 401],
      ['AppKey', 401],
    ])
  })
})

describe('environment profile: TEAM_URL and API_TOKEN, always sent as Bearer', () => {
  it('a user API key works on the versions operation (the team URL is cut to its origin)', async () => {
    vi.stubEnv('TEAM_URL', `${server.url}/some/page?x=1`)
    vi.stubEnv('API_TOKEN', 'svcmock-user-key-alice')
    const context = await loadProfile()
    expect(context.profile).toMatchObject({ team: server.url, type: 'Key', authenticationType: 'Bearer' })
    expect((await versionsVia(context)).status).toBe(200)
  })

  it('CELONIS_URL and CELONIS_API_TOKEN work the same way', async () => {
    vi.stubEnv('TEAM_URL', '')
    vi.stubEnv('API_TOKEN', '')
    vi.stubEnv('CELONIS_URL', server.url)
    vi.stubEnv('CELONIS_API_TOKEN', 'svcmock-user-key-alice')
    const context = await loadProfile()
    expect((await versionsVia(context)).status).toBe(200)
  })

  it('an application key sent as Bearer is refused: 401 with the versions error body', async () => {
    vi.stubEnv('TEAM_URL', server.url)
    vi.stubEnv('API_TOKEN', 'svcmock-app-key')
    const { status, data } = await versionsVia(await loadProfile())
    expect(status).toBe(401)
    expect(data).toMatchObject({ type: 'Unauthorized' })
  })
})

describe("content-cli's own command paths", () => {
  it('a platform path svc-mock does not emulate answers 404 "Not emulated" naming an emulated platform route, never the control plane', async () => {
    vi.stubEnv('TEAM_URL', server.url)
    vi.stubEnv('API_TOKEN', 'svcmock-user-key-alice')
    const context = await loadProfile()
    for (const path of ['/package-manager/api/spaces', '/integration/api/pools/paged']) {
      const { status, data } = await context.httpClient.getStatusAndData(path)
      expect(status).toBe(404)
      expect(data).toMatchObject({ error: 'Not emulated', path })
      // The route it names as the closest (when one is close enough) is a platform route, never the control plane.
      const closest = (data as { closest?: unknown }).closest
      if (closest !== undefined) expect(String(closest)).not.toMatch(/\/__svc-mock\//)
    }
  })
})

