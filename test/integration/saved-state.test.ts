/**
 * Saved states in-process, domain by domain: what each domain writes into the document, that an
 * emulator loaded with it answers as the original did and goes on as the original would, and the
 * cases each domain decides (signing keys at another address, links, runs in progress, routes
 * given as functions). Every way in is the contract suite's (test/contract/state.contract.test.ts);
 * the body limit, which the server applies to the bytes still on the socket, is tested over one here.
 */
import { request as httpRequest } from 'node:http'
import { decodeJwt } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type RunningServer, startServer } from '../../src/adapters/server.js'
import { type Emulator, type SavedState, createEmulator } from '../../src/index.js'
import { SAVED_STATE_BODY_LIMIT } from '../../src/kernel/constants.js'
import { APP_KEY, VERSIONS } from '../support/harness.js'
import { CALLBACK, WEB_APP, exchange, getCode, token } from '../support/oauth.js'
import { buildState, handleHarness, readAll } from '../support/state.js'

const manual = { clock: 'manual' as const }
const saved = async (emu: Emulator): Promise<SavedState> => JSON.parse(JSON.stringify(await emu.exportState())) as SavedState
const loaded = async (document: SavedState, options = {}): Promise<Emulator> => {
  const copy = await createEmulator({ ...manual, ...options })
  await copy.importState(document)
  return copy
}

