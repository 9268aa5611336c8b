/**
 * The `svc-mock` command, run as a user runs it: the built bin in a child process.
 * (`npm test` builds first.) `svc-mock exec` and the process trees of npx: exec.test.ts.
 * The answers that end before anything serves (the usage of each command, the catalogue, every
 * bad flag, variable, fixture and scenario file) run through the command's `main()` in this
 * process (`runMain`), which is what the bin runs; the bin itself answers the usage, the version,
 * a bad flag, a bad variable and a JSON error once each here, and serves in every test below.
 */
import type { ChildProcess } from 'node:child_process'
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs'
import module from 'node:module'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { VERSION } from '../../src/version.js'
import { ALICE_KEY, APP_KEY, VERSIONS } from '../support/harness.js'
import { killStarted, runCli, runMain, spawnCli } from '../support/cli.js'


beforeAll(() => {
  if (!existsSync(fileURLToPath(new URL('../../dist/cli.js', import.meta.url)))) throw new Error('dist/ is missing: run `npm run build` (npm test does)')
})

afterEach(killStarted)



interface Started {
  child: ChildProcess
  url: string
  /** Standard output and error as they came. */
  output: () => string
  stdout: () => string
  exited: Promise<number | null>
}

/** A port nothing listens on now (for a silent server, which prints no address). */
async function freePort(): Promise<number> {
  const probe = createServer()
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve))
  const address = probe.address()
  await new Promise<void>((resolve) => probe.close(() => resolve()))
  return typeof address === 'object' && address ? address.port : 0
}

/** Resolves once something answers on the URL (a silent server says nothing when it is ready). */
async function answering(url: string, exited: Promise<number | null>): Promise<void> {
  let gone = false
  void exited.then(() => (gone = true))
  for (;;) {
    if (gone) throw new Error('svc-mock exited before it answered')
    try {
      await (await fetch(`${url}/__svc-mock/health`)).text()
      return
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 10))
    }
  }
}

/** Starts the server and resolves once it listens: it prints its address (pretty or JSON), or, silent, answers. */
async function start(args: string[], env: Record<string, string> = {}): Promise<Started> {
  const silent = args.join(' ').includes('--log silent')
  const port = silent ? await freePort() : 0
  return await new Promise((resolve, reject) => {
    const child = spawnCli(['--port', String(port), ...args], env)
    let out = ''
    let stdout = ''
    const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)))
    child.stderr.on('data', (d: Buffer) => (out += d.toString()))
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString()
      stdout += d.toString()
      const match = /(?:listening on|from here:) (http:\/\/127\.0\.0\.1:\d+)/.exec(out) ?? /"event":"listening".*?"url":"(http:\/\/127\.0\.0\.1:\d+)"/.exec(out)
      if (match?.[1]) resolve({ child, url: match[1], output: () => out, stdout: () => stdout, exited })
    })
    child.on('exit', (code) => reject(new Error(`svc-mock exited with ${String(code)} before listening:\n${out}`)))
    if (silent) {
      const url = `http://127.0.0.1:${port}`
      answering(url, exited).then(() => resolve({ child, url, output: () => out, stdout: () => stdout, exited }), reject)
    }
  })
}

describe('svc-mock --help and --version', () => {
  it('prints the usage with every flag', async () => {
    const { code, stdout } = await runCli(['--help'])
    expect(code).toBe(0)
    expect(stdout).toContain('Usage:')
    for (const flag of ['--port', '--host', '--fixtures', '--scenario', '--scenarios', '--seed', '--clock', '--time-scale', '--log', 'SVC_MOCK_PORT', 'SVC_MOCK_SCENARIOS']) {
      expect(stdout).toContain(flag)
    }
  })

  it('names the docs', async () => {
    const { stdout } = await runMain(['--help'])
    expect(stdout).toMatch(/Docs: .*README\.md and .*docs\/ \(scenarios\.md, assumptions\.md, openapi\.json\)/)
  })

  it.each([
    [['help'], 'svc-mock [options]'],
    [['help', 'exec'], 'svc-mock exec [options] -- <command> [args…]'],
    [['exec', '--help'], 'SVC_MOCK_WEBHOOK_URL'],
    [['help', 'scenarios'], 'svc-mock scenarios [options]'],
    [['scenarios', '-h'], 'Lists the failure scenarios'],
    [['help', 'help'], 'svc-mock help [command]'],
  ])('%j prints the usage of that command and the docs', async (args, text) => {
    const { code, stdout } = await runMain(args)
    expect(code).toBe(0)
    expect(stdout).toContain(text)
    expect(stdout).toContain('Docs: ')
  })

  it('prints the version', async () => {
    const { code, stdout } = await runCli(['--version'])
    expect(code).toBe(0)
    expect(stdout.trim()).toBe(VERSION)
  })
})

