/**
 * The recipes of docs/scenarios.md, run as written (a test below checks that each block between
 * `recipe:` markers appears in the document word for word). They run in-process through msw with
 * a manual clock, as the document says, and a rejection that no one handled in time fails the
 * file: the 40-second timeout and the other waits must never surface as unhandled rejections in a
 * test that follows the recipes.
 */
import { readFileSync } from 'node:fs'
import { setupServer } from 'msw/node'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createEmulator } from '../../src/index.js'

const emu = await createEmulator({ clock: 'manual' })
const server = setupServer(...emu.handlers)
const unhandled: unknown[] = []
const onUnhandled = (reason: unknown): void => {
  unhandled.push(reason)
}
beforeAll(() => {
  server.listen({ onUnhandledRequest: 'error' })
  process.on('unhandledRejection', onUnhandled)
})
afterEach(async () => {
  // Give a late rejection its turn to be reported before the test is judged.
  for (let i = 0; i < 3; i++) await new Promise((resolve) => setImmediate(resolve))
  expect(unhandled).toEqual([])
  await emu.reset()
})
afterAll(() => {
  process.off('unhandledRejection', onUnhandled)
  server.close()
})

const BASE = 'https://acme.svc-mock.test'
const elementId = '0f8fad5b-d9cb-469f-a165-70867728950e'

/** A consumer's API client (client credentials; retries a 429 after x-ratelimit-reset; fetches a new token on 401 invalid_token). */
class ApiClient {
  #token: string | undefined
  async listVersions(id: string, options: { sleep?: (ms: number) => Promise<unknown> } = {}): Promise<{ count: number }> {
    for (let attempt = 0; attempt < 3; attempt++) {
      this.#token ??= await this.#fetchToken()
      const response = await fetch(`${BASE}/acme-collection/acme-tenant/_api/rest/facets/processes/views/default/elements/${id}/versions`, {
        headers: { authorization: `Bearer ${this.#token}` },
      })
      if (response.status === 429 && options.sleep) {
        await options.sleep(Number(response.headers.get('x-ratelimit-reset') ?? '1') * 1000)
        continue
      }
      if (response.status === 401 && /invalid_token/.test(response.headers.get('www-authenticate') ?? '')) {
        this.#token = undefined
        continue
      }
      if (!response.ok) throw new Error(`versions: ${response.status}`)
      return (await response.json()) as { count: number }
    }
    throw new Error('versions: gave up')
  }
  async #fetchToken(): Promise<string> {
    const response = await fetch(`${BASE}/oauth2/token`, {
      method: 'POST',
      headers: { authorization: `Basic ${btoa('ci-client:ci-secret')}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials',
    })
    return ((await response.json()) as { access_token: string }).access_token
  }
}

/** A consumer's webhook sender: retries `Queue is full.` after a pause; `callSync` throws on anything but 2xx. */
class Sender {
  readonly #sleep: (ms: number) => Promise<unknown>
  constructor(sleep: (ms: number) => Promise<unknown>) {
    this.#sleep = sleep
  }
  async send(payload: object): Promise<void> {
    for (let attempt = 0; attempt < 5; attempt++) {
      const response = await fetch(`${BASE}/hooks/orders`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(payload) })
      const text = await response.text()
      if (response.ok) return
      if (response.status !== 400 || text !== 'Queue is full.') throw new Error(`${response.status} ${text}`)
      await this.#sleep(1000)
    }
    throw new Error('the queue stayed full')
  }
  async callSync(payload: object): Promise<unknown> {
    const response = await fetch(`${BASE}/hooks/sync-reply`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(payload) })
    if (!response.ok) throw new Error(`${response.status} ${await response.text()}`)
    return await response.json()
  }
}

let client: ApiClient
let sender: Sender
beforeEach(() => {
  client = new ApiClient()
  // recipe: clients
  sender = new Sender((ms) => emu.clock.advance(ms)) // its pauses run on the emulator's clock
  // end recipe
})

describe('docs/scenarios.md recipes', () => {
  // recipe: retry on 429
  it('waits out the window and retries on 429', emu.scenarios.boundary(async () => {
    emu.scenarios.use('rate-limited:limit=1,windowSeconds=60')
    await client.listVersions(elementId)                    // 200: the one call of this window
    const versions = await client.listVersions(elementId, {
      sleep: (ms) => emu.clock.advance(ms),                 // 429, x-ratelimit-reset: 60 -> waits 60 s, retries
    })
    expect(versions.count).toBe(3)
    expect(emu.journal.list({ route: 'versions.list' }).map((e) => e.status)).toEqual([200, 429, 200])
  }))
  // end recipe

  // recipe: re-authenticate
  it('fetches a new token when the API says the token expired', emu.scenarios.boundary(async () => {
    emu.scenarios.use('tokens-expired', { times: 1 })   // the next API call only
    const versions = await client.listVersions(elementId) // 401 invalid_token, new token, retry
    expect(versions.count).toBe(3)
    expect(emu.journal.list({ route: 'auth.token' })).toHaveLength(2)
  }))
  // end recipe

  // recipe: queue full
  it('keeps the event and retries when the queue is full', emu.scenarios.boundary(async () => {
    emu.scenarios.use('webhook-queue-full', { webhook: 'orders', times: 2 })
    await sender.send({ orderId: 'A-1' })                  // 400 Queue is full. twice, then 200
    const run = await emu.webhooks.waitForExecution('orders', (e) => e.bundle.orderId === 'A-1')
    expect(run.outcome).toBe('succeed')
  }))
  // end recipe

  // recipe: 40-second timeout
  it('reports a webhook that did not answer in time', async () => {
    emu.scenarios.use('webhook-timeout', { webhook: 'sync-reply' })
    const outcome = expect(sender.callSync({ orderId: 'A-2' })).rejects.toThrow(/did not respond/) // attached before time moves
    await emu.clock.waitForParked(1)
    await emu.clock.advance(39_999)                          // still waiting
    await emu.clock.advance(1)                               // 500 Action Flow did not respond in time.
    await outcome
  })
  // end recipe

  // recipe: wait with a timeout
  it('gives up waiting for a run that never comes, on the emulator clock', async () => {
    const waiting = emu.webhooks.waitForExecution('orders', (e) => e.bundle.orderId === 'never', { timeout: 5_000 })
    await emu.clock.advance(5_000)                           // rejects now; nothing is left unhandled
    await expect(waiting).rejects.toThrow(/No matching execution of webhook "orders" within 5000 ms/)
  })
  // end recipe
})

describe('the recipes in the document', () => {
  it('are the code run here, word for word', () => {
    const source = readFileSync(new URL(import.meta.url), 'utf8')
    const doc = readFileSync(new URL('../../docs/scenarios.md', import.meta.url), 'utf8')
    const blocks = [...source.matchAll(/\/\/ recipe: (.+)\n([\s\S]*?)\n\s*\/\/ end recipe/g)]
    expect(blocks.map((b) => b[1])).toEqual(['clients', 'retry on 429', 're-authenticate', 'queue full', '40-second timeout', 'wait with a timeout'])
    const squash = (text: string): string => text.replace(/\s+/g, ' ').trim()
    for (const block of blocks) expect(squash(doc)).toContain(squash(block[2] ?? ''))
  })
})
