/**
 * `svc-mock verify` as a user runs it: the built bin in a child process (`npm test` builds first),
 * its help, its exit codes, and the engine loaded only when verify runs, never by `import 'svc-mock'`.
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { type RunningServer, startServer } from '../../src/adapters/server.js'
import { killStarted, runCli } from '../support/cli.js'
import { ELEMENT_PATH, TEAM, teamFixtures } from '../support/verify.js'

afterEach(killStarted)

let team: RunningServer
beforeAll(async () => {
  team = await startServer({ port: 0, log: 'silent', fixtures: [teamFixtures()] })
})
afterAll(async () => {
  await team.close()
})

describe('svc-mock verify (the bin)', () => {
  it('prints its usage with every flag and variable for --help and for svc-mock help verify; svc-mock --help names it', async () => {
    for (const args of [['verify', '--help'], ['help', 'verify']]) {
      const { code, stdout } = await runCli(args)
      expect(code).toBe(0)
      for (const text of ['--target URL', '--client-secret', 'SVC_MOCK_VERIFY_CLIENT_SECRET', '--key-kind user|app', '--allow-writes', '--report FILE', '--save DIR', '--against DIR', '--ca FILE', '--timeout MS', 'docs/verify.md']) {
        expect(stdout).toContain(text)
      }
    }
    expect((await runCli(['--help'])).stdout).toContain('svc-mock verify --target URL [options] compare svc-mock with your team')
  })

  it('exits 0 against a team that is svc-mock, 2 for a bad flag', async () => {
    const same = await runCli(['verify', '--target', team.url, '--element', ELEMENT_PATH], { SVC_MOCK_VERIFY_API_KEY: TEAM.appKey, SVC_MOCK_VERIFY_KEY_KIND: 'app' })
    expect(same.stdout).toContain('verify: 12 same, 0 differ, 5 skipped')
    expect(same.code).toBe(0)
    const bad = await runCli(['verify', '--target', team.url, '--api-key'])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain('svc-mock verify: --api-key needs a value')
  })

  it("is not part of what import 'svc-mock' loads", () => {
    const root = resolve(import.meta.dirname, '../..')
    const log = join(mkdtempSync(join(tmpdir(), 'svc-mock-verify-load-')), 'resolved.txt')
    const hook = `import { appendFileSync } from 'node:fs'
      export async function resolve(specifier, context, next) {
        const resolved = await next(specifier, context)
        appendFileSync(${JSON.stringify(log)}, resolved.url + String.fromCharCode(10))
        return resolved
      }`
    const script = `import { register } from 'node:module'
      register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(hook)}))
      const { createEmulator } = await import('svc-mock')
      await createEmulator()`
    execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: root, stdio: 'ignore' })
    const files = readFileSync(log, 'utf8').split('\n').filter((url) => url.startsWith('file://') && url.includes('/dist/'))
    expect(files.length).toBeGreaterThan(0)
    for (const file of files) expect(readFileSync(new URL(file), 'utf8'), file).not.toMatch(/svcMockVerify|the answers saved in/)
  })
})