describe('bad flags exit 2 naming what is wrong', () => {
  it.each([
    [['--bogus'], /unknown flag --bogus\. svc-mock --help lists the flags/],
    [['--prot', '4010'], /unknown flag --prot \(did you mean --port\?\)/],
    [['--scenaro', 'latency'], /unknown flag --scenaro \(did you mean --scenario\?\)/],
    [['--port'], /--port needs a value, e\.g\. --port 4010/],
    [['--log', 'jsno'], /--log must be one of pretty, json, silent, got "jsno" \(did you mean json\?\)/],
    [['--scenario', 'latncy'], /--scenario: Unknown scenario "latncy" \(did you mean "latency"\?\)/],
    [['scenrios'], /unknown command "scenrios" \(did you mean scenarios\?\)/],
    [['help', 'exce'], /no help for "exce" \(did you mean exec\?\)/],
    [['exec'], /exec needs a command after --/],
    [['--', 'npm', 'test'], /"--" and a command are for svc-mock exec/],
    [['--clock', 'sundial'], /--clock must be one of real, manual, got "sundial"/],
    [['--log', 'loud'], /--log must be one of pretty, json, silent/],
    [['--time-scale', '0'], /--time-scale must be a number above 0/],
    [['--clock', 'manual', '--time-scale', '0.5'], /--time-scale applies to the real clock only/],
    [['--scenario', 'no-such-scenario'], /Unknown scenario "no-such-scenario"/],
    [['--scenario', 'latency:ms=soon'], /params\.ms: must be a number/],
    [['--scenario', 'webhook-queue-full:webhook=order'], /no webhook "order" exists \(did you mean "orders"\?/],
    [['--scenario', 'token-slow:client=ci-clinet'], /no client "ci-clinet" exists \(did you mean "ci-client"\?/],
    [['serve'], /unknown command "serve"/],
    [['--teams', 'two'], /--teams must be a whole number from 0 to 1000, got "two"/],
    [['--teams', '3', '--max-teams', '2'], /--teams must be a whole number from 0 to 2, got "3"/],
  ])('%j', async (args, message) => {
    const { code, stderr } = await runMain([...args, '--port', '0'])
    expect(code).toBe(2)
    expect(stderr).toMatch(message)
  })

  it('names a bad --port', async () => {
    const { code, stderr } = await runCli(['--port', 'eighty'])
    expect(code).toBe(2)
    expect(stderr).toMatch(/--port must be a whole number from 0 to 65535, got "eighty"/)
  })

  it.each([
    [{ SVC_MOCK_PORT: 'abc' }, /^svc-mock: SVC_MOCK_PORT must be a whole number from 0 to 65535, got "abc"/],
    [{ SVC_MOCK_CLOCK: 'sundial' }, /^svc-mock: SVC_MOCK_CLOCK must be one of real, manual, got "sundial"/],
    [{ SVC_MOCK_SEED: '-1' }, /^svc-mock: SVC_MOCK_SEED must be a whole number/],
    [{ SVC_MOCK_TIME_SCALE: '0' }, /^svc-mock: SVC_MOCK_TIME_SCALE must be a number above 0/],
    [{ SVC_MOCK_DEFAULT_FIXTURES: 'no' }, /^svc-mock: SVC_MOCK_DEFAULT_FIXTURES must be true or false/],
    [{ SVC_MOCK_SCENARIOS: 'latncy' }, /^svc-mock: SVC_MOCK_SCENARIOS: Unknown scenario "latncy" \(did you mean "latency"\?\)/],
    [{ SVC_MOCK_SCENARIOS: 'latency:ms=soon' }, /^svc-mock: SVC_MOCK_SCENARIOS: Invalid scenario latency at params\.ms: must be a number, got "soon"/],
  ])('an error in an environment variable names the variable: %j', async (env, message) => {
    const { code, stderr } = await runMain([], env)
    expect(code).toBe(2)
    expect(stderr).toMatch(message)
  })

  it('with --log json, an error is one JSON object on standard error and nothing is on standard output', async () => {
    const { code, stdout, stderr } = await runCli(['--log', 'json', '--prot', '1'])
    expect(code).toBe(2)
    expect(stdout).toBe('')
    const lines = stderr.trim().split('\n')
    expect(lines).toHaveLength(1)
    expect(JSON.parse(lines[0] ?? '')).toMatchObject({ level: 'error', event: 'error', code: 'ERR_USAGE', exitCode: 2, message: expect.stringContaining('did you mean --port?') })
  })

  it('names the fixture file, path and rule', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-mock-cli-'))
    const file = join(dir, 'mine.json')
    writeFileSync(file, JSON.stringify({ users: [{ id: 'carol', name: 'Carol', permissions: [{ action: 'read' }] }] }))
    const { code, stderr } = await runMain(['--fixtures', file, '--port', '0'])
    expect(code).toBe(2)
    expect(stderr).toContain(`Invalid fixture ${file} at users[0].permissions[0].resource:`)
  })

  it('exits 2 naming an unknown member of a fixture record and the closest known member', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-mock-cli-'))
    const file = join(dir, 'typo.json')
    writeFileSync(file, JSON.stringify({ $schema: '../node_modules/svc-mock/docs/fixtures.schema.json', users: [{ idd: 'dave', name: 'Dave', permissions: [] }] }))
    const { code, stderr } = await runMain(['--fixtures', file, '--port', '0'])
    expect(code).toBe(2)
    expect(stderr).toContain(`Invalid fixture ${file} at users[0]: unknown member "idd" (did you mean "id"?)`)
  })

  it('names the scenario file, field and rule', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-mock-cli-'))
    writeFileSync(join(dir, 'slow-token.json'), JSON.stringify({ name: 'slow-token', description: 'Tokens come late.', rules: [{ route: 'auth.token', delay: 'long' }] }))
    const { code, stderr } = await runMain(['--scenarios', dir, '--port', '0'])
    expect(code).toBe(2)
    expect(stderr).toContain(`Invalid scenario ${join(dir, 'slow-token.json')} at rules[0].delay:`)
  })
})

