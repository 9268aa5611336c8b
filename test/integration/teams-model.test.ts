/**
 * Teams never see each other, checked against a model: fast-check draws random operations
 * (scenarios on and off, clock moves, webhook calls, flow changes, tokens, keys, clients,
 * elements, resets, API calls with the team's own and with other teams' credentials) for three
 * teams of one server, interleaved, each round running one operation of several teams at once.
 * Then each team's operations are replayed, in order, on a team of the same name alone on a
 * server of its own. Every answer and the final state (the dashboard's state, the journal, the
 * flow's executions, the elements) must be what the team alone gives, its origin aside; and a
 * credential of another team is never let in.
 *
 * `TEAMS_MODEL_RUNS` sets the number of runs (default 16); `FUZZ_SEED` the seed.
 */
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type RunningServer, startServer } from '../../src/adapters/server.js'
import { FUZZ_SEED } from '../support/fuzz.js'
import { VERSIONS } from '../support/harness.js'
import { teamOf } from '../support/teams.js'

const RUNS = Number(process.env.TEAMS_MODEL_RUNS ?? 16)
const TEAMS = ['t-a', 't-b', 't-c'] as const
const SCENARIOS = ['versions-not-found', 'webhook-queue-full', 'static-keys-rejected', 'webhook-flow-fails', 'insufficient-permissions'] as const
const CREDENTIALS = ['app-key', 'own-token', 'own-key', 'foreign-token', 'foreign-key'] as const
/** What a foreign credential is before another team has made one: still nobody's. */
const NOBODYS = 'not-a-credential-of-any-team'

type Credential = (typeof CREDENTIALS)[number]
type Op =
  | { kind: 'scenario-on' | 'scenario-off'; name: (typeof SCENARIOS)[number] }
  | { kind: 'advance'; ms: number }
  | { kind: 'hook'; orderId: string }
  | { kind: 'flow'; active: boolean }
  | { kind: 'versions'; credential: Credential }
  | { kind: 'token' | 'create-key' | 'create-client' | 'add-element' | 'reset' }

/** An operation as a team ran it: a foreign credential with the value it had then, so the replay sends the same. */
interface Ran {
  readonly op: Op
  readonly foreign?: string
}

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constantFrom('scenario-on' as const, 'scenario-off' as const), name: fc.constantFrom(...SCENARIOS) }),
  fc.record({ kind: fc.constant('advance' as const), ms: fc.integer({ min: 0, max: 120_000 }) }),
  fc.record({ kind: fc.constant('hook' as const), orderId: fc.stringMatching(/^[A-Z]-[0-9]{1,3}$/) }),
  fc.record({ kind: fc.constant('flow' as const), active: fc.boolean() }),
  { arbitrary: fc.record({ kind: fc.constant('versions' as const), credential: fc.constantFrom(...CREDENTIALS) }), weight: 3 },
  fc.record({ kind: fc.constantFrom('token' as const, 'create-key' as const, 'create-client' as const, 'add-element' as const, 'reset' as const) }),
)
const program = fc.array(fc.record({ team: fc.integer({ min: 0, max: TEAMS.length - 1 }), op }), { minLength: 1, maxLength: 40 })

/** The credentials a team made so far in one run. */
interface Made {
  token?: string
  key?: string
}

/** What a team shows: every answer, in order, and its state at the end. */
interface Observed {
  answers: unknown[]
  state: unknown
}

const ELEMENT = {
  storage: 'acme-collection/acme-tenant',
  facet: 'processes',
  type: 'subProcess',
  versions: [{ state: 'released', attributes: { name: { '1033': 'Ship goods' }, version: { '127': '1.0' } } }],
}

/** Runs one operation on a team at `url`; answers with what the caller sees (never a token, whose signature is random). */
async function run(url: string, ran: Ran, made: Made): Promise<unknown> {
  const json = { 'content-type': 'application/json' }
  const control = (method: string, path: string, body?: unknown): Promise<Response> =>
    fetch(`${url}/__svc-mock${path}`, { method, headers: json, ...(body === undefined ? {} : { body: JSON.stringify(body) }) })
  const { op } = ran
  let response: Response
  switch (op.kind) {
    case 'scenario-on':
      response = await control('POST', `/scenarios/${op.name}`, op.name === 'webhook-queue-full' ? { webhook: 'orders', params: { capacity: 1 } } : undefined)
      break
    case 'scenario-off':
      response = await control('DELETE', `/scenarios/${op.name}`)
      break
    case 'advance':
      response = await control('POST', '/clock/advance', { ms: op.ms })
      break
    case 'hook':
      response = await fetch(`${url}/hooks/orders`, { method: 'POST', headers: json, body: JSON.stringify({ orderId: op.orderId }) })
      break
    case 'flow':
      response = await control('PUT', '/webhooks/orders/flow', { active: op.active })
      break
    case 'token': {
      response = await fetch(`${url}/oauth2/token`, {
        method: 'POST',
        headers: { authorization: `Basic ${btoa('ci-client:ci-secret')}`, 'content-type': 'application/x-www-form-urlencoded' },
        body: 'grant_type=client_credentials',
      })
      const body = (await response.json()) as Record<string, unknown>
      if (typeof body.access_token === 'string') made.token = body.access_token
      return { status: response.status, tokenType: body.token_type, expiresIn: body.expires_in, error: body.error }
    }
    case 'create-key': {
      response = await control('POST', '/api-keys', { kind: 'app', permissions: [{ action: 'read', resource: 'storage/acme-collection/acme-tenant' }] })
      const body = (await response.json()) as Record<string, unknown>
      if (typeof body.key === 'string') made.key = body.key
      return { status: response.status, body }
    }
    case 'create-client':
      response = await control('POST', '/oauth-clients', { name: 'worker app', grantType: 'client_credentials', authMethod: 'client_secret_basic', scopes: ['studio'] })
      break
    case 'add-element':
      response = await control('POST', '/elements', ELEMENT)
      break
    case 'reset':
      response = await control('POST', '/reset')
      break
    case 'versions': {
      const own = { 'app-key': 'AppKey svcmock-app-key', 'own-token': `Bearer ${made.token ?? NOBODYS}`, 'own-key': `AppKey ${made.key ?? NOBODYS}` } as Record<string, string>
      const authorization = own[op.credential] ?? (op.credential === 'foreign-token' ? `Bearer ${ran.foreign ?? NOBODYS}` : `AppKey ${ran.foreign ?? NOBODYS}`)
      response = await fetch(`${url}${VERSIONS()}`, { headers: { authorization } })
      break
    }
  }
  return { status: response.status, body: await response.text() }
}

