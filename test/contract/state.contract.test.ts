/**
 * Saved states on every way in: `GET /__svc-mock/state/export` and `POST /__svc-mock/state/import`.
 * A state built by hand is exported, the emulator goes on, the document is loaded again: every
 * read answers as it did when the state was saved, byte for byte, and the operations that follow
 * answer as they did the first time. A document that cannot be loaded is refused whole.
 */
import { expect, it } from 'vitest'
import type { SavedState } from '../../src/index.js'
import { type Harness, VERSIONS, contract } from '../support/harness.js'
import { WEB_APP, exchange, getCode, token } from '../support/oauth.js'
import { buildState, readAll } from '../support/state.js'

const exported = async (h: Harness): Promise<SavedState> => {
  const response = await h.fetch('/__svc-mock/state/export')
  expect(response.status).toBe(200)
  return (await response.json()) as SavedState
}
const load = (h: Harness, document: unknown): Promise<{ status: number; body: Record<string, unknown> }> => h.control('POST', '/state/import', document)
/** The document without its time of writing, to compare two exports. */
const timeless = (document: SavedState): Omit<SavedState, 'exportedAt'> => {
  const { exportedAt: _when, ...rest } = document
  return rest
}

/** What a user does next: each answer, as a test would check it. */
async function nextSteps(h: Harness): Promise<unknown[]> {
  const tokens = await exchange(h, await getCode(h))
  return [
    (await h.control('POST', '/oauth-clients', { name: 'next', grantType: 'client_credentials', authMethod: 'client_secret_post' })).body,
    (await h.control('POST', '/api-keys', { kind: 'user', userId: 'alice' })).body,
    tokens.body,
    (await token(h, { grant_type: 'refresh_token', refresh_token: String(tokens.body.refresh_token) }, { auth: 'post', client: WEB_APP })).body,
    (await h.control('POST', '/webhooks', { name: 'next' })).body,
    (await h.control('POST', '/elements', { storage: 'acme-collection/acme-tenant', facet: 'processes', type: 'process', versions: [{ state: 'released' }] })).body,
    (await h.control('POST', '/resources/pools', { name: 'next' })).body,
    (await h.fetch('/hooks/sync-reply', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"orderId": "next"}' })).status,
    (await h.control('POST', '/clock/advance', { ms: 6000 })).body,
    (await h.control('GET', '/webhooks/orders/executions')).body,
  ]
}

contract(
  'saved states: export and import',
  (h) => {
    it('exports one versioned document of what a reset would not give back, its secrets said to be the emulator\'s own', async () => {
      const response = await h.fetch('/__svc-mock/state/export')
      expect(response.headers.get('content-disposition')).toMatch(/^attachment; filename="svc-mock-state-\d{8}-\d{6}\.json"$/)
      const text = await response.text()
      const document = JSON.parse(text) as SavedState
      expect(document).toMatchObject({ svcMockState: 1, seed: 1, urls: h.emu.urls, kernel: { ids: 0, scenarios: [] } })
      expect(Object.keys(document)).toEqual(['svcMockState', 'version', 'exportedAt', 'note', 'seed', 'fixtures', 'urls', 'kernel', 'auth', 'versions', 'webhooks', 'userRoutes', 'control'])
      expect(document.note).toMatch(/svc-mock's own test values/)
      expect(text.length).toBeLessThan(20_000)
      expect(h.emu.journal.list({ route: 'control.state.*' })).toEqual([])
    })

    it('loads a saved state: every read answers as when it was saved, byte for byte, and what follows as it did the first time', async () => {
      await buildState(h)
      const reads = await readAll(h)
      const document = await exported(h)
      const first = await nextSteps(h)
      const loaded = await load(h, document)
      expect(loaded).toMatchObject({ status: 200, body: { status: 'imported', fixtures: 'same', savedBy: document.version } })
      expect(await readAll(h)).toEqual(reads)
      expect(await nextSteps(h)).toEqual(first)
    })

    it('makes the loaded state what a reset returns to, and a token issued before the export verifies after the import', async () => {
      const made = await buildState(h)
      const document = await exported(h)
      await h.control('POST', '/reset')
      expect((await load(h, document)).status).toBe(200)
      const reads = await readAll(h)
      await h.control('POST', '/oauth-clients', { name: 'gone after reset', grantType: 'client_credentials', authMethod: 'client_secret_basic' })
      await h.control('POST', '/clock/advance', { ms: 60_000 })
      await h.control('DELETE', '/scenarios/webhook-flow-fails')
      await h.control('POST', '/reset')
      expect(await readAll(h)).toEqual(reads)
      expect((await h.fetch(VERSIONS(), { headers: { authorization: `Bearer ${made.accessToken}` } })).status).toBe(200)
    })

    it('refuses a document that cannot be loaded with 400 naming the member, and changes nothing', async () => {
      await buildState(h)
      const document = await exported(h)
      const before = timeless(await exported(h))
      const copy = (): SavedState & Record<string, unknown> => JSON.parse(JSON.stringify(document)) as SavedState & Record<string, unknown>
      const cases: Array<[string, unknown, string, RegExp]> = [
        ['not JSON', '{"svcMockState": 1,', '', /is not JSON/],
        ['an unknown member', { ...copy(), colour: 'blue' }, '', /unknown member "colour"/],
        ['a member of the wrong type', { ...copy(), seed: 'one' }, 'seed', /expected number/],
      ]
      const dangling = copy()
      dangling.webhooks?.executions?.push({ ...(dangling.webhooks.executions[0] as object), webhook: 'not-in-the-document' } as never)
      cases.push(['an execution of a webhook that is not in the document', dangling, `webhooks.executions[${(dangling.webhooks?.executions?.length ?? 1) - 1}].webhook`, /webhook "not-in-the-document"/])
      const orphan = copy()
      const refresh = orphan.auth?.refreshTokens?.[0]
      if (refresh) refresh.clientId = 'no-such-client'
      cases.push(['a refresh token of a client that is not', orphan, 'auth.refreshTokens[0].clientId', /client "no-such-client"/])
      const colliding = copy()
      const client = colliding.auth?.oauthClients?.added?.[0]
      if (client) client.clientId = 'ci-client'
      cases.push(['an id that collides with the fixtures\'', colliding, 'auth.oauthClients.added[0].clientId', /collides with a record of the fixtures/])
      cases.push(['another seed', { ...copy(), seed: 7 }, 'seed', /saved by an emulator of seed 7/])
      for (const [what, body, member, rule] of cases) {
        const response = await h.fetch('/__svc-mock/state/import', { method: 'POST', headers: { 'content-type': 'application/json' }, body: typeof body === 'string' ? body : JSON.stringify(body) })
        const answer = (await response.json()) as { error: string; field?: string }
        expect([what, response.status, answer.field ?? '']).toEqual([what, 400, member])
        expect(answer.error).toMatch(rule)
        expect(timeless(await exported(h))).toEqual(before)
      }
      const newer = await load(h, { ...copy(), svcMockState: 2, version: '9.0.0' })
      expect(newer).toMatchObject({ status: 400, body: { field: 'svcMockState', error: expect.stringContaining('written by svc-mock 9.0.0 (svcMockState 2)') } })
      // A newer document that does not say which svc-mock wrote it is refused as newer, not as "an unknown version".
      const { version: _unsaid, ...unsigned } = { ...copy(), svcMockState: 2 }
      const anonymous = await load(h, unsigned)
      expect(anonymous).toMatchObject({ status: 400, body: { field: 'svcMockState', error: expect.stringContaining('written by a newer svc-mock (svcMockState 2)') } })
      expect(timeless(await exported(h))).toEqual(before)
    })

    it('takes one export while requests are in flight as a snapshot between two requests: every code used has its tokens', async () => {
      const codes = await Promise.all(Array.from({ length: 8 }, () => getCode(h)))
      const exchanges = codes.map((code) => exchange(h, code))
      const documents = await Promise.all(Array.from({ length: 8 }, () => exported(h)))
      await Promise.all(exchanges)
      for (const document of [...documents, await exported(h)]) {
        const used = (document.auth?.codes ?? []).filter((c) => c.used).map((c) => c.family)
        const families = new Set((document.auth?.refreshTokens ?? []).map((t) => t.family))
        expect(used.filter((family) => !families.has(family))).toEqual([])
      }
    })
  },
  { clock: 'manual' },
)
