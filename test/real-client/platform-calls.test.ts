/**
 * The platform calls beyond the service description that real clients make, answered from route
 * files with the gate's rules (issue 26): the platform's CLI (`@celonis/content-cli` 1.15.0, its
 * own code) lists studio spaces at `GET /package-manager/api/spaces`, and the platform's Python
 * SDK lists data pools at `GET /integration/api/pools`. The route files are the documentation's
 * examples (docs/examples/), served by the standalone server over a socket.
 *
 * content-cli is driven as in content-cli.test.ts, only lighter: its environment profile
 * (`TEAM_URL`, `API_TOKEN`: a key sent as Bearer) needs no prompt and no keychain, and its own
 * `SpaceApi` makes the call through its own HTTP client (axios). pycelonis is proprietary and is
 * never downloaded (shared/evidence.md): its request is sent as its source makes it (pycelonis
 * 2.14: `User-Agent: pycelonis/2.14.1`, `Authorization: AppKey <key>` or `Bearer <token>`), and the
 * answer is checked for what it reads (a JSON list; a body parsed only when the Content-Type starts
 * with application/json; 401 and 403 as permission errors).
 */
import { mkdtempSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startServer, type RunningServer } from '../../src/adapters/server.js'

const EXAMPLES = fileURLToPath(new URL('../../docs/examples/', import.meta.url))
const ACCESS_DENIED = { title: 'Access Denied.', status: 403, detail: 'Access is denied', errorCode: 'ADMIN_ACCESS_ERROR' }

// content-cli reads HOME when its modules load (its log and profile folders).
const savedHome = process.env.HOME
process.env.HOME = mkdtempSync(join(tmpdir(), 'svc-mock-platform-calls-'))
const require = createRequire(import.meta.url)
const cliRequire = createRequire(join(dirname(require.resolve('@celonis/content-cli/package.json')), 'content-cli.js'))
const { logger } = cliRequire('./core/utils/logger') as { logger: { silent: boolean } }
logger.silent = true
const { Context } = cliRequire('./core/command/cli-context') as { Context: new (options: object) => { init(): Promise<void>; profile: { type: string; authenticationType: string } | undefined } }
const { SpaceApi } = cliRequire('./commands/studio/api/space-api.js') as { SpaceApi: new (context: object) => { findAllSpaces(): Promise<unknown> } }

let server: RunningServer
const saved = { TEAM_URL: process.env.TEAM_URL, API_TOKEN: process.env.API_TOKEN }

beforeAll(async () => {
  server = await startServer({ port: 0, log: 'silent', routes: EXAMPLES })
})

afterAll(async () => {
  await server.close()
  for (const [name, value] of Object.entries({ ...saved, HOME: savedHome })) {
    if (value === undefined) delete process.env[name]
    else process.env[name] = value
  }
})

/** content-cli with its environment profile: the team's URL and a key, which it sends as Bearer. */
async function contentCli(apiToken: string): Promise<{ findAllSpaces(): Promise<unknown> }> {
  process.env.TEAM_URL = server.url
  process.env.API_TOKEN = apiToken
  const context = new Context({})
  await context.init()
  expect(context.profile).toMatchObject({ type: 'Key', authenticationType: 'Bearer' })
  return new SpaceApi(context)
}

/** The data-pools call as pycelonis makes it. */
function pycelonis(path: string, authorization: string, init: RequestInit = {}): Promise<Response> {
  return fetch(`${server.url}${path}`, { ...init, headers: { 'user-agent': 'pycelonis/2.14.1', accept: 'application/json', authorization, ...init.headers } })
}

async function clientToken(client: string, secret: string): Promise<string> {
  const response = await fetch(`${server.url}/oauth2/token`, {
    method: 'POST',
    headers: { authorization: `Basic ${Buffer.from(`${client}:${secret}`).toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' },
    body: 'grant_type=client_credentials',
  })
  return String(((await response.json()) as { access_token: string }).access_token)
}

describe("content-cli's spaces call, answered from a route file", () => {
  it('lists the spaces of docs/examples/spaces.json through its own HTTP client, with a user API key as its Bearer', async () => {
    const spaces = await contentCli('svcmock-user-key-alice')
    expect(await spaces.findAllSpaces()).toEqual([{ id: 'c0ffee00-1111-4222-8333-444455556666', name: 'Default', iconReference: 'earth' }])
  })

  it("fails as it fails on the platform when the key is not known: the gate's 401 body", async () => {
    const spaces = await contentCli('not-a-key-of-this-team')
    await expect(spaces.findAllSpaces()).rejects.toThrow('Problem getting spaces: Error: {"error":"Unauthorized"}')
  })
})

describe("pycelonis's data-pools call, answered from a route file", () => {
  it('lists the pools of docs/examples/data-pools.json as a JSON list, to an application key (AppKey) and an OAuth token (Bearer)', async () => {
    for (const authorization of ['AppKey svcmock-app-key', `Bearer ${await clientToken('ci-client', 'ci-secret')}`]) {
      const response = await pycelonis('/integration/api/pools', authorization)
      expect(response.status).toBe(200)
      expect(response.headers.get('content-type')).toMatch(/^application\/json/)
      const pools = (await response.json()) as Array<{ id: string; name: string }>
      expect(pools.map((p) => p.name)).toEqual(['SAP ECC', 'Salesforce'])
    }
  })

  it("answers the key sent under the wrong scheme with the gate's 401 (what makes pycelonis try the other scheme), in JSON it parses", async () => {
    const response = await pycelonis('/integration/api/pools', 'Bearer svcmock-app-key')
    expect(response.status).toBe(401)
    expect(response.headers.get('content-type')).toMatch(/^application\/json/)
    expect(await response.json()).toEqual({ error: 'Unauthorized' })
  })

  it("answers a push without the data-push scope with the platform's 403, and takes it with the scope", async () => {
    const push = (token: string): Promise<Response> => pycelonis('/integration/api/v1/data-push/8a4f5c52-0d4e-4f0e-9c1b-1f6d2a7b3c01/jobs/?targetName=orders', `Bearer ${token}`, { method: 'POST' })
    const refused = await push(await clientToken('limited-client', 'limited-secret'))
    expect(refused.status).toBe(403)
    expect(await refused.json()).toEqual(ACCESS_DENIED)
    const accepted = await push(await clientToken('ci-client', 'ci-secret'))
    expect(accepted.status).toBe(201)
    expect(await accepted.json()).toMatchObject({ dataPoolId: '8a4f5c52-0d4e-4f0e-9c1b-1f6d2a7b3c01', targetName: 'orders', status: 'NEW', createdBy: 'ci-client' })
  })
})
