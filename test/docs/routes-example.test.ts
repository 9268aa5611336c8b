/**
 * docs/routes.md's complete example is docs/examples/data-pools.json, and that file, loaded as
 * written, serves what the page says: the pools (list, read, create, replace, delete) to any valid
 * credential, and the push to a token holding the data-push scope, with its placeholders filled.
 */
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { createEmulator } from '../../src/index.js'

const FILE = fileURLToPath(new URL('../../docs/examples/data-pools.json', import.meta.url))
const PAGE = readFileSync(new URL('../../docs/routes.md', import.meta.url), 'utf8')
const APP_KEY = { authorization: 'AppKey svcmock-app-key' }
const POOL = '8a4f5c52-0d4e-4f0e-9c1b-1f6d2a7b3c01'

describe("docs/routes.md's data-pools example", async () => {
  const emu = await createEmulator({ routes: FILE, clock: 'manual' })
  afterAll(() => emu.close())
  const call = (path: string, init: RequestInit = {}): Promise<Response> => emu.handle(new Request(`https://acme.svc-mock.test${path}`, { ...init, headers: { ...APP_KEY, ...init.headers } }))

  it('is the file the page writes, byte for byte but for $schema, which each gives from where it stands (the package\'s docs/examples/, a project\'s routes/)', () => {
    const written = /cat > routes\/data-pools\.json <<'EOF'\n([\s\S]*?)\nEOF\n/.exec(PAGE)?.[1]
    expect(written).toBeDefined()
    const packaged = readFileSync(FILE, 'utf8')
    expect(packaged).toContain('"$schema": "../routes.schema.json",')
    expect(`${written ?? ''}\n`).toBe(packaged.replace('"$schema": "../routes.schema.json",', '"$schema": "../node_modules/svc-mock/docs/routes.schema.json",'))
  })

  it('lists, reads, creates, replaces and deletes pools', async () => {
    expect(((await (await call('/integration/api/pools')).json()) as Array<{ name: string }>).map((p) => p.name)).toEqual(['SAP ECC', 'Salesforce'])
    expect(await (await call(`/integration/api/pools/${POOL}`)).json()).toMatchObject({ name: 'SAP ECC' })
    const created = await call('/integration/api/pools', { method: 'POST', body: JSON.stringify({ name: 'Workday' }) })
    expect(created.status).toBe(201)
    const { id } = (await created.json()) as { id: string }
    expect((await call(`/integration/api/pools/${id}`, { method: 'PUT', body: JSON.stringify({ name: 'Workday HR' }) })).status).toBe(200)
    expect((await call(`/integration/api/pools/${id}`, { method: 'DELETE' })).status).toBe(204)
  })

  it("pushes with the data-push scope's token, its placeholders filled; refuses a token without it", async () => {
    const tokenOf = async (basic: string): Promise<string> => {
      const answer = await emu.handle(new Request('https://acme.svc-mock.test/oauth2/token', { method: 'POST', headers: { authorization: `Basic ${btoa(basic)}`, 'content-type': 'application/x-www-form-urlencoded' }, body: 'grant_type=client_credentials' }))
      return ((await answer.json()) as { access_token: string }).access_token
    }
    const push = (token: string): Promise<Response> => call(`/integration/api/v1/data-push/${POOL}/jobs/?targetName=orders`, { method: 'POST', headers: { authorization: `Bearer ${token}` } })
    const accepted = await push(await tokenOf('ci-client:ci-secret'))
    expect(accepted.status).toBe(201)
    const job = (await accepted.json()) as Record<string, string>
    expect(job).toMatchObject({ dataPoolId: POOL, targetName: 'orders', type: 'REPLACE', status: 'NEW', creationDate: emu.clock.now().toISOString(), createdBy: 'ci-client' })
    expect(job.id).toMatch(/^[0-9a-f-]{36}$/)
    expect((await push(await tokenOf('limited-client:limited-secret'))).status).toBe(403)
  })
})
