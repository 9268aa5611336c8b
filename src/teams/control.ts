/**
 * The teams on the control plane, under `/__svc-mock/teams`: list, make and close the isolated
 * emulators a standalone server runs beside its main one, thin translations of `server.teams`; and
 * their documentation. An emulator without a server (in-process: there is no port to open)
 * answers 501 saying what to do instead.
 */
import * as z from 'zod'
import { type ControlPart, controlRoute as route, noContent, once, readInput } from '../kernel/control.js'
import { json } from '../kernel/reply.js'
import type { RouteDoc } from '../kernel/route.js'
import { TeamsUnavailableError } from './errors.js'
import { type TeamsApi, infoOf } from './team.js'

/** `base`: this emulator's `{base_url}`, which names the team answering; `teams`: the server's, none in-process. */
export function teamsControl(base: string, teams: TeamsApi | undefined): ControlPart {
  const server = (): TeamsApi => {
    if (!teams) throw new TeamsUnavailableError()
    return teams
  }
  return {
    routes: [
      route('teams.list', 'GET', '/teams', "The server's teams, the main one first; `current` is the one answering", () =>
        json(server().list().map((team) => ({ ...team, current: team.url === base }))),
      ),
      route('teams.create', 'POST', '/teams', 'Make a team: an isolated emulator on a port of its own {name, fixtures, seed, scenarios, port}', async (ctx) => {
        const running = server()
        return json(infoOf(await running.create(await readInput(ctx))), { status: 201 })
      }),
      route('teams.delete', 'DELETE', '/teams/:name', 'Close a team: its port, its store, its keys', async (ctx) => {
        await server().delete(ctx.params.name ?? '')
        return noContent()
      }),
    ],
    docs: once(docs),
  }
}

async function docs(): Promise<Readonly<Record<string, RouteDoc>>> {
  const [{ CHANGE_REFUSALS, READ_REFUSALS, json, noContent, refused }, { TeamBody }] = await Promise.all([import('../kernel/control-docs.js'), import('./body.js')])
  const Team = z
    .object({
      name: z.string(),
      url: z.string().meta({ description: 'Its origin: every endpoint, its control plane and its dashboard.' }),
      port: z.number().int(),
      main: z.boolean().meta({ description: "The server's own team (it closes only with the server)." }),
      seed: z.number().int(),
      dashboard: z.string(),
    })
    .meta({ id: 'Team' })
  const off = { ...refused('In-process: teams need the standalone server (each listens on a port of its own).'), name: 'NoTeams' }
  return {
    'teams.list': {
      responses: { '200': json('Every team of the server, the main one first.', z.array(Team.extend({ current: z.boolean().meta({ description: 'The team whose control plane answered.' }) }))), '501': off, ...READ_REFUSALS },
    },
    'teams.create': {
      description:
        "A complete, isolated emulator (store, keys, clock, scenarios, journal, webhooks) seeded from the run's fixtures and then the body's, listening on a port of its own on the same host. " +
        'Its tokens, keys and codes are refused by every other team. With `state`, it starts from a saved state (GET /__svc-mock/state/export), which its reset returns to: every parallel worker from one file. ' +
        'A 400 (a name that is not a DNS label, fixtures, a scenario or a saved state that fail validation, naming `state.<member>`) makes nothing.',
      body: { 'application/json': TeamBody.meta({ id: 'TeamOptions' }) },
      responses: {
        '201': json('The team.', Team),
        '409': refused('A team of that name exists already.'),
        '429': json('As many teams run as the limit allows (`--max-teams`).', z.object({ error: z.string(), limit: z.number().int() })),
        '501': off,
        '503': refused('Its port could not be opened; the message says why.'),
        ...CHANGE_REFUSALS,
      },
    },
    'teams.delete': {
      description: 'Its port takes no more connections once answered; requests in flight there still get their answers.',
      params: { name: 'The team.' },
      responses: { '204': noContent, '404': refused('No such team.'), '409': refused('The main team closes only with the server.'), '501': off, ...READ_REFUSALS },
    },
  }
}
