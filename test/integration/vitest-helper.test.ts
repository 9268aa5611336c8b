/** svc-mock/vitest: one call sets up the emulator and msw for a suite. */
import { spawn, spawnSync } from 'node:child_process'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { mswMajor } from '../../src/adapters/msw.js'
import { useEmulator } from '../../src/adapters/vitest.js'
import { APP_KEY, VERSIONS } from '../support/harness.js'

const ELEMENT = { storage: 'acme-collection/acme-tenant', facet: 'processes', id: 'bb0e8400-e29b-41d4-a716-446655440000', type: 'process', versions: [{ state: 'released' }] }

/** Runs one fixture file in a child vitest, which must fail; answers its output. */
function runFixture(file: string): string {
  const vitest = fileURLToPath(new URL('../../node_modules/vitest/vitest.mjs', import.meta.url))
  const result = spawnSync(process.execPath, [vitest, 'run', '--config', 'test/support/fixtures/vitest.config.ts', `test/support/fixtures/${file}`], {
    cwd: fileURLToPath(new URL('../..', import.meta.url)),
    encoding: 'utf8',
    env: { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1' },
  })
  const output = `${result.stdout}${result.stderr}`
  expect(result.status, output).toBe(1)
  return output
}

/**
 * Runs test/support/fixtures/stray-local.fixture.ts in a child vitest (asynchronously, so a local server in
 * this process can answer) with useEmulator's `options`; answers its exit code, output, and how
 * many requests reached the local server.
 */
async function runStray(options: object): Promise<{ code: number | null; output: string; hits: number; origin: string }> {
  let hits = 0
  const server = createServer((_request, response) => {
    hits += 1
    response.end('reached')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  try {
    const vitest = fileURLToPath(new URL('../../node_modules/vitest/vitest.mjs', import.meta.url))
    const child = spawn(process.execPath, [vitest, 'run', '--config', 'test/support/fixtures/vitest.config.ts', 'test/support/fixtures/stray-local.fixture.ts'], {
      cwd: fileURLToPath(new URL('../..', import.meta.url)),
      env: { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1', STRAY_URL: `${origin}/api/orders`, STRAY_OPTIONS: JSON.stringify(options).replaceAll('STRAY_ORIGIN', origin) },
    })
    let output = ''
    child.stdout.on('data', (d: Buffer) => (output += d.toString()))
    child.stderr.on('data', (d: Buffer) => (output += d.toString()))
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve))
    return { code, output, hits, origin }
  } finally {
    server.close()
  }
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

  it('fails a test that sends a request no route handles, naming the closest route', () => {
    const output = runFixture('unhandled.fixture.ts')
    expect(output).toContain('svc-mock: this test sent requests that no route handles')
    expect(output).toMatch(/GET \/acme-collection\/.*\/version -> 404 \(closest route: GET \/:collectionId\/.*\/versions \(versions\.list\)\)/)
  })

  it(`fails a test whose request went to a misspelt origin, naming it (msw ${mswMajor()})`, () => {
    const output = runFixture('stray-origin.fixture.ts')
    expect(output).toContain('svc-mock: this test sent requests that no route handles')
    expect(output).toMatch(/GET https:\/\/acme\.svc-mock\.tset\/acme-collection\/\S+ reached no msw handler \(svc-mock serves https:\/\/acme\.svc-mock\.test\)/)
  })

  it('blocks a request to another origin before it reaches the network, and fails the test', async () => {
    const { code, output, hits, origin } = await runStray({})
    expect(hits, output).toBe(0)
    expect(code, output).toBe(1)
    expect(output).toContain('stray fetch: network error')
    expect(output).toContain(`GET ${origin}/api/orders reached no msw handler`)
  })

  it('lets a request to an origin of otherOrigins through (the app server), and the test passes', async () => {
    const { code, output, hits } = await runStray({ otherOrigins: ['STRAY_ORIGIN'] })
    expect(code, output).toBe(0)
    expect(hits, output).toBe(1)
    expect(output).toContain('stray fetch: status 200')
  })

  it('with failOnUnhandled: false, still blocks the stray request but lets the test pass', async () => {
    const { code, output, hits } = await runStray({ failOnUnhandled: false })
    expect(hits, output).toBe(0)
    expect(code, output).toBe(0)
    expect(output).toContain('stray fetch: network error')
  })
})
