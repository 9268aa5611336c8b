/**
 * Property: an emulator loaded with a saved state cannot be told from the one that saved it.
 * Random sequences of what users do (clients, keys, the code, refresh and device grants, consents
 * revoked, clients deleted, webhook calls in every flow state, flows changed, elements added,
 * changed and removed, routes and resource records added, scenarios on and off, the clock moved)
 * run on one emulator; at a random point it is exported and the document (as JSON text) loaded
 * into a fresh one; the rest of the sequence then runs on both. Every answer must be the same,
 * byte for byte, and so must every read at the end. Seeded like the rest of the fuzz suite
 * (FUZZ_SEED, FUZZ_RUNS; `npm run fuzz` runs more).
 */
import fc from 'fast-check'
import { it } from 'vitest'
import { type Emulator, createEmulator } from '../../src/index.js'
import { fuzz, runs, timeoutFor } from '../support/fuzz.js'
import type { Harness } from '../support/harness.js'
import { CALLBACK, WEB_APP, exchange, getCode, token } from '../support/oauth.js'
import { handleHarness, readAll } from '../support/state.js'

type Op =
  | { kind: 'client'; grant: 'client_credentials' | 'authorization_code' }
  | { kind: 'key'; user: boolean }
  | { kind: 'clientToken' }
  | { kind: 'codeGrant' }
  | { kind: 'refresh'; again: boolean }
  | { kind: 'device' }
  | { kind: 'revokeConsent' }
  | { kind: 'deleteClient' }
  | { kind: 'call'; hook: 'orders' | 'paused' | 'sync-reply' | 'learning'; n: number }
  | { kind: 'upload'; bytes: number[] }
  | { kind: 'flow'; hook: 'orders' | 'paused'; active: boolean; processingMs: number; outcome: 'succeed' | 'fail' | 'hang' }
  | { kind: 'advance'; ms: number }
  | { kind: 'element' }
  | { kind: 'version'; which: number }
  | { kind: 'removeElement'; which: number }
  | { kind: 'route'; n: number }
  | { kind: 'record'; n: number }
  | { kind: 'scenario'; on: boolean; times: number }

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('client' as const), grant: fc.constantFrom('client_credentials' as const, 'authorization_code' as const) }),
  fc.record({ kind: fc.constant('key' as const), user: fc.boolean() }),
  fc.constant({ kind: 'clientToken' as const }),
  fc.constant({ kind: 'codeGrant' as const }),
  fc.record({ kind: fc.constant('refresh' as const), again: fc.boolean() }),
  fc.constant({ kind: 'device' as const }),
  fc.constant({ kind: 'revokeConsent' as const }),
  fc.constant({ kind: 'deleteClient' as const }),
  fc.record({ kind: fc.constant('call' as const), hook: fc.constantFrom('orders' as const, 'paused' as const, 'sync-reply' as const, 'learning' as const), n: fc.integer({ min: 0, max: 99 }) }),
  fc.record({ kind: fc.constant('upload' as const), bytes: fc.array(fc.integer({ min: 0, max: 255 }), { maxLength: 8 }) }),
  fc.record({
    kind: fc.constant('flow' as const),
    hook: fc.constantFrom('orders' as const, 'paused' as const),
    active: fc.boolean(),
    processingMs: fc.constantFrom(0, 500, 5000),
    outcome: fc.constantFrom('succeed' as const, 'fail' as const, 'hang' as const),
  }),
  fc.record({ kind: fc.constant('advance' as const), ms: fc.constantFrom(1, 1000, 6000, 41_000) }),
  fc.constant({ kind: 'element' as const }),
  fc.record({ kind: fc.constant('version' as const), which: fc.nat(9) }),
  fc.record({ kind: fc.constant('removeElement' as const), which: fc.nat(9) }),
  fc.record({ kind: fc.constant('route' as const), n: fc.nat(3) }),
  fc.record({ kind: fc.constant('record' as const), n: fc.nat(99) }),
  fc.record({ kind: fc.constant('scenario' as const), on: fc.boolean(), times: fc.integer({ min: 1, max: 3 }) }),
)

/** What one emulator remembers from its own answers, to make the next request (the same in both while they agree). */
interface Memory {
  refresh: string[]
  clients: string[]
}