/** What a team holds at the end, read from its emulator once its flows have run. */
async function stateOf(server: RunningServer, name: string): Promise<unknown> {
  const emu = teamOf(server, name).emulator
  await emu.clock.settle()
  return {
    state: emu.state(),
    journal: emu.journal.list().map(({ seq, route, method, path, status, identity, scenarios, time }) => ({ seq, route, method, path, status, identity, scenarios, time })),
    executions: emu.webhooks.executions('orders').map(({ bundle, receivedAt, processedAt, outcome }) => ({ bundle, receivedAt, processedAt, outcome })),
    elements: emu.elements.list(),
  }
}

/** The observation with the team's origin written as ORIGIN (a team alone listens elsewhere). */
function normalized(observed: Observed, url: string): unknown {
  return JSON.parse(JSON.stringify(observed).replaceAll(url, 'ORIGIN'))
}

describe('teams: each team behaves as it would alone (model-based)', () => {
  let together: RunningServer
  let alone: RunningServer
  const options = { port: 0, log: 'silent', clock: { mode: 'manual', start: '2026-11-23T09:00:00Z' }, tokenAlgorithm: 'ES256' } as const
  beforeAll(async () => {
    together = await startServer(options)
    alone = await startServer(options)
  })
  afterAll(async () => {
    await together.close()
    await alone.close()
  })

  it(`${RUNS} random interleavings of operations over three teams`, async () => {
    await fc.assert(
      fc.asyncProperty(program, async (steps) => {
        for (const name of TEAMS) await together.teams.create({ name })
        const ran = new Map<string, Ran[]>(TEAMS.map((name) => [name, []]))
        const made = new Map<string, Made>(TEAMS.map((name) => [name, {}]))
        const answers = new Map<string, unknown[]>(TEAMS.map((name) => [name, []]))
        try {
          // A round runs the next operation of each team not yet in it, all at once.
          for (let start = 0; start < steps.length; ) {
            const round: Array<{ name: string; step: Ran }> = []
            while (start < steps.length && !round.some((r) => r.name === TEAMS[steps[start]?.team ?? 0])) {
              const step = steps[start++]
              if (!step) break
              const name = TEAMS[step.team] ?? 't-a'
              const others = TEAMS.filter((t) => t !== name).map((t) => made.get(t) ?? {})
              const foreign = step.op.kind === 'versions' ? others.map((m) => (step.op.kind === 'versions' && step.op.credential === 'foreign-token' ? m.token : m.key)).find((v) => v !== undefined) : undefined
              round.push({ name, step: { op: step.op, ...(foreign === undefined ? {} : { foreign }) } })
            }
            await Promise.all(
              round.map(async ({ name, step }) => {
                const answer = await run(teamOf(together, name).url, step, made.get(name) ?? {})
                ran.get(name)?.push(step)
                answers.get(name)?.push(answer)
                if (step.op.kind === 'versions' && step.op.credential.startsWith('foreign')) expect((answer as { status: number }).status).not.toBe(200)
              }),
            )
          }
          for (const name of TEAMS) {
            const url = teamOf(together, name).url
            const observed: Observed = { answers: answers.get(name) ?? [], state: await stateOf(together, name) }
            const solo = await alone.teams.create({ name })
            try {
              const soloMade: Made = {}
              const soloAnswers: unknown[] = []
              for (const step of ran.get(name) ?? []) soloAnswers.push(await run(solo.url, step, soloMade))
              const expected: Observed = { answers: soloAnswers, state: await stateOf(alone, name) }
              expect(normalized(observed, url), `team ${name}`).toEqual(normalized(expected, solo.url))
            } finally {
              await alone.teams.delete(name)
            }
          }
        } finally {
          for (const name of TEAMS) await together.teams.delete(name)
        }
      }),
      { numRuns: RUNS, seed: FUZZ_SEED, endOnFailure: true },
    )
  }, 30_000 + RUNS * 3_000)
})
