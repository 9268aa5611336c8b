/** svc-mock/vitest: one call sets up the emulator and msw for a suite. */
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { basename, dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { mswMajor } from '../../src/adapters/msw.js'
import { useEmulator } from '../../src/adapters/vitest.js'
import { APP_KEY, VERSIONS } from '../support/harness.js'

const ELEMENT = { storage: 'acme-collection/acme-tenant', facet: 'processes', id: 'bb0e8400-e29b-41d4-a716-446655440000', type: 'process', versions: [{ state: 'released' }] }

/** What one fixture file of the child run came to. */
interface FixtureResult {
  status: string
  /** Its failures' messages. */
  failures: string
}

interface FixtureRun {
  /** By fixture file name (`unhandled.fixture.ts`). */
  files: Map<string, FixtureResult>
  /** The run's whole output, console lines included. */
  output: string
  /** The local server's origin, and the requests that reached it, by path. */
  origin: string
  hits: Map<string, number>
}

/**
 * Runs every fixture file of test/support/fixtures/ in one child vitest (asynchronously, so a local
 * server in this process, another origin than svc-mock's, can answer the stray fixtures), with its
 * JSON report for each file's result.
 */
async function runFixtures(): Promise<FixtureRun> {
  const hits = new Map<string, number>()
  const server = createServer((request, response) => {
    hits.set(request.url ?? '', (hits.get(request.url ?? '') ?? 0) + 1)
    response.end('reached')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const report = join(mkdtempSync(join(tmpdir(), 'svc-mock-vitest-helper-')), 'report.json')
  try {
    const vitest = fileURLToPath(new URL('../../node_modules/vitest/vitest.mjs', import.meta.url))
    const child = spawn(process.execPath, [vitest, 'run', '--config', 'test/support/fixtures/vitest.config.ts', 'test/support/fixtures/', '--reporter=default', '--reporter=json', `--outputFile=${report}`], {
      cwd: fileURLToPath(new URL('../..', import.meta.url)),
      env: { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1', STRAY_ORIGIN: origin },
    })
    let output = ''
    child.stdout.on('data', (d: Buffer) => (output += d.toString()))
    child.stderr.on('data', (d: Buffer) => (output += d.toString()))
    await new Promise((resolve) => child.on('exit', resolve))
    const { testResults } = JSON.parse(readFileSync(report, 'utf8')) as { testResults: Array<{ name: string; status: string; message: string; assertionResults: Array<{ failureMessages: string[] }> }> }
    const files = new Map(testResults.map((f) => [basename(f.name), { status: f.status, failures: [f.message, ...f.assertionResults.flatMap((t) => t.failureMessages)].join('\n') }]))
    return { files, output, origin, hits }
  } finally {
    server.close()
    rmSync(dirname(report), { recursive: true, force: true })
  }
}

let fixtureRun: Promise<FixtureRun> | undefined
/** The fixture run, made once for the tests that read it. */
async function fixture(file: string): Promise<FixtureResult & Omit<FixtureRun, 'files'>> {
  const run = await (fixtureRun ??= runFixtures())
  const result = run.files.get(file)
  if (result === undefined) throw new Error(`the child vitest ran no ${file}:\n${run.output}`)
  return { ...result, output: run.output, origin: run.origin, hits: run.hits }
}

describe('useEmulator', async () => {
  const emu = await useEmulator({ clock: 'manual' })

  it('listens with msw: fetch reaches the emulator with no socket', async () => {
    const response = await fetch(`${emu.urls.base}${VERSIONS()}`, { headers: APP_KEY })
    expect(response.status).toBe(200)
    await emu.elements.add(ELEMENT)
    emu.scenarios.use('versions-not-found')
  })

  it('resets the emulator after each test', async () => {
    expect(emu.elements.list().some((e) => e.id === ELEMENT.id)).toBe(false)
    expect(emu.scenarios.list().every((s) => !s.active)).toBe(true)
    expect((await fetch(`${emu.urls.base}${VERSIONS()}`, { headers: APP_KEY })).status).toBe(200)
  })

  it('fails a test that sends a request no route handles, naming the closest route', async () => {
    const { status, failures, output } = await fixture('unhandled.fixture.ts')
    expect(status, output).toBe('failed')
    expect(failures).toContain('svc-mock: this test sent requests that no route handles')
    expect(failures).toMatch(/GET \/acme-collection\/.*\/version -> 404 \(closest route: GET \/:collectionId\/.*\/versions \(versions\.list\)\)/)
  })

  it(`fails a test whose request went to a misspelt origin, naming it (msw ${mswMajor()})`, async () => {
    const { status, failures, output } = await fixture('stray-origin.fixture.ts')
    expect(status, output).toBe('failed')
    expect(failures).toContain('svc-mock: this test sent requests that no route handles')
    expect(failures).toMatch(/GET https:\/\/acme\.svc-mock\.tset\/acme-collection\/\S+ reached no msw handler \(svc-mock serves https:\/\/acme\.svc-mock\.test\)/)
  })

  it('blocks a request to another origin before it reaches the network, and fails the test', async () => {
    const { status, failures, output, hits, origin } = await fixture('stray-blocked.fixture.ts')
    expect(hits.get('/api/orders/blocked') ?? 0, output).toBe(0)
    expect(status, output).toBe('failed')
    expect(output).toContain('stray fetch (blocked): network error')
    expect(failures).toContain(`GET ${origin}/api/orders/blocked reached no msw handler`)
  })

  it('lets a request to an origin of otherOrigins through (the app server), and the test passes', async () => {
    const { status, output, hits } = await fixture('stray-allowed.fixture.ts')
    expect(status, output).toBe('passed')
    expect(hits.get('/api/orders/allowed') ?? 0, output).toBe(1)
    expect(output).toContain('stray fetch (allowed): status 200')
  })

  it('with failOnUnhandled: false, still blocks the stray request but lets the test pass', async () => {
    const { status, output, hits } = await fixture('stray-tolerated.fixture.ts')
    expect(hits.get('/api/orders/tolerated') ?? 0, output).toBe(0)
    expect(status, output).toBe('passed')
    expect(output).toContain('stray fetch (tolerated): network error')
  })
})
