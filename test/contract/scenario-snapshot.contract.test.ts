/**
 * Saving what is on as a scenario file, on every way in: `GET /__svc-mock/scenarios.json`
 * (`emu.scenarios.snapshot()`) gives one scenario made of parts, one per scenario on, in the order
 * they rank, with parameters filled in, aims and the requests left; the file loads as any
 * scenario file does and, switched on, reproduces the same answers. The listing says each active
 * scenario's rank (`order`) and, for a scenario made of parts, each part.
 */
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createEmulator, type Emulator, type ScenarioFile, type ScenarioListing } from '../../src/index.js'
import { scenarioSchemas } from '../../src/kernel/scenarios/schema.js'
import { APP_KEY, contract, type Harness, VERSIONS } from '../support/harness.js'
import { basic, CI, CI_POST } from '../support/oauth.js'

const FORM = { 'content-type': 'application/x-www-form-urlencoded' }

/** Switches a set on: a full queue for orders (2 more calls), a failing token endpoint for one client (3 times), slow versions. */
function switchSetOn(emu: Emulator): void {
  emu.scenarios.use('webhook-queue-full', { params: { capacity: 2 }, webhook: 'orders' })
  emu.scenarios.use('token-server-error', { client: CI.id, times: 3 })
  emu.scenarios.use('latency', { params: { ms: 100 }, route: 'versions.list' })
}