describe('saved states, in-process', () => {
  it('an emulator loaded with a saved state answers every read as the one that saved it, byte for byte', async () => {
    const emu = await createEmulator(manual)
    await buildState(handleHarness(emu))
    const copy = await loaded(await saved(emu))
    expect(await readAll(handleHarness(copy))).toEqual(await readAll(handleHarness(emu)))
  })

  it('goes on as the original would: the same client ids and secrets, keys, codes, tokens (jti) and refresh tokens, webhook ids and element ids', async () => {
    const emu = await createEmulator(manual)
    await buildState(handleHarness(emu))
    const copy = await loaded(await saved(emu))
    const next = async (e: Emulator): Promise<unknown[]> => {
      const h = handleHarness(e)
      const code = await getCode(h)
      const tokens = await exchange(h, code)
      const refreshed = await token(h, { grant_type: 'refresh_token', refresh_token: String(tokens.body.refresh_token) }, { auth: 'post', client: WEB_APP })
      return [
        await e.oauth.clients.create({ name: 'next', grantType: 'client_credentials', authMethod: 'client_secret_post' }),
        await e.apiKeys.create({ kind: 'user', userId: 'alice' }),
        code,
        tokens.body,
        refreshed.body,
        decodeJwt(String(refreshed.body.access_token)).jti,
        await e.webhooks.create({ name: 'next' }),
        await e.elements.add({ storage: 'acme-collection/acme-tenant', facet: 'processes', type: 'process', versions: [{ state: 'inProcess' }] }),
        await e.resources.get('pools').create({ name: 'next' }),
      ]
    }
    expect(await next(copy)).toEqual(await next(emu))
  })

  it('a token issued before the export verifies after the import, and a refresh token issued before works there once', async () => {
    const emu = await createEmulator(manual)
    const made = await buildState(handleHarness(emu))
    const copy = await loaded(await saved(emu))
    const h = handleHarness(copy)
    expect((await h.fetch(VERSIONS(), { headers: { authorization: `Bearer ${made.accessToken}` } })).status).toBe(200)
    const refresh = { grant_type: 'refresh_token', refresh_token: made.refreshToken }
    expect((await token(h, refresh, { auth: 'post', client: WEB_APP })).status).toBe(200)
    const again = await token(h, refresh, { auth: 'post', client: WEB_APP })
    expect(again.body.error).toBe('invalid_grant')
    expect((await token(h, { grant_type: 'client_credentials' }, { client: { id: made.clientId, secret: made.clientSecret } })).status).toBe(200)
  })

  it('loads no signing key into an emulator at another address: it makes its own, and refuses the tokens of the one that saved the state', async () => {
    const emu = await createEmulator(manual)
    const made = await buildState(handleHarness(emu))
    const document = await saved(emu)
    const elsewhere = await loaded(document, { origin: 'https://team-2.svc-mock.test' })
    const h = handleHarness(elsewhere)
    expect((await h.fetch(VERSIONS(), { headers: { authorization: `Bearer ${made.accessToken}` } })).status).toBe(401)
    const jwks = (await (await h.fetch('/.well-known/jwks.json')).json()) as { keys: Array<{ kid: string }> }
    expect(jwks.keys.map((k) => k.kid)).not.toContain(document.auth?.signingKeys?.[0]?.kid)
    // Its refresh tokens are the emulator's data, and work there.
    expect((await token(h, { grant_type: 'refresh_token', refresh_token: made.refreshToken }, { auth: 'post', client: WEB_APP })).status).toBe(200)
  })

  it('a run in progress when saved goes on from where it was: the copy records it at the same emulator time, and the queue held waits', async () => {
    const emu = await createEmulator(manual)
    await buildState(handleHarness(emu))
    const copy = await loaded(await saved(emu))
    expect(copy.webhooks.get('orders').queue.length).toBe(0)
    for (const e of [emu, copy]) await e.clock.advance(5000)
    expect(copy.webhooks.executions('orders')).toEqual(emu.webhooks.executions('orders'))
    expect(copy.webhooks.executions('orders')).toHaveLength(1)
    expect(copy.webhooks.get('paused').queue.length).toBe(2)
    for (const e of [emu, copy]) await e.webhooks.updateFlow('paused', { active: true })
    for (const e of [emu, copy]) await e.clock.settle()
    expect(copy.webhooks.executions('paused')).toEqual(emu.webhooks.executions('paused'))
    const upload = copy.webhooks.executions('uploads')[0]?.bundle as { file: { data: Uint8Array } }
    expect(Buffer.from(upload.file.data)).toEqual(Buffer.from([0, 1, 2, 254, 255]))
  })

  it('writes no generated element, only those changed or removed (by index), and loads them over the same seed', async () => {
    const options = { ...manual, fixtures: [{ generate: { elements: 200 } }] }
    const emu = await createEmulator(options)
    const [first, second] = emu.elements.list({ facet: 'processes' }).slice(2, 4)
    await emu.elements.addVersion(first?.id ?? '', { state: 'released' }, {})
    emu.elements.remove(second?.id ?? '', {})
    const document = await saved(emu)
    expect(document.versions?.generated?.moved).toEqual([0, 1])
    expect(document.versions?.elements?.added).toHaveLength(1)
    expect(JSON.stringify(document).length).toBeLessThan(20_000)
    const copy = await loaded(document, options)
    expect(copy.elements.list({})).toEqual(emu.elements.list({}))
    const read = async (e: Emulator, id: string): Promise<string> => await (await e.handle(new Request(`${e.urls.base}${VERSIONS(id)}`, { headers: APP_KEY }))).text()
    expect(await read(copy, first?.id ?? '')).toBe(await read(emu, first?.id ?? ''))
    expect(await read(copy, second?.id ?? '')).toBe(await read(emu, second?.id ?? ''))
  })

  it('rewrites the links to the emulator that saved the state (expandUri) to the one that loads it', async () => {
    const emu = await createEmulator(manual)
    await emu.elements.addVersion('0f8fad5b-d9cb-469f-a165-70867728950e', { state: 'released' }, {})
    const copy = await loaded(await saved(emu), { origin: 'http://127.0.0.1:4999' })
    const body = await (await copy.handle(new Request(`http://127.0.0.1:4999${VERSIONS()}`, { headers: APP_KEY }))).text()
    expect(body).toContain('http://127.0.0.1:4999/acme-collection/')
    expect(body).not.toContain('acme.svc-mock.test')
  })

  it('makes the loaded state what a reset returns to, in every domain and in the kernel', async () => {
    const emu = await createEmulator(manual)
    await buildState(handleHarness(emu))
    const copy = await loaded(await saved(emu))
    const h = handleHarness(copy)
    const before = await readAll(h)
    await copy.oauth.clients.create({ name: 'gone after reset', grantType: 'client_credentials', authMethod: 'client_secret_basic' })
    await copy.webhooks.updateFlow('paused', { active: true })
    await copy.clock.advance(60_000)
    copy.scenarios.off('webhook-flow-fails')
    await copy.resources.get('pools').create({ name: 'gone after reset' })
    await copy.reset()
    expect(await readAll(h)).toEqual(before)
  })

  it('createEmulator({ state }) starts from a saved state (its JSON text too), with its seed and clock; a bad one is the state option\'s ConfigError naming the member', async () => {
    const emu = await createEmulator({ ...manual, seed: 42 })
    await emu.clock.advance(86_400_000)
    await emu.oauth.clients.create({ name: 'kept', grantType: 'client_credentials', authMethod: 'client_secret_basic', clientId: 'kept-client' })
    const text = JSON.stringify(await emu.exportState())
    const started = await createEmulator({ state: text })
    expect([started.seed, started.clock.state(), started.oauth.clients.get('kept-client')?.name]).toEqual([42, emu.clock.state(), 'kept'])
    await started.clock.advance(1000)
    await started.reset()
    expect(started.clock.state()).toEqual(emu.clock.state())
    const colliding = JSON.parse(text) as SavedState
    const client = colliding.auth?.oauthClients?.added?.[0]
    if (client) client.clientId = 'ci-client'
    await expect(createEmulator({ state: colliding })).rejects.toMatchObject({ code: 'ERR_CONFIG', option: 'state', message: expect.stringContaining('member auth.oauthClients.added[0].clientId') })
    await expect(createEmulator({ state: '{' })).rejects.toMatchObject({ option: 'state', message: expect.stringContaining('is not JSON') })
  })

  it('cannot save a route added in code that answers with a function, and says which', async () => {
    const emu = await createEmulator(manual)
    await emu.userRoutes.add({ routes: [{ id: 'pools.computed', method: 'GET', path: '/integration/api/computed', resolve: () => new Response('computed') }] })
    await expect(emu.exportState()).rejects.toMatchObject({ code: 'ERR_STATE_NOT_SAVABLE', message: expect.stringContaining('"pools.computed"') })
  })

  it('forgets what a deleted OAuth client was granted, so a saved state never names a client that is not', async () => {
    const emu = await createEmulator(manual)
    const h = handleHarness(emu)
    await exchange(h, await getCode(h))
    await token(h, { grant_type: 'authorization_code', code: await getCode(h), redirect_uri: CALLBACK }, { auth: 'post', client: WEB_APP })
    expect(emu.oauth.clients.delete(WEB_APP.id)).toBe(true)
    const document = await saved(emu)
    expect([document.auth?.codes, document.auth?.refreshTokens, document.auth?.consents]).toEqual([[], [], []])
    await expect(createEmulator({ ...manual, state: document })).resolves.toBeDefined()
  })
})

describe('saved states over a socket: the body limit', () => {
  let server: RunningServer
  beforeAll(async () => {
    server = await startServer({ port: 0, log: 'silent' })
  })
  afterAll(() => server.close())

  it(`answers a document over the limit (${SAVED_STATE_BODY_LIMIT} bytes) with 413 from its Content-Length, before reading it`, async () => {
    const url = new URL('/__svc-mock/state/import', server.url)
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const request = httpRequest(url, { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': String(SAVED_STATE_BODY_LIMIT + 1) } }, (response) => {
        let body = ''
        response.on('data', (chunk: Buffer) => (body += chunk.toString()))
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }))
      })
      request.on('error', reject)
      request.write('{')
    })
    expect(answer.status).toBe(413)
    expect(JSON.parse(answer.body)).toMatchObject({ limit: SAVED_STATE_BODY_LIMIT, error: expect.stringContaining('the most POST /__svc-mock/state/import takes') })
  })
})
