/**
 * Teams of a standalone server: made at start (`teams: N`) or with `POST /__svc-mock/teams`,
 * each a complete emulator on a port of its own, seeded from the run's fixtures plus its own,
 * listed, closed with `DELETE` or with the server; every refusal of bad input; and isolation:
 * a credential of one team is refused by every other, and state never crosses.
 */
import { decodeJwt, decodeProtectedHeader } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type RunningServer, startServer } from '../../src/adapters/server.js'
import { APP_KEY, VERSIONS } from '../support/harness.js'
import { CI, WEB_APP, exchange, getCode, token } from '../support/oauth.js'
import { answers, makeTeam, teamHarness, teamOf } from '../support/teams.js'

const JSON_HEADERS = { 'content-type': 'application/json' }
const RUN_FIXTURES = { users: [{ id: 'carol', name: 'Carol Example', permissions: [] }] }

describe('teams of a standalone server', () => {
  let server: RunningServer
  beforeAll(async () => {
    server = await startServer({ port: 0, log: 'silent', clock: 'manual', teams: 2, fixtures: [RUN_FIXTURES] })
  })
  afterAll(() => server.close())

  it('makes the teams asked for at start, team-1 … team-N, each on a port of its own, listed after the main one', async () => {
    const listed = (await (await fetch(`${server.url}/__svc-mock/teams`)).json()) as Array<Record<string, unknown>>
    expect(listed.map((t) => [t.name, t.main, t.current])).toEqual([
      ['main', true, true],
      ['team-1', false, false],
      ['team-2', false, false],
    ])
    const ports = listed.map((t) => t.port)
    expect(new Set(ports).size).toBe(3)
    for (const team of listed) {
      expect(team.url).toBe(`http://127.0.0.1:${String(team.port)}`)
      expect(team.dashboard).toBe(`${String(team.url)}/__svc-mock/`)
      expect((await fetch(`${String(team.url)}/__svc-mock/health`)).status).toBe(200)
    }
  })

  it('makes a team with POST: 201 {name, url, …}, a whole emulator with its own control plane and dashboard at its own URL', async () => {
    const made = await makeTeam(server, { name: 'worker-a' })
    expect(made.status).toBe(201)
    expect(made.body).toEqual({ name: 'worker-a', url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/), port: expect.any(Number), main: false, seed: 1, dashboard: `${String(made.body.url)}/__svc-mock/` })
    const url = String(made.body.url)
    expect((await fetch(`${url}${VERSIONS()}`, { headers: APP_KEY })).status).toBe(200)
    const page = await fetch(`${url}/__svc-mock/`)
    expect([page.status, page.headers.get('content-type')]).toEqual([200, 'text/html; charset=utf-8'])
    const seen = (await (await fetch(`${url}/__svc-mock/teams`)).json()) as Array<Record<string, unknown>>
    expect(seen.filter((t) => t.current).map((t) => t.name)).toEqual(['worker-a'])
    expect(teamOf(server, 'worker-a').emulator.journal.list({ route: 'versions.list' })).toHaveLength(1)
    expect(server.emulator.journal.list({ route: 'versions.list' })).toHaveLength(0)
  })

  it('names a team made without a name team-N, the lowest number free', async () => {
    const made = await makeTeam(server)
    expect(made.body.name).toBe('team-3')
  })

  it('closes a team with DELETE: it leaves the list and its port takes no more connections', async () => {
    const made = await makeTeam(server, { name: 'short-lived' })
    const url = String(made.body.url)
    expect(await answers(url)).toBe(true)
    const deleted = await fetch(`${server.url}/__svc-mock/teams/short-lived`, { method: 'DELETE' })
    expect(deleted.status).toBe(204)
    expect(server.teams.list().map((t) => t.name)).not.toContain('short-lived')
    expect(await answers(url)).toBe(false)
  })

  it('answers a team deleted through its own control plane (204), then closes it', async () => {
    const url = String((await makeTeam(server, { name: 'self-closing' })).body.url)
    const deleted = await fetch(`${url}/__svc-mock/teams/self-closing`, { method: 'DELETE' })
    expect(deleted.status).toBe(204)
    expect(await answers(url)).toBe(false)
  })

  it("seeds a team from the run's fixtures, then its own, which no other team sees", async () => {
    await makeTeam(server, { name: 'with-dave', fixtures: { users: [{ id: 'dave', name: 'Dave Example', permissions: [] }] } })
    const users = (name: string): string[] => teamOf(server, name).emulator.users.list().map((u) => u.id)
    expect(users('with-dave')).toEqual(expect.arrayContaining(['alice', 'bob', 'carol', 'dave']))
    expect(users('team-1')).toContain('carol')
    expect(users('team-1')).not.toContain('dave')
    expect(users('main')).not.toContain('dave')
  })

  it("generates a team's data from the run's seed unless it gives its own", async () => {
    await makeTeam(server, { name: 'seed-7', seed: 7 })
    const ids = (name: string): string[] => teamOf(server, name).emulator.elements.list().map((e) => e.id)
    expect(ids('team-1')).toEqual(ids('main'))
    expect(ids('seed-7')).not.toEqual(ids('main'))
  })

  it("switches a team's own scenarios on for its run, after the run's, and nowhere else", async () => {
    const made = await makeTeam(server, { name: 'not-found', scenarios: ['versions-not-found'] })
    expect((await fetch(`${String(made.body.url)}${VERSIONS()}`, { headers: APP_KEY })).status).toBe(404)
    await teamOf(server, 'not-found').emulator.reset()
    expect((await fetch(`${String(made.body.url)}${VERSIONS()}`, { headers: APP_KEY })).status).toBe(404)
    expect((await fetch(`${server.url}${VERSIONS()}`, { headers: APP_KEY })).status).toBe(200)
  })

  it('from code: server.teams makes, reads and closes teams as the control plane does', async () => {
    const team = await server.teams.create({ name: 'from-code', fixtures: [{ users: [{ id: 'erin', name: 'Erin', permissions: [] }] }] })
    expect(team.emulator.users.list().map((u) => u.id)).toContain('erin')
    expect(server.teams.get('from-code')?.url).toBe(team.url)
    await server.teams.delete('from-code')
    expect(server.teams.get('from-code')).toBeUndefined()
  })
})

