/**
 * The `svc-mock` command, run as a user runs it: the built bin in a child process.
 * (`npm test` builds first.)
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { VERSION } from '../src/version.js'
import { APP_KEY, VERSIONS } from './support/harness.js'

const BIN = fileURLToPath(new URL('../bin/svc-mock.js', import.meta.url))
const children = new Set<ChildProcess>()

beforeAll(() => {
  if (!existsSync(fileURLToPath(new URL('../dist/cli.js', import.meta.url)))) throw new Error('dist/ is missing: run `npm run build` (npm test does)')
})

afterEach(() => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL')
  children.clear()
})

interface Result {
  code: number | null
  stdout: string
  stderr: string
}

function run(args: string[], env: Record<string, string> = {}): Promise<Result> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
    children.add(child)
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
    child.on('exit', (code) => resolve({ code, stdout, stderr }))
  })
}

interface Started {
  child: ChildProcess
  url: string
  output: () => string
  exited: Promise<number | null>
}

/** Starts the server and resolves once it prints its address. */
function start(args: string[], env: Record<string, string> = {}): Promise<Started> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, '--port', '0', ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
    children.add(child)
    let out = ''
    const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)))
    child.stderr.on('data', (d: Buffer) => (out += d.toString()))
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString()
      const match = /(?:listening on|from here:) (http:\/\/127\.0\.0\.1:\d+)/.exec(out)
      if (match?.[1]) resolve({ child, url: match[1], output: () => out, exited })
    })
    child.on('exit', (code) => reject(new Error(`svc-mock exited with ${String(code)} before listening:\n${out}`)))
  })
}

describe('svc-mock --help and --version', () => {
  it('prints the usage with every flag', async () => {
    const { code, stdout } = await run(['--help'])
    expect(code).toBe(0)
    expect(stdout).toContain('Usage:')
    for (const flag of ['--port', '--host', '--fixtures', '--scenario', '--scenarios', '--seed', '--clock', '--time-scale', '--log', 'SVC_MOCK_PORT', 'SVC_MOCK_SCENARIOS']) {
      expect(stdout).toContain(flag)
    }
  })

  it('prints the version', async () => {
    const { code, stdout } = await run(['--version'])
    expect(code).toBe(0)
    expect(stdout.trim()).toBe(VERSION)
  })
})

describe('bad flags exit 2 naming what is wrong', () => {
  it.each([
    [['--bogus'], /Unknown option '--bogus'/],
    [['--clock', 'sundial'], /--clock must be one of real, manual, got "sundial"/],
    [['--log', 'loud'], /--log must be one of pretty, json, silent/],
    [['--time-scale', '0'], /--time-scale must be a number above 0/],
    [['--clock', 'manual', '--time-scale', '0.5'], /--time-scale applies to the real clock only/],
    [['--scenario', 'no-such-scenario'], /Unknown scenario "no-such-scenario"/],
    [['--scenario', 'latency:ms=soon'], /params\.ms: must be a number/],
    [['--scenario', 'webhook-queue-full:webhook=order'], /no webhook "order" exists \(did you mean "orders"\?/],
    [['--scenario', 'token-slow:client=ci-clinet'], /no client "ci-clinet" exists \(did you mean "ci-client"\?/],
    [['serve'], /unknown command "serve"/],
  ])('%j', async (args, message) => {
    const { code, stderr } = await run([...args, '--port', '0'])
    expect(code).toBe(2)
    expect(stderr).toMatch(message)
  })

  it('names a bad --port', async () => {
    const { code, stderr } = await run(['--port', 'eighty'])
    expect(code).toBe(2)
    expect(stderr).toMatch(/--port must be a whole number from 0 to 65535, got "eighty"/)
  })

  it('names the fixture file, path and rule', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-mock-cli-'))
    const file = join(dir, 'mine.json')
    writeFileSync(file, JSON.stringify({ users: [{ id: 'carol', name: 'Carol', permissions: [{ action: 'read' }] }] }))
    const { code, stderr } = await run(['--fixtures', file, '--port', '0'])
    expect(code).toBe(2)
    expect(stderr).toContain(`Invalid fixture ${file} at users[0].permissions[0].resource:`)
  })

  it('names the scenario file, field and rule', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-mock-cli-'))
    writeFileSync(join(dir, 'slow-token.json'), JSON.stringify({ name: 'slow-token', description: 'Tokens come late.', rules: [{ route: 'auth.token', delay: 'long' }] }))
    const { code, stderr } = await run(['--scenarios', dir, '--port', '0'])
    expect(code).toBe(2)
    expect(stderr).toContain(`Invalid scenario ${join(dir, 'slow-token.json')} at rules[0].delay:`)
  })
})

