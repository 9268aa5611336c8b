/**
 * Teams and saved states: `POST /__svc-mock/teams` with `{state}` makes a team that starts from a
 * saved state (each parallel worker from one file), a state that cannot be loaded makes no team,
 * and the main team's document holds the other teams, each with its own state, which loading it
 * makes again.
 */
import { decodeJwt } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type RunningServer, startServer } from '../../src/adapters/server.js'
import type { SavedState } from '../../src/index.js'
import { VERSIONS } from '../support/harness.js'
import { CI, token } from '../support/oauth.js'
import { makeTeam, teamHarness, teamOf } from '../support/teams.js'

describe('teams made from a saved state', () => {
  let server: RunningServer
  let document: SavedState
  beforeAll(async () => {
    server = await startServer({ port: 0, log: 'silent', clock: 'manual', seed: 3 })
    const main = teamHarness(teamOf(server, 'main'))
    await main.control('POST', '/oauth-clients', { clientId: 'prepared', name: 'prepared', grantType: 'client_credentials', authMethod: 'client_secret_basic' })
    await main.fetch('/hooks/paused', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"n": 1}' })
    await main.control('POST', '/clock/advance', { ms: 3_600_000 })
    document = (await (await main.fetch('/__svc-mock/state/export')).json()) as SavedState
  })
  afterAll(() => server.close())

  it('starts every worker\'s team from one saved state, its seed from the document; each then goes its own way, isolated', async () => {
    const a = await makeTeam(server, { name: 'worker-a', state: document })
    const b = await makeTeam(server, { name: 'worker-b', state: document })
    expect([a.status, b.status, a.body.seed, b.body.seed]).toEqual([201, 201, 3, 3])
    for (const name of ['worker-a', 'worker-b']) {
      const team = teamOf(server, name).emulator
      expect(team.oauth.clients.get('prepared')?.name).toBe('prepared')
      expect(team.webhooks.get('paused').queue.length).toBe(1)
      expect(team.clock.state()).toEqual(server.emulator.clock.state())
    }
    const made = await Promise.all(['worker-a', 'worker-b'].map((name) => teamOf(server, name).emulator.oauth.clients.create({ name: 'next', grantType: 'client_credentials', authMethod: 'client_secret_basic' })))
    expect(made[0]?.clientSecret).not.toBe(made[1]?.clientSecret)
    const aToken = await token(teamHarness(teamOf(server, 'worker-a')), { grant_type: 'client_credentials' }, { client: CI })
    expect(decodeJwt(String(aToken.body.access_token)).iss).toBe(String(a.body.url))
    expect((await fetch(`${String(b.body.url)}${VERSIONS()}`, { headers: { authorization: `Bearer ${String(aToken.body.access_token)}` } })).status).toBe(401)
    await teamOf(server, 'worker-a').emulator.oauth.clients.delete('prepared')
    await teamOf(server, 'worker-a').emulator.reset()
    expect(teamOf(server, 'worker-a').emulator.oauth.clients.get('prepared')?.name).toBe('prepared')
  })

  it('refuses a team whose state cannot be loaded with 400 naming state and the member, and makes no team', async () => {
    const colliding = JSON.parse(JSON.stringify(document)) as SavedState
    const client = colliding.auth?.oauthClients?.added?.[0]
    if (client) client.clientId = 'ci-client'
    const refused = await makeTeam(server, { name: 'broken', state: colliding })
    expect(refused).toMatchObject({ status: 400, body: { field: 'state.auth.oauthClients.added[0].clientId' } })
    expect(server.teams.get('broken')).toBeUndefined()
    const newer = await makeTeam(server, { name: 'broken', state: { ...document, svcMockState: 2, version: '9.0.0' } })
    expect(newer).toMatchObject({ status: 400, body: { field: 'state.svcMockState', error: expect.stringContaining('svc-mock 9.0.0') } })
  })

  it("writes the other teams, each with its own state, into the main team's document (a team's own holds none), and loading it makes them again", async () => {
    await makeTeam(server, { name: 'kept', state: document })
    await teamOf(server, 'kept').emulator.apiKeys.create({ kind: 'app', id: 'kept-key', key: 'svcmock-kept-key-0001' })
    const main = teamHarness(teamOf(server, 'main'))
    const whole = (await (await main.fetch('/__svc-mock/state/export')).json()) as SavedState
    const kept = whole.control?.teams?.find((t) => t.name === 'kept')
    expect(kept?.state.auth?.apiKeys?.added?.map((k) => k.id)).toEqual(['kept-key'])
    const own = (await (await teamHarness(teamOf(server, 'kept')).fetch('/__svc-mock/state/export')).json()) as SavedState
    expect(own.control).toEqual({})
    await server.teams.delete('kept')
    const loaded = await main.control('POST', '/state/import', whole)
    expect(loaded.status).toBe(200)
    expect(teamOf(server, 'kept').emulator.apiKeys.list().map((k) => k.id)).toContain('kept-key')
    expect(teamOf(server, 'worker-b').emulator.oauth.clients.get('prepared')).toBeDefined()
    const intoTeam = await teamHarness(teamOf(server, 'kept')).control('POST', '/state/import', whole)
    expect(intoTeam).toMatchObject({ status: 400, body: { field: 'control.teams' } })
  })
})
