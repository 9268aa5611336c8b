/**
 * `svc-mock exec` and `npx svc-mock`, tested by the process trees they really make: the command in
 * a group of its own that ends whole when the command ends or svc-mock is told to stop (background
 * children, and a child that ignores SIGTERM, included), signals passed on, and svc-mock ending
 * when the process that started it dies, be it its parent or npm's `sh -c` between it and npx. A
 * process's end is awaited by polling it for a bounded while; no duration is asserted.
 */
import { type ChildProcessByStdio, spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Readable } from 'node:stream'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { BIN, killStarted, runCli, spawnCli, track } from '../support/cli.js'
import { alive, goneWithin, killAlive, lines, parentOf, portFree } from '../support/processes.js'

beforeAll(async () => {
  const { existsSync } = await import('node:fs')
  if (!existsSync(new URL('../../dist/cli.js', import.meta.url))) throw new Error('dist/ is missing: run `npm run build` (npm test does)')
})
afterEach(killStarted)
const scratch = mkdtempSync(join(tmpdir(), 'svc-mock-cli-exec-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

/** How long a process that should end is waited for before the test says it did not. */
const PATIENCE_MS = 10_000

/** A command for exec that prints its pid and the svc-mock variables, checks the emulator answers, then does `then`. */
const probe = (then: string): string =>
  `const e = process.env; fetch(e.SVC_MOCK_URL + '/__svc-mock/health').then((r) => r.json()).then((h) => {` +
  `console.log(JSON.stringify({ pid: process.pid, health: h.status, url: e.SVC_MOCK_URL, auth: e.SVC_MOCK_AUTH_URL, base: e.SVC_MOCK_BASE_URL, webhook: e.SVC_MOCK_WEBHOOK_URL })); ${then} })`

/** A word quoted for sh. */
const quote = (word: string): string => `'${word.replace(/'/g, `'\\''`)}'`

/**
 * What npx makes: a Node.js process (npm) runs `sh -c "svc-mock …"` with npm_command set, and the
 * shell waits for svc-mock (dash does so for npm's own command line; `; exit` makes any sh do it).
 * The wrapper prints the shell's pid first.
 */
function npxLike(args: readonly string[]): ChildProcessByStdio<null, Readable, Readable> {
  const line = `${[process.execPath, BIN, ...args].map(quote).join(' ')}; exit $?`
  const wrapper = `const { spawn } = require('node:child_process'); const c = spawn('sh', ['-c', ${JSON.stringify(line)}], { stdio: 'inherit', env: { ...process.env, npm_command: 'exec' } }); console.log(JSON.stringify({ shell: c.pid })); setInterval(() => {}, 1000)`
  return track(spawn(process.execPath, ['-e', wrapper], { stdio: ['ignore', 'pipe', 'pipe'] }))
}

/**
 * `svc-mock exec` started the way npx starts it, running `sh -c` that does `first`, then starts
 * `sleep` in the background, prints its pids and SVC_MOCK_URL, and waits: the processes' ids.
 */
async function execUnderNpx(first: string): Promise<{ parent: ChildProcessByStdio<null, Readable, Readable>; shell: number; svcMock: number; sleep: number; commandShell: number; url: string }> {
  const parent = npxLike(['exec', '--log', 'silent', '--', 'sh', '-c', `${first}sleep 305 & echo "$PPID $! $$ $SVC_MOCK_URL"; wait`])
  const out = lines(parent)
  const { shell } = JSON.parse(await out.next()) as { shell: number }
  const words = (await out.next()).split(' ')
  const [svcMock = 0, sleep = 0, commandShell = 0] = words.slice(0, 3).map(Number)
  return { parent, shell, svcMock, sleep, commandShell, url: words[3] ?? '' }
}

describe('svc-mock exec', () => {
  it('runs the command with SVC_MOCK_URL and the three addresses, exits with its code, and leaves nothing running', async () => {
    const child = spawnCli(['exec', '--', process.execPath, '-e', probe('process.exit(7)')])
    const out = lines(child)
    const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)))
    const seen = JSON.parse(await out.next()) as { pid: number; health: string; url: string; auth: string; base: string; webhook: string }
    expect(seen.health).toBe('ok')
    expect(seen.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect(seen.url).not.toBe('http://127.0.0.1:4010') // a free port, not the default
    expect([seen.auth, seen.base, seen.webhook]).toEqual([seen.url, seen.url, seen.url])
    expect(await exited).toBe(7)
    expect(alive(seen.pid)).toBe(false)
    expect(alive(child.pid ?? 0)).toBe(false)
    await expect(fetch(`${seen.url}/__svc-mock/health`)).rejects.toThrow()
  })

  it('exits 0 when the command succeeds, and takes every flag of the server (--scenario, --log json on standard error)', async () => {
    const { code, stdout, stderr } = await runCli([
      'exec',
      '--log',
      'json',
      '--scenario',
      'versions-not-found',
      '--',
      process.execPath,
      '-e',
      `fetch(process.env.SVC_MOCK_BASE_URL + '/acme-collection/acme-tenant/_api/rest/facets/processes/views/default/elements/x/versions', { headers: { authorization: 'AppKey svcmock-app-key' } }).then((r) => console.log('status', r.status))`,
    ])
    expect(code).toBe(0)
    expect(stdout).toBe('status 404\n') // standard output is the command's alone
    const events = stderr.trim().split('\n').map((line) => JSON.parse(line) as { event: string; scenarios?: string[] })
    expect(events[0]).toMatchObject({ event: 'listening', scenarios: ['versions-not-found'] })
    expect(events.map((e) => e.event)).toEqual(['listening', 'request', 'stopping'])
  })

  it('--log silent: the command\'s output only', async () => {
    const { code, stdout, stderr } = await runCli(['exec', '--log', 'silent', '--', process.execPath, '-e', 'console.log(typeof process.env.SVC_MOCK_URL)'])
    expect(code).toBe(0)
    expect(stdout).toBe('string\n')
    expect(stderr).toBe('')
  })

  it('exits 127 naming a command that does not exist', async () => {
    const { code, stderr } = await runCli(['exec', '--', 'svc-mock-no-such-command'])
    expect(code).toBe(127)
    expect(stderr).toContain('cannot run svc-mock-no-such-command: command not found')
  })

  it('passes SIGTERM on to the command, stops the emulator and exits 128 + 15', async () => {
    const child = spawnCli(['exec', '--log', 'silent', '--', process.execPath, '-e', probe('setInterval(() => {}, 1000)')])
    const out = lines(child)
    const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)))
    const seen = JSON.parse(await out.next()) as { pid: number; url: string }
    expect(alive(seen.pid)).toBe(true)
    child.kill('SIGTERM')
    expect(await exited).toBe(143)
    expect(alive(seen.pid)).toBe(false)
    await expect(fetch(`${seen.url}/__svc-mock/health`)).rejects.toThrow()
  })

  it('runs the command in its own process group: SIGTERM reaches the grandchildren too (sh -c "sleep 31 & wait" leaves no sleep)', async () => {
    const child = spawnCli(['exec', '--log', 'silent', '--', 'sh', '-c', 'sleep 31 & echo $!; wait'])
    const out = lines(child)
    const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)))
    const sleep = Number(await out.next())
    try {
      expect(alive(sleep)).toBe(true)
      child.kill('SIGTERM')
      expect(await exited).toBe(143)
      expect(await goneWithin(sleep, 5_000)).toBe(true)
    } finally {
      if (alive(sleep)) process.kill(sleep, 'SIGKILL')
    }
  })

  it('without the --, says to put it before the command (svc-mock exec node -e …)', async () => {
    const { code, stderr } = await runCli(['exec', process.execPath, '-e', 'console.log(1)'])
    expect(code).toBe(2)
    expect(stderr).toContain('unknown flag -e')
    expect(stderr).toContain(`put -- before the command: svc-mock exec [options] -- ${process.execPath} -e console.log(1)`)
  })

  it('when its parent dies without passing a signal on (npx killed), the command and the emulator end too', async () => {
    // The wrapper starts svc-mock exec as npx would, prints svc-mock's pid, and is then killed outright.
    const wrapper = `const { spawn } = require('node:child_process'); const c = spawn(process.execPath, ${JSON.stringify([BIN, 'exec', '--log', 'silent', '--'])}.concat([process.execPath, '-e', ${JSON.stringify(probe('setInterval(() => {}, 1000)'))}]), { stdio: 'inherit' }); console.log(JSON.stringify({ svcMock: c.pid })); setInterval(() => {}, 1000)`
    const parent = track(spawn(process.execPath, ['-e', wrapper], { stdio: ['ignore', 'pipe', 'pipe'] }))
    const out = lines(parent)
    // Standard output closes once every process holding it (wrapper, svc-mock, the command) is gone.
    const closed = new Promise<void>((resolve) => parent.stdout.on('close', () => resolve()))
    const first = JSON.parse(await out.next()) as { svcMock?: number; pid?: number }
    const second = JSON.parse(await out.next()) as { svcMock?: number; pid?: number }
    const svcMock = first.svcMock ?? second.svcMock ?? 0
    const command = first.pid ?? second.pid ?? 0
    expect(alive(svcMock) && alive(command)).toBe(true)
    parent.kill('SIGKILL')
    await closed
    expect(alive(command)).toBe(false)
    expect(alive(svcMock)).toBe(false)
  })

  it('after exec returns, nothing the command started is running: sh -c "sleep 301 & sleep 302 & exit 3" exits 3 and both sleeps are gone', async () => {
    const pidFile = join(scratch, 'background.pids')
    const result = await runCli(['exec', '--log', 'silent', '--', 'sh', '-c', 'sleep 301 & echo $! >> "$0"; sleep 302 & echo $! >> "$0"; exit 3', pidFile])
    const started = readFileSync(pidFile, 'utf8').trim().split('\n').map(Number)
    try {
      expect(result.code).toBe(3)
      expect(started).toHaveLength(2)
      expect(started.filter(alive)).toEqual([])
    } finally {
      killAlive(started)
    }
  })

  it('SIGTERM to exec mid-run ends the whole group, a child that ignores SIGTERM too (SIGKILL after the grace), and exits 128 + 15', async () => {
    const stubbornChild = `process.on('SIGTERM', () => {}); console.log(process.pid); setInterval(() => {}, 1000)`
    const child = spawnCli(['exec', '--log', 'silent', '--', 'sh', '-c', `"$0" -e ${quote(stubbornChild)} & wait`, process.execPath])
    const out = lines(child)
    const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)))
    const stubborn = Number(await out.next())
    try {
      expect(alive(stubborn)).toBe(true)
      child.kill('SIGTERM')
      expect(await exited).toBe(143)
      expect(alive(stubborn)).toBe(false)
    } finally {
      killAlive([stubborn])
    }
  })
})

describe('when the process that started svc-mock dies (npx killed with SIGKILL)', () => {
  it('stops when npm is killed without passing the signal on, instead of serving on as an orphan', async () => {
    // What npx does: npm starts svc-mock with npm_command in its environment; then npm alone is killed.
    const wrapper = `const { spawn } = require('node:child_process'); const c = spawn(process.execPath, ${JSON.stringify([BIN, '--port', '0', '--log', 'json'])}, { stdio: 'inherit', env: { ...process.env, npm_command: 'exec' } }); console.log(JSON.stringify({ svcMock: c.pid })); setInterval(() => {}, 1000)`
    const parent = track(spawn(process.execPath, ['-e', wrapper], { stdio: ['ignore', 'pipe', 'pipe'] }))
    const out = lines(parent)
    const closed = new Promise<void>((resolve) => parent.stdout.on('close', () => resolve()))
    const events = [JSON.parse(await out.next()), JSON.parse(await out.next())] as Array<{ svcMock?: number; event?: string; url?: string }>
    const svcMock = events.find((e) => e.svcMock)?.svcMock ?? 0
    const url = events.find((e) => e.event === 'listening')?.url ?? ''
    expect((await fetch(`${url}/__svc-mock/health`)).status).toBe(200)
    parent.kill('SIGKILL')
    await closed
    expect(alive(svcMock)).toBe(false)
    expect(out.all().slice(2).map((line) => (JSON.parse(line) as { event: string }).event)).toEqual(['stopping', 'stopped'])
  })

  it('serving: ends when npx (npm) is killed and its `sh -c` lives on, and frees the port', async () => {
    const parent = npxLike(['--port', '0', '--log', 'json'])
    const out = lines(parent)
    const { shell } = JSON.parse(await out.next()) as { shell: number }
    const listening = JSON.parse(await out.next()) as { pid: number; url: string }
    try {
      // The chain npx makes: npm -> sh -> svc-mock.
      expect([parentOf(listening.pid), parentOf(shell)]).toEqual([shell, parent.pid])
      expect((await fetch(`${listening.url}/__svc-mock/health`)).status).toBe(200)
      parent.kill('SIGKILL')
      expect(await goneWithin(listening.pid, PATIENCE_MS)).toBe(true)
      expect(await portFree(Number(new URL(listening.url).port))).toBe(true)
      expect(out.all().slice(2).map((line) => (JSON.parse(line) as { event: string }).event)).toEqual(['stopping', 'stopped'])
    } finally {
      killAlive([listening.pid, shell])
    }
  })

  it('exec: notices npx killed the moment its command starts (the chain up to npx is read before the command runs)', async () => {
    // The command's first act kills the wrapper: svc-mock's parent is the wrapper's `sh -c`, whose parent is the wrapper.
    const wrapper = 'cut -d " " -f 4 /proc/$(cut -d " " -f 4 /proc/$PPID/stat)/stat'
    const { parent, shell, svcMock, sleep, commandShell, url } = await execUnderNpx(`kill -9 $(${wrapper}); `)
    try {
      expect(await goneWithin(parent.pid ?? 0, PATIENCE_MS)).toBe(true)
      expect(await goneWithin(svcMock, PATIENCE_MS)).toBe(true)
      expect([alive(sleep), alive(commandShell)]).toEqual([false, false])
      expect(await portFree(Number(new URL(url).port))).toBe(true)
    } finally {
      killAlive([svcMock, sleep, commandShell, shell])
    }
  })

  it('exec: ends with its command and the command\'s children when npx (npm) is killed and its `sh -c` lives on, and frees the port', async () => {
    const { parent, shell, svcMock, sleep, commandShell, url } = await execUnderNpx('')
    try {
      expect([parentOf(svcMock), parentOf(shell)]).toEqual([shell, parent.pid])
      expect([alive(sleep), alive(commandShell)]).toEqual([true, true])
      parent.kill('SIGKILL')
      expect(await goneWithin(svcMock, PATIENCE_MS)).toBe(true)
      expect([alive(sleep), alive(commandShell)]).toEqual([false, false])
      expect(await portFree(Number(new URL(url).port))).toBe(true)
    } finally {
      killAlive([svcMock, sleep, commandShell, shell])
    }
  })
})
