/**
 * The command's flags for your routes and your team, run as a user runs them (the built bin in a
 * child process; `npm test` builds first): `--routes PATH` (repeatable, `SVC_MOCK_ROUTES`), a bad
 * route file exits 2 naming the file, the route and the field; `--proxy URL --record DIR` then
 * `--routes DIR` is the recording walk-through of docs/routes.md, end to end. The help and the
 * refusals, which end before anything serves, run the command's `main()` in this process (`runMain`).
 */
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import { killStarted, runMain, spawnCli } from '../support/cli.js'

const EXAMPLES = fileURLToPath(new URL('../../docs/examples/', import.meta.url))
const APP_KEY = { authorization: 'AppKey svcmock-app-key' }

afterEach(killStarted)


/** Starts a server (`--log pretty`) and resolves with its URL and its banner once it listens. */
function start(args: string[], env: Record<string, string> = {}): Promise<{ url: string; banner: string; output(): string; stop(): Promise<number | null> }> {
  return new Promise((resolve, reject) => {
    const child = spawnCli(['--port', '0', ...args], env)
    let out = ''
    const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)))
    child.stderr.on('data', (d: Buffer) => (out += d.toString()))
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString()
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out)
      if (match?.[1] && out.includes('Ctrl+C')) {
        resolve({
          url: match[1],
          banner: out,
          output: () => out,
          stop: async () => {
            child.kill('SIGTERM')
            return await exited
          },
        })
      }
    })
    void exited.then((code) => reject(new Error(`svc-mock exited with ${String(code)} before listening:\n${out}`)))
  })
}

describe('--routes', () => {
  it('serves the route files of a folder, says so in the banner, and takes several paths from SVC_MOCK_ROUTES', async () => {
    const server = await start(['--routes', EXAMPLES])
    expect(server.banner).toMatch(/Your routes +11 routes, 2 resources \(pools, spaces\): GET http:\/\/127\.0\.0\.1:\d+\/__svc-mock\/routes lists them/)
    const pools = (await (await fetch(`${server.url}/integration/api/pools`, { headers: APP_KEY })).json()) as Array<{ name: string }>
    expect(pools.map((p) => p.name)).toEqual(['SAP ECC', 'Salesforce'])
    expect(await server.stop()).toBe(0)
    const both = await start([], { SVC_MOCK_ROUTES: `${join(EXAMPLES, 'data-pools.json')}:${join(EXAMPLES, 'spaces.json')}` })
    expect((await fetch(`${both.url}/package-manager/api/spaces`, { headers: APP_KEY })).status).toBe(200)
    expect((await fetch(`${both.url}/integration/api/pools`, { headers: APP_KEY })).status).toBe(200)
    expect(await both.stop()).toBe(0)
  })

  it('exits 2 for a bad route file, naming the file, the route\'s index and id, the field and the closest valid name', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-mock-routes-'))
    const file = join(dir, 'pools.json')
    writeFileSync(file, JSON.stringify({ routes: [{ id: 'ok', method: 'GET', path: '/ok' }, { id: 'pools.list', method: 'GET', path: '/integration/api/pools', respons: { body: [] } }] }))
    const bad = await runMain(['--routes', dir, '--port', '0'])
    expect(bad.code).toBe(2)
    expect(bad.stdout).toBe('')
    expect(bad.stderr).toContain(`Invalid routes file ${file}, routes[1] (id "pools.list"), field respons: unknown field "respons" (did you mean "response"?)`)
    const fromVariable = await runMain(['--port', '0'], { SVC_MOCK_ROUTES: join(dir, 'missing.json') })
    expect(fromVariable.code).toBe(2)
    expect(fromVariable.stderr).toContain('Invalid routes file')
    expect(fromVariable.stderr).toContain('missing.json: does not exist')
    writeFileSync(file, JSON.stringify({ routes: [{ id: 'team', method: 'GET', path: '/api/cloud/team' }] }))
    const clash = await runMain(['--routes', file, '--port', '0'])
    expect(clash.code).toBe(2)
    expect(clash.stderr).toContain('routes[0] (id "team"), field path: clashes with the built-in route auth.team (GET /api/cloud/team)')
  })

  it('takes the route file it started with again over POST /__svc-mock/routes (201), as docs/routes.md does, serving it as before', async () => {
    const file = join(EXAMPLES, 'data-pools.json')
    const server = await start(['--routes', file])
    const posted = await fetch(`${server.url}/__svc-mock/routes`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: readFileSync(file) })
    expect(posted.status, await posted.clone().text()).toBe(201)
    const pools = (await (await fetch(`${server.url}/integration/api/pools`, { headers: APP_KEY })).json()) as Array<{ name: string }>
    expect(pools.map((p) => p.name)).toEqual(['SAP ECC', 'Salesforce'])
    expect(await server.stop()).toBe(0)
  })

  it('is in the help with --proxy, --record and their variables', async () => {
    const { stdout } = await runMain(['--help'])
    for (const text of ['--routes PATH', 'SVC_MOCK_ROUTES', '--proxy URL', 'SVC_MOCK_PROXY', '--record DIR', 'SVC_MOCK_RECORD', '--proxy-timeout MS']) expect(stdout).toContain(text)
  })
})

describe('--proxy and --record', () => {
  it('exits 2 for --record without --proxy, and for a proxy URL that is not http(s)', async () => {
    const record = await runMain(['--record', tmpdir(), '--port', '0'])
    expect(record.code).toBe(2)
    expect(record.stderr).toContain('--record records what the proxy forwards: give --proxy URL (or SVC_MOCK_PROXY) too')
    const proxy = await runMain(['--port', '0'], { SVC_MOCK_PROXY: 'ftp://team.example' })
    expect(proxy.code).toBe(2)
    expect(proxy.stderr).toContain('SVC_MOCK_PROXY must use http or https, got "ftp://team.example"')
  })

  it('records what the team answers, and --routes DIR answers it offline (the walk-through of docs/routes.md)', async () => {
    const team = createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(JSON.stringify([{ id: 'team-pool', name: `seen with ${req.headers.authorization === undefined ? 'no' : 'a'} credential` }]))
    })
    await new Promise<void>((resolve) => team.listen(0, '127.0.0.1', () => resolve()))
    const recorded = mkdtempSync(join(tmpdir(), 'svc-mock-recorded-'))
    try {
      const proxy = await start(['--proxy', `http://127.0.0.1:${(team.address() as { port: number }).port}`, '--record', recorded])
      expect(proxy.banner).toContain(`Proxy                   every other path goes to http://127.0.0.1:`)
      expect(proxy.banner).toContain(`recorded into ${recorded}`)
      const live = await (await fetch(`${proxy.url}/integration/api/pools`, { headers: { authorization: 'Bearer my-real-token' } })).json()
      // Closing waits for the recordings under way, and the log says where each went.
      expect(await proxy.stop()).toBe(0)
      expect(readdirSync(recorded)).toEqual([expect.stringMatching(/^get\.0\.integration\.api\.pools\.[0-9a-f]{10}\.json$/)])
      expect(proxy.output()).toContain(`--record: GET /integration/api/pools -> 200, recorded in ${readdirSync(recorded)[0] ?? ''}`)
      const offline = await start(['--routes', recorded])
      expect(await (await fetch(`${offline.url}/integration/api/pools`, { headers: APP_KEY })).json()).toEqual(live)
      expect((await fetch(`${offline.url}/integration/api/pools`)).status).toBe(401)
      expect(await offline.stop()).toBe(0)
    } finally {
      await new Promise<void>((resolve) => team.close(() => resolve()))
    }
  })
})