describe('svc-mock serving', () => {
  it('prints its addresses and default credentials, answers the versions operation, and exits 0 on SIGTERM', async () => {
    const server = await start(['--log', 'silent'])
    expect(server.output()).toContain('Authorization: AppKey svcmock-app-key')
    expect(server.output()).toContain('Authorization: Bearer svcmock-user-key-alice')
    expect(server.output()).toContain(`${server.url}/__svc-mock/`)
    expect(server.output()).toMatch(new RegExp(`Dashboard +${server.url}/__svc-mock/ `))
    const page = await fetch(`${server.url}/__svc-mock/`)
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8')
    await page.text()
    const response = await fetch(`${server.url}${VERSIONS()}`, { headers: APP_KEY })
    expect(response.status).toBe(200)
    const body = (await response.json()) as { elements: Array<{ state: string }> }
    expect(body.elements.map((e) => e.state)).toEqual(['expired', 'released', 'inProcess'])
    server.child.kill('SIGTERM')
    expect(await server.exited).toBe(0)
  })

  it('bound beyond loopback (--host 0.0.0.0): the banner says the real address and warns that the control plane is open to that network', async () => {
    const server = await start(['--host', '0.0.0.0'])
    expect(server.output()).toMatch(/listening on http:\/\/0\.0\.0\.0:\d+ \(every network interface of this machine\)/)
    expect(server.output()).toMatch(/WARNING: svc-mock listens beyond loopback, and its control plane .* needs no credential/)
    server.child.kill('SIGTERM')
    expect(await server.exited).toBe(0)
  })

  it('closes cleanly on SIGINT too', async () => {
    const server = await start(['--log', 'silent'])
    server.child.kill('SIGINT')
    expect(await server.exited).toBe(0)
  })

  it('logs each request with its route and status', async () => {
    const server = await start([])
    await fetch(`${server.url}${VERSIONS()}`, { headers: APP_KEY })
    await fetch(`${server.url}/__svc-mock/journal/wait?route=versions.list&since=0`)
    expect(server.output()).toMatch(/GET\s+\/acme-collection\/acme-tenant\/_api\/rest\/.*-> 200 {2}versions\.list {2}application key default-app-key/)
    server.child.kill('SIGTERM')
    await server.exited
  })

  it('switches scenarios on from --scenario and from SVC_MOCK_SCENARIOS', async () => {
    const flagged = await start(['--log', 'silent', '--scenario', 'versions-not-found'])
    expect(flagged.output()).toContain('Scenarios on: versions-not-found')
    expect((await fetch(`${flagged.url}${VERSIONS()}`, { headers: APP_KEY })).status).toBe(404)
    flagged.child.kill('SIGTERM')
    const fromEnv = await start(['--log', 'silent'], { SVC_MOCK_SCENARIOS: 'versions-server-error' })
    expect((await fetch(`${fromEnv.url}${VERSIONS()}`, { headers: APP_KEY })).status).toBe(500)
    fromEnv.child.kill('SIGTERM')
    await Promise.all([flagged.exited, fromEnv.exited])
  })

  it('serves a manual clock that moves only through the control plane', async () => {
    const server = await start(['--log', 'silent', '--clock', 'manual'])
    const before = (await (await fetch(`${server.url}/__svc-mock/clock`)).json()) as { now: string; mode: string }
    expect(before.mode).toBe('manual')
    const after = (await (await fetch(`${server.url}/__svc-mock/clock/advance`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ms: 1000 }) })).json()) as { now: string }
    expect(Date.parse(after.now) - Date.parse(before.now)).toBe(1000)
    server.child.kill('SIGTERM')
    await server.exited
  })

  it('exits 1 saying so when the port is in use', async () => {
    const blocker = createServer()
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve))
    const address = blocker.address()
    const port = typeof address === 'object' && address ? address.port : 0
    try {
      const { code, stderr } = await run(['--port', String(port)])
      expect(code).toBe(1)
      expect(stderr).toContain(`Port ${port} on 127.0.0.1 is already in use`)
    } finally {
      blocker.close()
    }
  })

  it('loads what a running server saved (GET /__svc-mock/scenarios.json) with --scenarios DIR, and --scenario NAME switches the same set on', async () => {
    const first = await start(['--log', 'silent', '--scenario', 'webhook-queue-full:capacity=1,webhook=orders', '--scenario', 'token-server-error:client=ci-client'])
    const saved = await fetch(`${first.url}/__svc-mock/scenarios.json?name=qa-session`)
    const dir = mkdtempSync(join(tmpdir(), 'svc-mock-cli-'))
    writeFileSync(join(dir, 'qa-session.json'), await saved.text())
    first.child.kill('SIGTERM')
    await first.exited

    const server = await start(['--log', 'silent', '--scenarios', dir, '--scenario', 'qa-session'])
    const hook = (): Promise<Response> => fetch(`${server.url}/hooks/orders`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"orderId":"A"}' })
    expect([(await hook()).status, (await hook()).status]).toEqual([200, 400])
    const tokenOf = async (id: string, secret: string): Promise<number> =>
      (await fetch(`${server.url}/oauth2/token`, { method: 'POST', headers: { authorization: `Basic ${btoa(`${id}:${secret}`)}`, 'content-type': 'application/x-www-form-urlencoded' }, body: 'grant_type=client_credentials' })).status
    expect([await tokenOf('ci-client', 'ci-secret'), await tokenOf('limited-client', 'limited-secret')]).toEqual([500, 200])
    const on = (await (await fetch(`${server.url}/__svc-mock/scenarios`)).json()) as Array<{ name: string; active: boolean }>
    expect(on.filter((s) => s.active).map((s) => s.name)).toEqual(['qa-session'])
    server.child.kill('SIGTERM')
    expect(await server.exited).toBe(0)
  })

  it('takes its port from SVC_MOCK_PORT, and a flag wins over the variable', async () => {
    const { code, stderr } = await run([], { SVC_MOCK_PORT: 'not-a-port' })
    expect(code).toBe(2)
    expect(stderr).toContain('--port must be a whole number')
    const server = await start(['--log', 'silent'], { SVC_MOCK_PORT: 'not-a-port' })
    server.child.kill('SIGTERM')
    expect(await server.exited).toBe(0)
  })
})

describe('svc-mock scenarios', () => {
  it('lists the catalogue with descriptions and how to switch one on', async () => {
    const { code, stdout } = await run(['scenarios'])
    expect(code).toBe(0)
    expect(stdout).toMatch(/^latency:ms=1500\n {4}The platform is slow/m)
    expect(stdout).toContain('versions-not-found')
    expect(stdout).toContain('x-svc-mock-scenario')
  })
})