describe('teams: bad input', () => {
  let server: RunningServer
  beforeAll(async () => {
    server = await startServer({ port: 0, log: 'silent', maxTeams: 2, teams: 1 })
  })
  afterAll(() => server.close())

  const names = (): string[] => server.teams.list().map((t) => t.name)

  it('refuses a duplicate name with 409 naming it, the main team included', async () => {
    for (const name of ['team-1', 'main']) {
      const refused = await makeTeam(server, { name })
      expect(refused.status).toBe(409)
      expect(refused.body).toEqual({ error: `A team named "${name}" exists already.`, field: 'name' })
    }
  })

  it.each(['Worker_1', '-worker', 'worker-', 'a'.repeat(64), 'wörker', ''])('refuses the name %j, not a DNS label, with 400', async (name) => {
    const refused = await makeTeam(server, { name })
    expect(refused.status).toBe(400)
    expect(refused.body).toMatchObject({ field: 'name', error: expect.stringContaining('DNS label') })
    expect(names()).toEqual(['main', 'team-1'])
  })

  it('refuses fixtures that fail validation with 400 naming the document, the section and the field, and makes no team', async () => {
    const refused = await makeTeam(server, { name: 'bad-fixtures', fixtures: [{}, { apiKeys: [{ id: 'k', kind: 'robot', key: 'x' }] }] })
    expect(refused.status).toBe(400)
    expect(refused.body.field).toBe('fixtures')
    expect(refused.body.error).toMatch(/fixtures\[1\] at apiKeys\[0\]\.kind/)
    expect(names()).toEqual(['main', 'team-1'])
  })

  it('refuses fixtures with an unknown member with 400 naming it and the closest known member, and makes no team', async () => {
    expect({ ...(await makeTeam(server, { name: 'typo-fixtures', fixtures: { users: [{ idd: 'dave', name: 'Dave', permissions: [] }] } })), teams: names() }).toMatchObject({ status: 400, body: { field: 'fixtures', error: expect.stringContaining('at users[0]: unknown member "idd" (did you mean "id"?)') }, teams: ['main', 'team-1'] })
  })

  it('refuses an unknown scenario with 400 naming it, and makes no team', async () => {
    const refused = await makeTeam(server, { name: 'bad-scenario', scenarios: ['versions-not-fund'] })
    expect(refused.status).toBe(400)
    expect(refused.body).toMatchObject({ field: 'scenarios', error: expect.stringContaining('did you mean "versions-not-found"') })
    expect(names()).toEqual(['main', 'team-1'])
  })

  it('refuses a port that cannot be opened with 503 saying why', async () => {
    const refused = await makeTeam(server, { name: 'taken-port', port: server.port })
    expect(refused.status).toBe(503)
    expect(refused.body).toEqual({ error: `The team's port ${server.port} on 127.0.0.1 could not be opened: another process listens there (EADDRINUSE).`, field: 'port' })
    expect(names()).toEqual(['main', 'team-1'])
  })

  it('refuses a team past the limit with 429 and the limit', async () => {
    expect((await makeTeam(server, { name: 'second' })).status).toBe(201)
    const refused = await makeTeam(server, { name: 'third' })
    expect(refused.status).toBe(429)
    expect(refused.body).toMatchObject({ limit: 2, error: expect.stringContaining('--max-teams') })
    expect(names()).toEqual(['main', 'team-1', 'second'])
    expect((await fetch(`${server.url}/__svc-mock/teams/second`, { method: 'DELETE' })).status).toBe(204)
  })

  it('refuses to delete the main team (409) and an unknown one (404)', async () => {
    const main = await fetch(`${server.url}/__svc-mock/teams/main`, { method: 'DELETE' })
    expect([main.status, ((await main.json()) as { error: string }).error]).toEqual([409, 'The main team "main" closes only with the server.'])
    expect((await fetch(`${server.url}/__svc-mock/teams/nobody`, { method: 'DELETE' })).status).toBe(404)
  })

  it('refuses a body with unknown fields or a bad seed with 400 naming the field', async () => {
    expect((await makeTeam(server, { nmae: 'x' })).body).toMatchObject({ error: expect.stringContaining('"nmae"') })
    expect((await makeTeam(server, { seed: -1 })).body).toMatchObject({ field: 'seed' })
  })

  it('refuses a start with more teams than the limit, naming the option', async () => {
    await expect(startServer({ port: 0, log: 'silent', teams: 3, maxTeams: 2 })).rejects.toThrow(/Invalid option teams/)
  })
})