describe('svc-mock refusing a scenario file with a typo', () => {
  it('a rule aimed at a route that does not exist: exit 2, naming the file, the field and the closest route', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-mock-cli-'))
    writeFileSync(join(dir, 'slow-versions.json'), JSON.stringify({ name: 'slow-versions', description: 'Versions come late.', rules: [{ route: 'version.*', delay: 500 }] }))
    const { code, stderr } = await runMain(['--scenarios', dir, '--port', '0'])
    expect(code).toBe(2)
    expect(stderr).toContain(`Invalid scenario ${join(dir, 'slow-versions.json')} at rules[0].route: "version.*" matches no route (did you mean "versions.*"?`)
  })

  it('a field of the wrong type: exit 2, saying the type expected', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-mock-cli-'))
    writeFileSync(join(dir, 'slow-token.json'), JSON.stringify({ name: 'slow-token', description: 'Tokens come late.', rules: [{ route: 'auth.token', delay: 'long' }] }))
    const { code, stderr } = await runMain(['--scenarios', dir, '--port', '0'])
    expect(code).toBe(2)
    expect(stderr).toContain('at rules[0].delay: expected a number or {"$param": "<parameter name>"}, received string')
  })
})

describe('svc-mock serving', () => {
  it('prints its addresses and default credentials, answers the versions operation, and exits 0 on SIGTERM', async () => {
    const server = await start([])
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
    const flagged = await start(['--scenario', 'versions-not-found'])
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
      const { code, stderr } = await runCli(['--port', String(port)])
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
    const { code, stderr } = await runCli([], { SVC_MOCK_PORT: 'not-a-port' })
    expect(code).toBe(2)
    expect(stderr).toContain('SVC_MOCK_PORT must be a whole number')
    const server = await start(['--log', 'silent'], { SVC_MOCK_PORT: 'not-a-port' })
    server.child.kill('SIGTERM')
    expect(await server.exited).toBe(0)
  })
})