/** What a client meets: statuses of a fixed set of calls (versions after advancing the clock by the latency). */
async function probe(fetcher: (path: string, init?: RequestInit) => Promise<Response>, emu: Emulator): Promise<number[]> {
  const statuses: number[] = []
  for (let i = 0; i < 3; i++) statuses.push((await fetcher('/hooks/orders', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"orderId":"A"}' })).status)
  statuses.push((await fetcher('/hooks/uploads', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"title":"x"}' })).status)
  statuses.push((await fetcher('/oauth2/token', { method: 'POST', headers: { ...FORM, authorization: basic(CI.id, CI.secret) }, body: 'grant_type=client_credentials' })).status)
  const post = new URLSearchParams({ grant_type: 'client_credentials', client_id: CI_POST.id, client_secret: CI_POST.secret })
  statuses.push((await fetcher('/oauth2/token', { method: 'POST', headers: FORM, body: post.toString() })).status)
  const slow = fetcher(VERSIONS(), { headers: APP_KEY })
  await emu.clock.waitForParked(1)
  await emu.clock.advance(100)
  statuses.push((await slow).status)
  return statuses
}

const EXPECTED = [200, 200, 400, 200, 500, 200, 200]

contract(
  'control plane: save what is on as a scenario file',
  (h: Harness) => {
    it('GET /scenarios.json is one scenario file with a part per scenario on, in rank order, parameters filled in', async () => {
      switchSetOn(h.emu)
      const response = await h.fetch('/__svc-mock/scenarios.json?name=qa-session')
      expect(response.status).toBe(200)
      expect(response.headers.get('content-disposition')).toBe('attachment; filename="qa-session.json"')
      const file = (await response.json()) as ScenarioFile
      expect(scenarioSchemas().ScenarioFileSchema.safeParse(file).success).toBe(true)
      expect(file).toEqual(h.emu.scenarios.snapshot({ name: 'qa-session' }))
      expect(file.name).toBe('qa-session')
      expect(file.description).toContain('webhook-queue-full (capacity=2; webhook orders); then token-server-error (client ci-client; 3 requests left); then latency (ms=100; route versions.list)')
      expect(file.parts).toEqual([
        { from: 'webhook-queue-full', routes: 'webhooks.receive', settings: { webhooks: { flow: { active: false, queueCapacity: 2 } } }, aim: { webhook: 'orders' } },
        { from: 'token-server-error', routes: 'auth.token', rules: [{ route: 'auth.token', error: 'server-error' }], aim: { client: 'ci-client' }, times: 3 },
        { from: 'latency', routes: '*', rules: [{ route: '*', delay: 100 }], aim: { route: 'versions.list' } },
      ])
    })

    it('names the file saved-scenarios by default; refuses a name that is not a scenario name (400)', async () => {
      expect((await h.control<ScenarioFile>('GET', '/scenarios.json')).body).toMatchObject({ name: 'saved-scenarios', parts: [] })
      const bad = await h.control<{ error: string }>('GET', '/scenarios.json?name=QA%20Session')
      expect(bad.status).toBe(400)
      expect(bad.body.error).toContain('lower-case letters, digits and dashes')
    })

    it('the saved file, switched on in a new emulator, gives the same answers as the set it was saved from', async () => {
      switchSetOn(h.emu)
      const file = (await h.control<ScenarioFile>('GET', '/scenarios.json?name=qa-session')).body
      expect(await probe((path, init) => h.fetch(path, init), h.emu)).toEqual(EXPECTED)

      const dir = mkdtempSync(join(tmpdir(), 'svc-mock-saved-'))
      writeFileSync(join(dir, 'qa-session.json'), JSON.stringify(file, null, 2))
      const copy = await createEmulator<'qa-session'>({ clock: 'manual', scenarioDirs: [dir], scenarios: ['qa-session'] })
      try {
        expect(await probe((path, init) => copy.handle(new Request(`${copy.urls.base}${path}`, init)), copy)).toEqual(EXPECTED)
        // The journal says which scenario shaped each answer: the saved one, once per request.
        expect(copy.journal.list({ route: 'webhooks.receive' }).map((e) => e.scenarios)).toEqual([['qa-session'], ['qa-session'], ['qa-session'], []])
      } finally {
        await copy.close()
      }
    })

    it('lists each active scenario with its rank, and a scenario made of parts with each part', async () => {
      switchSetOn(h.emu)
      const file = h.emu.scenarios.snapshot({ name: 'qa-session' })
      const emu = await createEmulator({ scenarioDefinitions: [file] })
      try {
        emu.scenarios.use('latency')
        emu.scenarios.use('qa-session')
        const on = (name: string): ScenarioListing['activation'] => emu.scenarios.list().find((s) => s.name === name)?.activation
        expect(on('latency')?.order).toBe(1)
        expect(on('qa-session')).toMatchObject({
          order: 2,
          parts: [
            { from: 'webhook-queue-full', target: { webhook: 'orders' }, remaining: null },
            { from: 'token-server-error', target: { client: 'ci-client' }, remaining: 3 },
            { from: 'latency', target: { route: 'versions.list' }, remaining: null },
          ],
        })
        // A snapshot of a scenario made of parts is flat: each part says what it reproduces.
        expect(emu.scenarios.snapshot().parts?.map((p) => p.from)).toEqual(['latency', 'webhook-queue-full', 'token-server-error', 'latency'])
      } finally {
        await emu.close()
      }
    })
  },
  { clock: 'manual' },
)

describe('scenario files made of parts', () => {
  it('refuses a file with parts and settings of its own, and a part aimed at a webhook that does not exist', async () => {
    await expect(createEmulator({ scenarioDefinitions: [{ name: 'mixed', description: 'x', settings: {}, parts: [] }] })).rejects.toThrow(/parts.*has no "routes", "settings" or "rules" of its own/)
    await expect(
      createEmulator({ scenarioDefinitions: [{ name: 'bad-part', description: 'x', parts: [{ settings: { webhooks: { flow: { active: 'no' } } } }] }] }),
    ).rejects.toThrow(/parts\[0\]\.settings\.webhooks\.flow\.active/)
    const emu = await createEmulator({ scenarioDefinitions: [{ name: 'aimed', description: 'x', parts: [{ routes: 'webhooks.receive', settings: { webhooks: { gone: true } }, aim: { webhook: 'order' } }] }] })
    try {
      expect(() => emu.scenarios.use('aimed')).toThrow(/no webhook "order" exists \(did you mean "orders"\?/)
    } finally {
      await emu.close()
    }
  })

  it("an activation's times and aim apply to every part, over the part's own", async () => {
    const emu = await createEmulator({
      scenarioDefinitions: [{ name: 'gone-twice', description: 'x', parts: [{ routes: 'webhooks.receive', settings: { webhooks: { gone: true } }, aim: { webhook: 'orders' }, times: 5 }] }],
    })
    try {
      emu.scenarios.use('gone-twice', { webhook: 'uploads', times: 1 })
      const call = async (id: string): Promise<number> =>
        (await emu.handle(new Request(`${emu.urls.webhook}/hooks/${id}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"orderId":"A","title":"t"}' }))).status
      expect([await call('orders'), await call('uploads'), await call('uploads')]).toEqual([200, 410, 200])
    } finally {
      await emu.close()
    }
  })
})