describe('teams: closing the server closes them all', () => {
  it('no team answers once the server has closed', async () => {
    const server = await startServer({ port: 0, log: 'silent', teams: 2 })
    await server.teams.create({ name: 'later' })
    const urls = server.teams.list().map((t) => t.url)
    await server.close()
    for (const url of urls) expect(await answers(url)).toBe(false)
  })
})

describe('teams: a credential of one team is refused by every other', () => {
  let server: RunningServer
  beforeAll(async () => {
    server = await startServer({ port: 0, log: 'silent', clock: 'manual', teams: 2 })
  })
  afterAll(() => server.close())
  const h = (name: string): ReturnType<typeof teamHarness> => teamHarness(teamOf(server, name))
  const versionsWith = async (name: string, authorization: string): Promise<number> => (await h(name).fetch(VERSIONS(), { headers: { authorization } })).status

  it('an access token: its issuer and signing key are its team\'s; every other team answers the gate\'s 401', async () => {
    const one = String((await token(h('team-1'), { grant_type: 'client_credentials' })).body.access_token)
    const two = String((await token(h('team-2'), { grant_type: 'client_credentials' })).body.access_token)
    expect(decodeJwt(one).iss).toBe(teamOf(server, 'team-1').url)
    expect(decodeJwt(two).iss).toBe(teamOf(server, 'team-2').url)
    expect(decodeProtectedHeader(one).kid).not.toBe(decodeProtectedHeader(two).kid)
    expect(await versionsWith('team-1', `Bearer ${one}`)).toBe(200)
    for (const other of ['team-2', 'main']) {
      const answer = await h(other).fetch(VERSIONS(), { headers: { authorization: `Bearer ${one}` } })
      expect(answer.status).toBe(401)
      expect(answer.headers.get('www-authenticate')).toMatch(/^Bearer/)
    }
  })

  it('an API key made at run time, even when the other team makes one at the same point', async () => {
    const body = { kind: 'app', permissions: [{ action: 'read', resource: 'storage/acme-collection/acme-tenant' }] }
    const one = await h('team-1').control<{ key: string }>('POST', '/api-keys', body)
    const two = await h('team-2').control<{ key: string }>('POST', '/api-keys', body)
    expect(one.body.key).not.toBe(two.body.key)
    expect(await versionsWith('team-1', `AppKey ${one.body.key}`)).toBe(200)
    expect(await versionsWith('team-2', `AppKey ${one.body.key}`)).toBe(401)
    expect(await versionsWith('main', `AppKey ${one.body.key}`)).toBe(401)
  })

  it('an OAuth client made at run time, and its secret', async () => {
    const input = { name: 'worker app', grantType: 'client_credentials', authMethod: 'client_secret_basic', scopes: ['studio'] }
    const one = await h('team-1').control<{ clientId: string; clientSecret: string }>('POST', '/oauth-clients', input)
    const two = await h('team-2').control<{ clientId: string; clientSecret: string }>('POST', '/oauth-clients', input)
    expect([one.body.clientId, one.body.clientSecret]).not.toEqual([two.body.clientId, two.body.clientSecret])
    const client = { id: one.body.clientId, secret: one.body.clientSecret }
    expect((await token(h('team-1'), { grant_type: 'client_credentials' }, { client })).status).toBe(200)
    expect((await token(h('team-2'), { grant_type: 'client_credentials' }, { client })).body.error).toBe('invalid_client')
  })

  it('an authorization code and a refresh token', async () => {
    const code = await getCode(h('team-1'))
    const elsewhere = await exchange(h('team-2'), code)
    expect([elsewhere.status, elsewhere.body.error]).toEqual([400, 'invalid_grant'])
    const tokens = await exchange(h('team-1'), await getCode(h('team-1')))
    expect(tokens.status).toBe(200)
    const refresh = await token(h('team-2'), { grant_type: 'refresh_token', refresh_token: String(tokens.body.refresh_token) }, { auth: 'post', client: WEB_APP })
    expect([refresh.status, refresh.body.error]).toEqual([400, 'invalid_grant'])
  })

  it('a device code', async () => {
    const device = await token(h('team-1'), { client_id: 'content-cli', scope: 'studio' }, { auth: 'none', path: '/oauth2/device_authorization' })
    const poll = (name: string): ReturnType<typeof token> =>
      token(h(name), { grant_type: 'urn:ietf:params:oauth:grant-type:device_code', device_code: String(device.body.device_code), client_id: 'content-cli' }, { auth: 'none' })
    expect((await poll('team-2')).body.error).toBe('invalid_grant')
    expect((await poll('team-1')).status).toBe(200)
  })

  it('the credentials of the fixtures are each team\'s own copy: deleting one in a team leaves the others', async () => {
    expect((await h('team-1').control('DELETE', '/api-keys/svcmock-app-key')).status).toBe(204)
    expect(await versionsWith('team-1', APP_KEY.authorization)).toBe(401)
    expect(await versionsWith('team-2', APP_KEY.authorization)).toBe(200)
    expect((await token(h('team-2'), { grant_type: 'client_credentials' }, { client: CI })).status).toBe(200)
  })
})

