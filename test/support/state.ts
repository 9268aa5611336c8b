/**
 * Helpers for the saved-state tests: a harness over `emu.handle()` for an emulator made in a test,
 * every read a user can make (the control plane's reads, the platform's, the dashboard's state),
 * answered as text to compare byte for byte (the journal aside: it is not part of a saved state),
 * and a state built by hand as QA builds one (run-time client and key, a consent with a code and
 * a refresh token, a device code waiting, a paused webhook with calls queued, a file upload, a
 * run in progress, elements added and changed, a resource's records, a scenario on, the clock moved).
 */
import type { Emulator } from '../../src/index.js'
import type { Harness } from './harness.js'
import { APP_KEY, VERSIONS } from './harness.js'
import { CALLBACK, WEB_APP, exchange, getCode, token } from './oauth.js'

/** A harness over `emu.handle()`, for an emulator a test makes itself. */
export function handleHarness(emu: Emulator): Harness {
  const origin = emu.urls.base
  const fetch = (path: string, init?: RequestInit): Promise<Response> =>
    emu.handle(new Request(path.startsWith('http') ? path : `${origin}${path}`, { ...init, ...(init?.body ? { duplex: 'half' } : {}) } as RequestInit))
  return {
    kind: 'handle',
    emu,
    origin,
    fetch,
    control: async <T = unknown>(method: string, path: string, body?: unknown) => {
      const response = await fetch(`/__svc-mock${path}`, { method, ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }) })
      const text = await response.text()
      return { status: response.status, body: (text === '' ? undefined : JSON.parse(text)) as T }
    },
  }
}

/** Every read a user can make of the state now, by request: status and body as text. */
export async function readAll(h: Harness): Promise<Record<string, string>> {
  const ids = async (path: string, key: string): Promise<string[]> => ((await h.control<Array<Record<string, string>>>('GET', path)).body ?? []).map((item) => item[key] ?? '')
  const paths = [
    '/__svc-mock/state',
    '/__svc-mock/scenarios',
    '/__svc-mock/clock',
    '/__svc-mock/routes',
    '/__svc-mock/webhooks',
    '/__svc-mock/api-keys',
    '/__svc-mock/oauth-clients',
    '/__svc-mock/users',
    '/__svc-mock/device-codes',
    '/__svc-mock/storages',
    '/__svc-mock/elements',
    '/__svc-mock/resources',
    '/.well-known/jwks.json',
    ...(await ids('/webhooks', 'id')).map((id) => `/__svc-mock/webhooks/${id}/executions`),
    ...(await ids('/users', 'id')).map((id) => `/__svc-mock/users/${id}/consents`),
    ...(await ids('/resources', 'name')).map((name) => `/__svc-mock/resources/${name}`),
    ...(await ids('/elements', 'id')).slice(0, 40).map((id) => VERSIONS(id)),
  ]
  const out: Record<string, string> = {}
  for (const path of paths) {
    const response = await h.fetch(path, path.startsWith('/__svc-mock') ? {} : { headers: APP_KEY })
    out[path] = `${response.status} ${await response.text()}`
  }
  return out
}

/** What a QA run leaves behind, built over the control plane and the platform's own routes; answers what a later step needs. */
export async function buildState(h: Harness): Promise<{ refreshToken: string; accessToken: string; clientSecret: string; clientId: string }> {
  const client = await h.control<{ clientId: string; clientSecret: string }>('POST', '/oauth-clients', { name: 'qa', grantType: 'client_credentials', authMethod: 'client_secret_basic' })
  await h.control('POST', '/api-keys', { kind: 'app', permissions: [{ action: 'read', resource: 'storage:acme-collection/acme-tenant' }] })
  const code = await getCode(h)
  const tokens = await exchange(h, code)
  await token(h, { grant_type: 'authorization_code', code: await getCode(h), redirect_uri: CALLBACK }, { auth: 'post', client: WEB_APP })
  await token(h, { client_id: 'content-cli', scope: 'studio' }, { auth: 'none', path: '/oauth2/device_authorization' })
  for (const n of [1, 2]) await h.fetch('/hooks/paused', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ n }) })
  const form = new FormData()
  form.append('file', new Blob([new Uint8Array([0, 1, 2, 254, 255])], { type: 'application/octet-stream' }), 'data.bin')
  form.append('note', 'uploaded')
  await h.fetch('/hooks/uploads', { method: 'POST', body: form })
  await h.control('PUT', '/webhooks/orders/flow', { processingMs: 5000 })
  // A run in progress: its call is answered once the clock passes its processing time.
  void h.fetch('/hooks/orders', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ orderId: 'o-1' }) })
  await h.emu.clock.waitForParked(1)
  await h.control('POST', '/elements', { storage: 'acme-collection/acme-tenant', facet: 'processes', type: 'process', versions: [{ state: 'inProcess', attributes: { name: { '1033': 'Added by QA' } } }] })
  await h.control('POST', '/elements/0f8fad5b-d9cb-469f-a165-70867728950e/versions', { state: 'inProcess' })
  await h.control('POST', '/routes', { resources: [{ name: 'pools', path: '/integration/api/pools', records: [{ id: 'p-1', name: 'first' }] }] })
  await h.control('POST', '/resources/pools', { name: 'made by QA' })
  await h.control('POST', '/scenarios/webhook-flow-fails', { times: 3, webhook: 'sync-reply' })
  await h.control('POST', '/clock/advance', { ms: 1000 })
  return { refreshToken: String(tokens.body.refresh_token), accessToken: String(tokens.body.access_token), clientSecret: client.body.clientSecret, clientId: client.body.clientId }
}