describe("Node's compile cache", () => {
  // Node.js >= 22.1 keeps the compiled code of ES modules between runs once the bin asks it to
  // (module.enableCompileCache), in <tmp>/node-compile-cache; Node.js 20 has no such cache.
  const nodeCaches = typeof (module as { enableCompileCache?: unknown }).enableCompileCache === 'function'
  const serveOnce = async (env: Record<string, string>): Promise<void> => {
    const server = await start(['--log', 'silent'], env)
    expect((await fetch(`${server.url}${VERSIONS()}`, { headers: APP_KEY })).status).toBe(200)
    server.child.kill('SIGINT')
    expect(await server.exited).toBe(0)
  }

  it('is on where Node.js has one, and off with NODE_DISABLE_COMPILE_CACHE=1', async () => {
    const on = mkdtempSync(join(tmpdir(), 'svc-mock-cc-'))
    await serveOnce({ TMPDIR: on })
    expect(existsSync(join(on, 'node-compile-cache'))).toBe(nodeCaches)
    const off = mkdtempSync(join(tmpdir(), 'svc-mock-cc-'))
    await serveOnce({ TMPDIR: off, NODE_DISABLE_COMPILE_CACHE: '1' })
    expect(existsSync(join(off, 'node-compile-cache'))).toBe(false)
  })
})

describe('svc-mock scenarios', () => {
  it('lists the catalogue with descriptions and how to switch one on', async () => {
    const { code, stdout } = await runMain(['scenarios'])
    expect(code).toBe(0)
    expect(stdout).toMatch(/^latency:ms=1500\n {4}The platform is slow/m)
    expect(stdout).toContain('versions-not-found')
    expect(stdout).toContain('x-svc-mock-scenario')
  })
})

describe('--log json and --log silent', () => {
  it('--log json: every line on standard output is one JSON object, the banner a "listening" event with the addresses and the credentials\' labels', async () => {
    const server = await start(['--log', 'json'])
    await fetch(`${server.url}${VERSIONS()}`, { headers: APP_KEY })
    await fetch(`${server.url}/no/such/path`)
    await fetch(`${server.url}/hooks/orders`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"orderId":"A-1"}' })
    await fetch(`${server.url}/__svc-mock/journal/wait?route=webhooks.receive&since=0`)
    server.child.kill('SIGTERM')
    expect(await server.exited).toBe(0)
    const lines = server.stdout().split('\n').filter((line) => line !== '')
    const events = lines.map((line) => JSON.parse(line) as { event: string; [key: string]: unknown })
    expect(events[0]).toMatchObject({
      level: 'info',
      event: 'listening',
      url: server.url,
      urls: { auth: server.url, base: server.url, webhook: server.url },
      dashboard: `${server.url}/__svc-mock/`,
      credentials: expect.arrayContaining([
        { kind: 'application key', id: 'default-app-key', label: 'default-app-key' },
        { kind: 'OAuth client', id: 'ci-client', label: 'client credentials, basic' },
      ]),
    })
    expect(events.filter((e) => e.event === 'request').map((e) => [e.route, e.status])).toEqual([
      ['versions.list', 200],
      ['unmatched', 404],
      ['webhooks.receive', 200],
    ])
    expect(events.slice(-2).map((e) => e.event)).toEqual(['stopping', 'stopped'])
    // Labels, never the credentials themselves.
    expect(server.stdout()).not.toMatch(/ci-secret|svcmock-app-key|svcmock-user-key/)
  })

  it('--log silent: nothing at all on standard output or error, from start to SIGINT', async () => {
    const server = await start(['--log', 'silent'])
    expect((await fetch(`${server.url}${VERSIONS()}`, { headers: APP_KEY })).status).toBe(200)
    server.child.kill('SIGINT')
    expect(await server.exited).toBe(0)
    expect(server.output()).toBe('')
  })

  it('SVC_MOCK_LOG=json does the same as --log json', async () => {
    const server = await start([], { SVC_MOCK_LOG: 'json' })
    server.child.kill('SIGTERM')
    expect(await server.exited).toBe(0)
    for (const line of server.stdout().trim().split('\n')) expect(() => JSON.parse(line) as unknown).not.toThrow()
    expect(server.stdout()).toContain('"event":"listening"')
  })
})