const json = (h: Harness, path: string, body: unknown): Promise<Response> => h.fetch(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
const answer = async (response: Response): Promise<string> => `${response.status} ${await response.text()}`

/** Runs one operation; answers what a test would see of it. */
async function apply(h: Harness, memory: Memory, step: Op): Promise<string> {
  switch (step.kind) {
    case 'client': {
      const made = await h.control<{ clientId: string }>('POST', '/oauth-clients', { name: 'fuzz', grantType: step.grant, authMethod: 'client_secret_post', redirectUris: [CALLBACK] })
      memory.clients.push(made.body.clientId)
      return JSON.stringify(made)
    }
    case 'key':
      return JSON.stringify(await h.control('POST', '/api-keys', step.user ? { kind: 'user', userId: 'alice' } : { kind: 'app' }))
    case 'clientToken':
      return JSON.stringify(await token(h, { grant_type: 'client_credentials' }))
    case 'codeGrant': {
      const tokens = await exchange(h, await getCode(h))
      if (typeof tokens.body.refresh_token === 'string') memory.refresh.push(tokens.body.refresh_token)
      return JSON.stringify(tokens.body)
    }
    case 'refresh': {
      const presented = step.again ? memory.refresh[0] : memory.refresh.at(-1)
      if (presented === undefined) return 'no refresh token'
      const refreshed = await token(h, { grant_type: 'refresh_token', refresh_token: presented }, { auth: 'post', client: WEB_APP })
      if (typeof refreshed.body.refresh_token === 'string') memory.refresh.push(refreshed.body.refresh_token)
      return JSON.stringify(refreshed.body)
    }
    case 'device': {
      const started = await token(h, { client_id: 'content-cli', scope: 'studio' }, { auth: 'none', path: '/oauth2/device_authorization' })
      const polled = await token(h, { grant_type: 'urn:ietf:params:oauth:grant-type:device_code', device_code: String(started.body.device_code), client_id: 'content-cli' }, { auth: 'none' })
      return JSON.stringify([started.body, polled.body])
    }
    case 'revokeConsent':
      return JSON.stringify(await h.control('DELETE', `/users/alice/consents/${WEB_APP.id}`))
    case 'deleteClient': {
      const clientId = memory.clients.shift()
      return clientId === undefined ? 'no client' : JSON.stringify(await h.control('DELETE', `/oauth-clients/${clientId}`))
    }
    case 'call':
      return await answer(await json(h, `/hooks/${step.hook}`, { orderId: `o-${step.n}`, n: step.n }))
    case 'upload': {
      const form = new FormData()
      form.append('file', new Blob([new Uint8Array(step.bytes)]), 'f.bin')
      return await answer(await h.fetch('/hooks/uploads', { method: 'POST', body: form }))
    }
    case 'flow':
      return JSON.stringify(await h.control('PUT', `/webhooks/${step.hook}/flow`, { active: step.active, processingMs: step.processingMs, outcome: step.outcome }))
    case 'advance':
      return JSON.stringify(await h.control('POST', '/clock/advance', { ms: step.ms }))
    case 'element':
      return JSON.stringify(await h.control('POST', '/elements', { storage: 'acme-collection/acme-tenant', facet: 'processes', type: 'process', versions: [{ state: 'inProcess' }] }))
    case 'version':
    case 'removeElement': {
      const elements = (await h.control<Array<{ id: string }>>('GET', '/elements?facet=processes')).body
      const id = elements[step.which % elements.length]?.id ?? ''
      return JSON.stringify(step.kind === 'version' ? await h.control('POST', `/elements/${id}/versions`, { state: 'released' }) : await h.control('DELETE', `/elements/${id}`))
    }
    case 'route':
      return JSON.stringify(await h.control('POST', '/routes', { routes: [{ id: `fuzz.r${step.n}`, method: 'GET', path: `/fuzz/${step.n}`, auth: 'none', response: { body: { n: step.n, id: '{{uuid}}' } } }], resources: [{ name: 'things', path: '/fuzz/things', records: [{ id: 't-0' }] }] }))
    case 'record':
      return JSON.stringify(await h.control('POST', '/resources/things', { n: step.n }))
    case 'scenario':
      return JSON.stringify(step.on ? await h.control('POST', '/scenarios/webhook-flow-fails', { times: step.times, webhook: 'sync-reply' }) : await h.control('DELETE', '/scenarios/webhook-flow-fails'))
  }
}

/**
 * An emulator ready for a sequence: a signing key made (a key made later is each emulator's own,
 * random). EdDSA: made at once, and its signatures, like RS256's, are the same for the same key and claims.
 */
async function emulator(): Promise<Emulator> {
  const emu = await createEmulator({ clock: 'manual', tokenAlgorithm: 'EdDSA' })
  await emu.handle(new Request(`${emu.urls.auth}/.well-known/jwks.json`))
  return emu
}

const RUNS = runs(20, 0.05)

it(`an emulator loaded with a saved state cannot be told from the one that saved it (${RUNS} random sequences)`, { timeout: timeoutFor(RUNS, 1500) }, async () => {
  await fuzz('saved state', RUNS, fc.record({ before: fc.array(op, { maxLength: 14 }), after: fc.array(op, { maxLength: 14 }) }), async ({ before, after }) => {
    const original = await emulator()
    const copy = await emulator()
    try {
      const a = handleHarness(original)
      const b = handleHarness(copy)
      const memory: Memory = { refresh: [], clients: [] }
      for (const step of before) await apply(a, memory, step)
      const loaded = await copy.importState(JSON.stringify(await original.exportState()))
      if (loaded.fixtures !== 'same') throw new Error(`loaded over other fixtures: ${JSON.stringify(loaded)}`)
      const copyMemory: Memory = { refresh: [...memory.refresh], clients: [...memory.clients] }
      for (const [index, step] of after.entries()) {
        const [was, is] = [await apply(a, memory, step), await apply(b, copyMemory, step)]
        if (was !== is) throw new Error(`after the load, step ${index} (${JSON.stringify(step)}) answered differently:\n original: ${was.slice(0, 600)}\n loaded:   ${is.slice(0, 600)}`)
      }
      const [readsA, readsB] = [await readAll(a), await readAll(b)]
      for (const path of Object.keys(readsA)) {
        if (readsA[path] !== readsB[path]) throw new Error(`after the sequence, GET ${path} differs:\n original: ${readsA[path]?.slice(0, 600)}\n loaded:   ${readsB[path]?.slice(0, 600)}`)
      }
    } finally {
      await Promise.all([original.close(), copy.close()])
    }
  })
})
