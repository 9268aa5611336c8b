/**
 * Saved states on the command line: `--export-on-exit FILE` writes one when the server stops
 * (SIGTERM, the end of `exec`), atomically; `--import FILE` starts a run from it; a bad file exits
 * 2 naming the file and the member. The built bin in a child process (`npm test` builds first);
 * the refusals, which end before anything serves, through the command's `main()` in this process.
 */
import { mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { killStarted, runCli, runMain, spawnCli } from '../support/cli.js'

afterEach(killStarted)

const scratch = mkdtempSync(join(tmpdir(), 'svc-mock-cli-state-'))

/** A command for exec: makes an OAuth client on the control plane and prints it. */
const MAKE_CLIENT = `fetch(process.env.SVC_MOCK_URL + '/__svc-mock/oauth-clients', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ clientId: 'qa-client', name: 'qa', grantType: 'client_credentials', authMethod: 'client_secret_basic' }) }).then((r) => r.json()).then((c) => console.log(JSON.stringify(c)))`
/** A command for exec: asks for a token as the client the state holds, and exits with 0 when it gets one. */
const USE_CLIENT = (secret: string): string =>
  `fetch(process.env.SVC_MOCK_AUTH_URL + '/oauth2/token', { method: 'POST', headers: { authorization: 'Basic ' + Buffer.from('qa-client:${secret}').toString('base64'), 'content-type': 'application/x-www-form-urlencoded' }, body: 'grant_type=client_credentials' }).then((r) => process.exit(r.status === 200 ? 0 : 1))`

describe('svc-mock and saved states', () => {
  it('exec --export-on-exit FILE writes the state when the command ends, and --import FILE starts the next run from it', async () => {
    const file = join(scratch, 'exec.json')
    const first = await runCli(['exec', '--log', 'silent', '--export-on-exit', file, '--', process.execPath, '-e', MAKE_CLIENT])
    expect(first.code).toBe(0)
    const secret = (JSON.parse(first.stdout) as { clientSecret: string }).clientSecret
    const saved = JSON.parse(readFileSync(file, 'utf8')) as { svcMockState: number; auth: { oauthClients: { added: Array<{ clientId: string }> } } }
    expect(saved.svcMockState).toBe(1)
    expect(saved.auth.oauthClients.added.map((c) => c.clientId)).toEqual(['qa-client'])
    expect(statSync(file).mode & 0o777).toBe(0o600)
    const second = await runCli(['exec', '--log', 'silent', '--import', file, '--', process.execPath, '-e', USE_CLIENT(secret)])
    expect(second.code).toBe(0)
    const without = await runCli(['exec', '--log', 'silent', '--', process.execPath, '-e', USE_CLIENT(secret)])
    expect(without.code).toBe(1)
  })

  it('writes --export-on-exit FILE on SIGTERM, and leaves no temporary file beside it', async () => {
    const folder = mkdtempSync(join(scratch, 'sigterm-'))
    const file = join(folder, 'state.json')
    const child = spawnCli(['--port', '0', '--log', 'json', '--export-on-exit', file])
    const url = await new Promise<string>((resolve) => {
      let out = ''
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString()
        const match = /"url":"(http:\/\/127\.0\.0\.1:\d+)"/.exec(out)
        if (match?.[1]) resolve(match[1])
      })
    })
    await fetch(`${url}/__svc-mock/clock/advance`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"ms": 3600000}' })
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
    child.kill('SIGTERM')
    expect(await exited).toBe(0)
    const saved = JSON.parse(readFileSync(file, 'utf8')) as { kernel: { clock: { now: string } }; exportedAt: string }
    expect(Date.parse(saved.kernel.clock.now) - Date.parse(saved.exportedAt)).toBeGreaterThan(3_500_000)
    expect(readdirSync(folder)).toEqual(['state.json'])
  })

  it('--import of a file that cannot be loaded exits 2 naming the file and the member', async () => {
    const file = join(scratch, 'colliding.json')
    const first = await runCli(['exec', '--log', 'silent', '--export-on-exit', file, '--', process.execPath, '-e', MAKE_CLIENT])
    expect(first.code).toBe(0)
    const saved = JSON.parse(readFileSync(file, 'utf8')) as { auth: { oauthClients: { added: Array<{ clientId: string }> } } }
    const client = saved.auth.oauthClients.added[0]
    if (client) client.clientId = 'ci-client'
    writeFileSync(file, JSON.stringify(saved))
    const colliding = await runMain(['--import', file])
    expect(colliding.code).toBe(2)
    expect(colliding.stderr).toContain(`--import ${file} member auth.oauthClients.added[0].clientId: "ci-client" collides with a record of the fixtures`)

    const notJson = join(scratch, 'not-json.json')
    writeFileSync(notJson, '{"svcMockState": 1,')
    const broken = await runMain(['--import', notJson])
    expect(broken.code).toBe(2)
    expect(broken.stderr).toContain(`--import ${notJson} is not JSON`)

    const missing = await runMain(['--import', join(scratch, 'nothing-here.json')])
    expect(missing.code).toBe(2)
    expect(missing.stderr).toContain('nothing-here.json cannot be read (no such file)')
  })

  it('refuses --export-on-exit into a folder that does not exist at start (exit 2), before any state could be lost', async () => {
    const { code, stderr } = await runMain(['--port', '0', '--export-on-exit', join(scratch, 'no-such-folder', 'state.json')])
    expect(code).toBe(2)
    expect(stderr).toContain('--export-on-exit')
    expect(stderr).toContain('names a file in a folder that does not exist')
  })
})
