/**
 * What a team (or the whole server) answers while it closes: a long poll (`journal/wait`) pending
 * there is answered at once, 410 `{"error": "team deleted"}` when its team is deleted and 503
 * `{"error": "server closing"}` when the server closes, never a cut connection; then the port
 * closes. The clock is manual and never moves: the answers come from the closing alone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type RunningServer, type RunningTeam, startServer } from '../../src/adapters/server.js'
import { APP_KEY, VERSIONS } from '../support/harness.js'
import { answers, teamOf } from '../support/teams.js'

/** A day of emulator time: the long poll never times out by itself while the clock stands still. */
const A_DAY_MS = 86_400_000

interface Answer {
  status: number
  body: unknown
}

/** Starts a long poll at the team's control plane; resolves, once it waits on the team's clock, with its answer to come. */
async function longPoll(team: RunningTeam): Promise<{ answer: Promise<Answer> }> {
  const parked = team.emulator.clock.parked()
  const answer = fetch(`${team.url}/__svc-mock/journal/wait?route=versions.list&timeoutMs=${A_DAY_MS}`).then(async (response) => ({ status: response.status, body: await response.json() }))
  await team.emulator.clock.waitForParked(parked + 1)
  return { answer }
}

describe('deleting a team answers what is in flight there', () => {
  let server: RunningServer
  beforeAll(async () => {
    server = await startServer({ port: 0, log: 'silent', clock: 'manual' })
  })
  afterAll(() => server.close())

  it('answers a pending journal/wait of a deleted team at once with 410 {"error": "team deleted"}, then closes its port', async () => {
    const team = await server.teams.create({ name: 'polled' })
    const pending = await longPoll(team)
    const deleted = await fetch(`${server.url}/__svc-mock/teams/polled`, { method: 'DELETE' })
    expect(deleted.status).toBe(204)
    expect(await pending.answer).toEqual({ status: 410, body: { error: 'team deleted' } })
    expect(await answers(team.url)).toBe(false)
  })

  it('answers the long poll with 410 also when the team is deleted through its own control plane', async () => {
    const team = await server.teams.create({ name: 'self-polled' })
    const pending = await longPoll(team)
    expect((await fetch(`${team.url}/__svc-mock/teams/self-polled`, { method: 'DELETE' })).status).toBe(204)
    expect(await pending.answer).toEqual({ status: 410, body: { error: 'team deleted' } })
  })

  it('from code: a pending emu.journal.wait() of a deleted team rejects with a TeamDeletedError (ERR_TEAM_DELETED, 410)', async () => {
    const team = await server.teams.create({ name: 'awaited' })
    const waiting = team.emulator.journal.wait({}, { timeoutMs: A_DAY_MS })
    await team.emulator.clock.waitForParked(1)
    await server.teams.delete('awaited')
    await expect(waiting).rejects.toMatchObject({ code: 'ERR_TEAM_DELETED', status: 410, message: 'team deleted' })
  })

  it('leaves the long polls of the other teams waiting', async () => {
    const staying = await server.teams.create({ name: 'staying' })
    const going = await server.teams.create({ name: 'going' })
    const stays = await longPoll(staying)
    const goes = await longPoll(going)
    await server.teams.delete('going')
    expect((await goes.answer).status).toBe(410)
    expect(staying.emulator.clock.parked()).toBe(1)
    await fetch(`${staying.url}${VERSIONS()}`, { headers: APP_KEY })
    expect((await stays.answer).status).toBe(200)
  })
})

describe('closing the server answers the long polls of every team', () => {
  it('answers each pending journal/wait, the main team\'s and the others\', with 503 {"error": "server closing"}, then closes every port', async () => {
    const server = await startServer({ port: 0, log: 'silent', clock: 'manual', teams: 1 })
    const pending = [await longPoll(teamOf(server, 'main')), await longPoll(teamOf(server, 'team-1'))]
    const urls = server.teams.list().map((t) => t.url)
    await server.close()
    expect(await Promise.all(pending.map((p) => p.answer))).toEqual([
      { status: 503, body: { error: 'server closing' } },
      { status: 503, body: { error: 'server closing' } },
    ])
    for (const url of urls) expect(await answers(url)).toBe(false)
  })
})
