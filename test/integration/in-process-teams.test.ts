/**
 * Two teams in-process: two emulators with origins (and names) of their own, their msw handlers
 * side by side in one msw server. Each answers only its own origin, and, as on the platform, a
 * token or key of one is refused by the other; resets and scenarios stay in their emulator.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { setupEmulatorServer, unhandled } from '../../src/adapters/msw.js'
import { createEmulator, type InProcessEmulator } from '../../src/index.js'
import { VERSIONS } from '../support/harness.js'

const basic = `Basic ${btoa('ci-client:ci-secret')}`
const form = { 'content-type': 'application/x-www-form-urlencoded' }

describe('two emulators with origins of their own in one msw server', () => {
  let a: InProcessEmulator
  let b: InProcessEmulator
  let server: ReturnType<typeof setupEmulatorServer>
  beforeAll(async () => {
    a = await createEmulator({ origin: 'https://team-a.svc-mock.test', name: 'team-a' })
    b = await createEmulator({ origin: 'https://team-b.svc-mock.test', name: 'team-b' })
    server = setupEmulatorServer(a, b)
    server.listen(unhandled('error'))
  })
  afterAll(async () => {
    server.close()
    await a.close()
    await b.close()
  })

  const tokenAt = async (emu: InProcessEmulator): Promise<string> => {
    const answer = await fetch(`${emu.urls.auth}/oauth2/token`, { method: 'POST', headers: { authorization: basic, ...form }, body: 'grant_type=client_credentials' })
    return ((await answer.json()) as { access_token: string }).access_token
  }

  it('each emulator answers its own origin, and journals only its own requests', async () => {
    expect((await fetch(`${a.urls.base}${VERSIONS()}`, { headers: { authorization: 'AppKey svcmock-app-key' } })).status).toBe(200)
    expect(a.journal.list({ route: 'versions.list' })).toHaveLength(1)
    expect(b.journal.list({ route: 'versions.list' })).toHaveLength(0)
  })

  it("refuses the other team's access token with the gate's 401", async () => {
    const fromA = await tokenAt(a)
    expect((await fetch(`${a.urls.base}${VERSIONS()}`, { headers: { authorization: `Bearer ${fromA}` } })).status).toBe(200)
    expect((await fetch(`${b.urls.base}${VERSIONS()}`, { headers: { authorization: `Bearer ${fromA}` } })).status).toBe(401)
  })

  it("refuses a key the other made at run time, though both made one from the same seed", async () => {
    const input = { kind: 'app' as const, permissions: [{ action: 'read', resource: 'storage/acme-collection/acme-tenant' }] }
    const keyA = (await a.apiKeys.create(input)).key
    const keyB = (await b.apiKeys.create(input)).key
    expect(keyA).not.toBe(keyB)
    expect((await fetch(`${b.urls.base}${VERSIONS()}`, { headers: { authorization: `AppKey ${keyA}` } })).status).toBe(401)
  })

  it('a scenario and a reset of one leave the other as it was', async () => {
    a.scenarios.use('versions-not-found')
    expect((await fetch(`${b.urls.base}${VERSIONS()}`, { headers: { authorization: 'AppKey svcmock-app-key' } })).status).toBe(200)
    await b.reset()
    expect(a.scenarios.list().find((s) => s.name === 'versions-not-found')?.active).toBe(true)
    await a.reset()
  })
})
