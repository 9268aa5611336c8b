/** svc-mock/vitest: one call sets up the emulator and msw for a suite. */
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { mswMajor } from '../src/adapters/msw.js'
import { useEmulator } from '../src/adapters/vitest.js'
import { APP_KEY, VERSIONS } from './support/harness.js'

const ELEMENT = { storage: 'acme-collection/acme-tenant', facet: 'processes', id: 'bb0e8400-e29b-41d4-a716-446655440000', type: 'process', versions: [{ state: 'released' }] }

/** Runs one fixture file in a child vitest, which must fail; answers its output. */
function runFixture(file: string): string {
  const vitest = fileURLToPath(new URL('../node_modules/vitest/vitest.mjs', import.meta.url))
  const result = spawnSync(process.execPath, [vitest, 'run', '--config', 'test/fixtures/vitest.config.ts', `test/fixtures/${file}`], {
    cwd: fileURLToPath(new URL('..', import.meta.url)),
    encoding: 'utf8',
    env: { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1' },
  })
  const output = `${result.stdout}${result.stderr}`
  expect(result.status, output).toBe(1)
  return output
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

  it(`fails a test whose request went to another origin (msw ${mswMajor()}: ${mswMajor() === 2 ? 'onUnhandledRequest' : 'onUnhandledFrame'})`, () => {
    const output = runFixture('stray-origin.fixture.ts')
    expect(output).toContain('svc-mock: this test sent requests that no route handles')
    expect(output).toMatch(/GET https:\/\/acme\.svc-mock\.tset\/acme-collection\/\S+ reached no msw handler \(svc-mock serves https:\/\/acme\.svc-mock\.test\)/)
  })
})