describe('started through npm (npx svc-mock)', () => {
  it('the --log json listening line names svc-mock\'s own pid, which SIGINT stops as SIGTERM does (npm hands SIGINT to a shell that keeps it)', async () => {
    const server = await start(['--log', 'json'])
    const listening = JSON.parse(server.stdout().split('\n')[0] ?? '{}') as { event?: string; pid?: number }
    expect(listening.event).toBe('listening')
    expect(listening.pid).toBe(server.child.pid)
    process.kill(listening.pid ?? 0, 'SIGINT')
    expect(await server.exited).toBe(0)
    expect(server.stdout()).toContain('"event":"stopping","signal":"SIGINT"')
  })
})

describe('--teams N', () => {
  it('makes team-1 … team-N at start, each answering on its own port, listed in the --log json listening line', async () => {
    const server = await start(['--teams', '2', '--log', 'json'])
    const listening = JSON.parse(server.stdout().split('\n')[0] ?? '{}') as { teams: Array<{ name: string; url: string; main: boolean }> }
    expect(listening.teams.map((t) => [t.name, t.main])).toEqual([
      ['main', true],
      ['team-1', false],
      ['team-2', false],
    ])
    expect(listening.teams[0]?.url).toBe(server.url)
    for (const team of listening.teams) expect((await fetch(`${team.url}${VERSIONS()}`, { headers: APP_KEY })).status).toBe(200)
    server.child.kill('SIGTERM')
    expect(await server.exited).toBe(0)
    for (const team of listening.teams) await expect(fetch(`${team.url}/__svc-mock/health`)).rejects.toThrow()
    const requests = server.stdout().trim().split('\n').map((line) => JSON.parse(line) as { event: string; route?: string; team?: string })
    expect(requests.filter((e) => e.route === 'versions.list').map((e) => e.team ?? 'main')).toEqual(['main', 'team-1', 'team-2'])
  })

  it("each team made with --teams 2 is its own team on the platform's routes: /api/cloud/team, /api/team and /api/cloud name team-N at its host", async () => {
    const server = await start(['--teams', '2', '--log', 'json'])
    const listening = JSON.parse(server.stdout().split('\n')[0] ?? '{}') as { teams: Array<{ name: string; url: string }> }
    const named = async (url: string): Promise<unknown[]> => {
      const cloudTeam = (await (await fetch(`${url}/api/cloud/team`, { headers: APP_KEY })).json()) as Record<string, unknown>
      const team = (await (await fetch(`${url}/api/team`, { headers: APP_KEY })).json()) as Record<string, unknown>
      const cloud = (await (await fetch(`${url}/api/cloud`, { headers: ALICE_KEY })).json()) as Record<string, unknown>
      return [cloudTeam.id, cloudTeam.name, cloudTeam.domain, team.id, team.name, team.domain, cloud.teamId, cloud.teamName, cloud.teamDomain]
    }
    const [main, one, two] = await Promise.all(listening.teams.map((t) => named(t.url)))
    expect(main).toEqual(['acme', 'Acme', '127.0.0.1', 'acme', 'Acme', '127.0.0.1', 'acme', 'Acme', '127.0.0.1'])
    expect(one).toEqual(['team-1', 'team-1', '127.0.0.1', 'team-1', 'team-1', '127.0.0.1', 'team-1', 'team-1', '127.0.0.1'])
    expect(two).toEqual(['team-2', 'team-2', '127.0.0.1', 'team-2', 'team-2', '127.0.0.1', 'team-2', 'team-2', '127.0.0.1'])
  })

  it('SVC_MOCK_TEAMS does the same; the banner lists each team with its address and dashboard, and its request lines name it', async () => {
    const server = await start([], { SVC_MOCK_TEAMS: '1' })
    const team = /team-1 +(http:\/\/127\.0\.0\.1:\d+) {2}\(dashboard (\S+)\)/.exec(server.output())
    expect(team?.[2]).toBe(`${team?.[1] ?? ''}/__svc-mock/`)
    expect(server.output()).toContain(`make more with POST ${server.url}/__svc-mock/teams`)
    expect((await fetch(`${team?.[1] ?? ''}${VERSIONS()}`, { headers: APP_KEY })).status).toBe(200)
    server.child.kill('SIGTERM')
    expect(await server.exited).toBe(0)
    expect(server.output()).toMatch(/\[team-1\] GET +\/acme-collection\/\S+ -> 200  versions\.list/)
  })
})