describe('teams: state never crosses', () => {
  let server: RunningServer
  beforeAll(async () => {
    server = await startServer({ port: 0, log: 'silent', clock: 'manual', teams: 2 })
  })
  afterAll(() => server.close())
  const h = (name: string): ReturnType<typeof teamHarness> => teamHarness(teamOf(server, name))
  const hook = (name: string, orderId: string): Promise<Response> =>
    h(name).fetch('/hooks/orders', { method: 'POST', headers: JSON_HEADERS, body: JSON.stringify({ orderId }) })

  it("a reset of one team keeps another's queued calls, clock, scenarios and journal", async () => {
    for (const name of ['team-1', 'team-2']) {
      await h(name).control('PUT', '/webhooks/orders/flow', { active: false })
      expect((await hook(name, `${name}-queued`)).status).toBe(200)
      await h(name).control('POST', '/clock/advance', { ms: 60_000 })
      await h(name).control('POST', '/scenarios/versions-not-found')
    }
    expect((await h('team-1').control('POST', '/reset')).status).toBe(200)
    const two = teamOf(server, 'team-2').emulator
    expect(two.webhooks.get('orders').queue.length).toBe(1)
    expect(two.clock.now().getTime() - teamOf(server, 'team-1').emulator.clock.now().getTime()).toBe(60_000)
    expect(two.scenarios.list().filter((s) => s.active).map((s) => s.name)).toEqual(['versions-not-found'])
    expect(two.journal.list({ route: 'webhooks.receive' }).map((e) => e.path)).toEqual(['/hooks/orders'])
    const one = teamOf(server, 'team-1').emulator
    expect([one.webhooks.get('orders').queue.length, one.journal.list().map((e) => e.route), one.scenarios.list().some((s) => s.active)]).toEqual([0, ['control.reset'], false])
  })

  it("a flow's executions and a scenario for one request stay in their team", async () => {
    await h('team-1').control('POST', '/reset')
    await h('team-2').control('POST', '/reset')
    expect((await hook('team-1', 'only-one')).status).toBe(200)
    expect((await h('team-2').fetch(VERSIONS(), { headers: { ...APP_KEY, 'x-svc-mock-scenario': 'versions-server-error' } })).status).toBe(500)
    await teamOf(server, 'team-1').emulator.clock.settle()
    expect(teamOf(server, 'team-1').emulator.webhooks.executions('orders').map((e) => e.bundle.orderId)).toEqual(['only-one'])
    expect(teamOf(server, 'team-2').emulator.webhooks.executions('orders')).toEqual([])
    expect(teamOf(server, 'team-1').emulator.journal.list({ route: 'versions.list' })).toEqual([])
  })
})
