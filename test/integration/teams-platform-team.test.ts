/**
 * A server's team is its own team on the platform's routes: `/api/cloud/team`, `/api/team` and
 * `/api/cloud` (`teamId`, `teamName`, `teamDomain`) name the team made at run time (its name, and
 * its URL's host as the domain), unless the team's own fixtures name a team; the main team keeps
 * the team the run's fixtures name.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type RunningServer, startServer } from '../../src/adapters/server.js'
import { ALICE_KEY, APP_KEY } from '../support/harness.js'
import { makeTeam, teamOf } from '../support/teams.js'

interface PlatformTeam {
  id: string
  name: string
  domain: string
}

/** What the three platform routes say the team is, at `url`. */
async function platformTeamAt(url: string): Promise<{ cloudTeam: PlatformTeam; team: PlatformTeam; cloud: PlatformTeam }> {
  const read = async (path: string, headers: Record<string, string>): Promise<Record<string, unknown>> => {
    const answer = await fetch(`${url}${path}`, { headers })
    expect(answer.status, path).toBe(200)
    return (await answer.json()) as Record<string, unknown>
  }
  const cloudTeam = await read('/api/cloud/team', APP_KEY)
  const team = await read('/api/team', APP_KEY)
  const cloud = await read('/api/cloud', ALICE_KEY)
  return {
    cloudTeam: { id: String(cloudTeam.id), name: String(cloudTeam.name), domain: String(cloudTeam.domain) },
    team: { id: String(team.id), name: String(team.name), domain: String(team.domain) },
    cloud: { id: String(cloud.teamId), name: String(cloud.teamName), domain: String(cloud.teamDomain) },
  }
}

/** The same platform team on all three routes. */
const everywhere = (team: PlatformTeam): Awaited<ReturnType<typeof platformTeamAt>> => ({ cloudTeam: team, team, cloud: team })

describe("a server's team is its own team on the platform's routes", () => {
  let server: RunningServer
  beforeAll(async () => {
    server = await startServer({ port: 0, log: 'silent', clock: 'manual', teams: 2 })
  })
  afterAll(() => server.close())

  it('a team made with a name answers /api/cloud/team, /api/team and /api/cloud with its name and its host as the domain', async () => {
    const made = await makeTeam(server, { name: 'worker-1' })
    expect(made.status).toBe(201)
    expect(await platformTeamAt(String(made.body.url))).toEqual(everywhere({ id: 'worker-1', name: 'worker-1', domain: '127.0.0.1' }))
  })

  it('a team made at start (teams: 2) answers as team-1, team-2', async () => {
    for (const name of ['team-1', 'team-2']) expect(await platformTeamAt(teamOf(server, name).url)).toEqual(everywhere({ id: name, name, domain: '127.0.0.1' }))
  })

  it("the main team keeps answering the team the run's fixtures name (Acme)", async () => {
    expect(await platformTeamAt(server.url)).toEqual(everywhere({ id: 'acme', name: 'Acme', domain: '127.0.0.1' }))
  })

  it("a team whose own fixtures name a team answers that team, the fixtures' domain included", async () => {
    const named = await makeTeam(server, { name: 'own-team', fixtures: { team: { id: 'globex', name: 'Globex', domain: 'globex.eu-1.celonis.cloud' } } })
    expect(await platformTeamAt(String(named.body.url))).toEqual(everywhere({ id: 'globex', name: 'Globex', domain: 'globex.eu-1.celonis.cloud' }))
    const noDomain = await makeTeam(server, { name: 'own-team-2', fixtures: [{ users: [] }, { team: { id: 'initech', name: 'Initech' } }] })
    expect(await platformTeamAt(String(noDomain.body.url))).toEqual(everywhere({ id: 'initech', name: 'Initech', domain: '127.0.0.1' }))
  })

  it('a team keeps its own name after a reset', async () => {
    const team = teamOf(server, 'team-1')
    await team.emulator.reset()
    expect((await platformTeamAt(team.url)).team).toEqual({ id: 'team-1', name: 'team-1', domain: '127.0.0.1' })
  })
})

describe("the run's fixtures name the main team, not the server's other teams", () => {
  let server: RunningServer
  beforeAll(async () => {
    server = await startServer({ port: 0, log: 'silent', teams: 1, fixtures: [{ team: { id: 'run-team', name: 'Run Team', domain: 'run.example.test' } }] })
  })
  afterAll(() => server.close())

  it("the main team answers the run's team; team-1 answers as itself, at its own host", async () => {
    expect(await platformTeamAt(server.url)).toEqual(everywhere({ id: 'run-team', name: 'Run Team', domain: 'run.example.test' }))
    expect(await platformTeamAt(teamOf(server, 'team-1').url)).toEqual(everywhere({ id: 'team-1', name: 'team-1', domain: '127.0.0.1' }))
  })
})
