/**
 * One probe per scenario of the catalogue: the requests that show what the scenario does, run
 * once without it (the normal answer) and once with it, so a test can switch each scenario on
 * every way there is and compare. `shaped` headers go on the requests the scenario should touch
 * (for the per-request activation); the others are sent plain.
 */
import type { ScenarioActivation } from '../../src/index.js'
import { APP_KEY, type Harness, VERSIONS } from './harness.js'
import { CALLBACK, WEB_APP, authorizeStep, token } from './oauth.js'
import { call, postJson } from './webhooks.js'

type Headers = Record<string, string>

export interface Probe {
  /** Parameters the probe activates the scenario with. */
  readonly activation?: ScenarioActivation
  /** What the probe sees, in a few words. */
  run(h: Harness, shaped: Headers): Promise<string>
  /** Without the scenario. */
  readonly normal: string
  /** With it. */
  readonly shaped: string
  /**
   * Not run side by side with another test: its requests change state the other would see, or
   * it advances the shared clock.
   */
  readonly shared?: boolean
}

const versions = async (h: Harness, shaped: Headers, auth: Headers = APP_KEY): Promise<string> => {
  try {
    const response = await h.fetch(VERSIONS(), { headers: { ...auth, ...shaped } })
    return `${response.status}`
  } catch {
    return 'no answer'
  }
}

/** Sends, and if the answer waits on the emulator clock, advances it: reports how long it was held. */
async function held(h: Harness, send: () => Promise<string>, ms: number): Promise<string> {
  let result: string | undefined
  const pending = send().then((r) => {
    result = r
    return r
  })
  while (result === undefined && h.emu.clock.parked() === 0) await new Promise((resolve) => setImmediate(resolve))
  if (result !== undefined) return `at once: ${result}`
  await h.emu.clock.advance(ms - 1)
  if (result !== undefined) return `after less than ${ms} ms: ${result}`
  await h.emu.clock.advance(1)
  return `after ${ms} ms: ${await pending}`
}

const tokenStatus = async (h: Harness, shaped: Headers): Promise<string> => {
  const answer = await token(h, { grant_type: 'client_credentials' }, { headers: shaped })
  return answer.status === 200 ? `200 expires_in=${String(answer.body.expires_in)}` : `${answer.status} ${String(answer.body.error)}`
}

const hook = async (h: Harness, path: string, shaped: Headers, body: unknown = { orderId: 'o-1' }): Promise<string> => {
  const answer = await postJson(h, path, body, shaped)
  return `${answer.status} ${answer.text}`
}

let marker = 0

const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code'

/** The device flow as the platform's CLI runs it (public client content-cli): a device code, then up to three polls. */
const deviceFlow = async (h: Harness, shaped: Headers, shapedPolls: boolean): Promise<string> => {
  const issued = await token(h, { client_id: 'content-cli', scope: 'studio' }, { auth: 'none', headers: shaped, path: '/oauth2/device_authorization' })
  if (issued.status !== 200) return `device authorization ${issued.status} ${String(issued.body.error)}`
  const answers: string[] = []
  for (let poll = 0; poll < 3; poll++) {
    const answer = await token(h, { grant_type: DEVICE_GRANT, device_code: String(issued.body.device_code), client_id: 'content-cli' }, { auth: 'none', headers: shapedPolls ? shaped : {} })
    answers.push(answer.status === 200 ? '200' : String(answer.body.error))
    if (answer.status === 200 || answer.body.error === 'access_denied' || answer.body.error === 'expired_token') break
  }
  return answers.join(' ')
}

export const PROBES: Record<string, Probe> = {
  'versions-not-found': { run: (h, s) => versions(h, s), normal: '200', shaped: '404' },
  'versions-server-error': { run: (h, s) => versions(h, s), normal: '200', shaped: '500' },
  'network-error': { run: (h, s) => versions(h, s), normal: '200', shaped: 'no answer' },
  latency: { activation: { params: { ms: 1500 } }, run: (h, s) => held(h, () => versions(h, s), 1500), normal: 'at once: 200', shaped: 'after 1500 ms: 200', shared: true },
  flaky: {
    activation: { params: { rate: 1 } },
    run: async (h, s) => {
      const response = await h.fetch(VERSIONS(), { headers: { ...APP_KEY, ...s } })
      return `${response.status} retry-after=${response.headers.get('retry-after') ?? '-'}`
    },
    normal: '200 retry-after=-',
    shaped: '503 retry-after=1',
  },
  'static-keys-rejected': { run: (h, s) => versions(h, s), normal: '200', shaped: '401' },
  'insufficient-permissions': { run: (h, s) => versions(h, s), normal: '200', shaped: '403' },
  'rate-limited': {
    run: async (h, s) => {
      const response = await h.fetch(VERSIONS(), { headers: { ...APP_KEY, ...s } })
      return `${response.status} reset=${response.headers.get('x-ratelimit-reset') === null ? 'no' : 'yes'}`
    },
    normal: '200 reset=no',
    shaped: '429 reset=yes',
  },
  'token-invalid-client': { run: tokenStatus, normal: '200 expires_in=899', shaped: '401 invalid_client' },
  'token-server-error': { run: tokenStatus, normal: '200 expires_in=899', shaped: '500 server_error' },
  'token-short-lived': { activation: { params: { seconds: 10 } }, run: tokenStatus, normal: '200 expires_in=899', shaped: '200 expires_in=10' },
  'token-slow': { activation: { params: { ms: 10000 } }, run: (h, s) => held(h, () => tokenStatus(h, s), 10000), normal: 'at once: 200 expires_in=899', shaped: 'after 10000 ms: 200 expires_in=899', shared: true },
  'tokens-expired': {
    run: async (h, s) => {
      const accessToken = String((await token(h, { grant_type: 'client_credentials' })).body.access_token)
      return await versions(h, s, { authorization: `Bearer ${accessToken}` })
    },
    normal: '200',
    shaped: '401',
  },
  'consent-denied': {
    run: async (h, s) => {
      const response = await h.fetch(
        `/oauth2/authorize?${new URLSearchParams({ response_type: 'code', client_id: WEB_APP.id, redirect_uri: CALLBACK, state: 's-1', scope: 'studio' })}`,
        { redirect: 'manual', headers: s },
      )
      const location = new URL(response.headers.get('location') ?? 'http://none/')
      return `${response.status} ${location.searchParams.has('code') ? 'code' : (location.searchParams.get('error') ?? 'nothing')}`
    },
    normal: '302 code',
    shaped: '302 access_denied',
  },
  'device-pending': { activation: { params: { polls: 2 } }, run: (h, s) => deviceFlow(h, s, false), normal: '200', shaped: 'authorization_pending authorization_pending 200' },
  'device-slow-down': { run: (h, s) => deviceFlow(h, s, true), normal: '200', shaped: 'slow_down 200' },
  'device-denied': { run: (h, s) => deviceFlow(h, s, true), normal: '200', shaped: 'access_denied' },
  'device-expired': { run: (h, s) => deviceFlow(h, s, true), normal: '200', shaped: 'expired_token' },
  'webhook-queue-full': { run: (h, s) => hook(h, '/hooks/orders', s), normal: '200 Accepted', shaped: '400 Queue is full.' },
  'webhook-flow-inactive': {
    run: async (h, s) => {
      const orderId = `probe-${++marker}`
      const answer = await hook(h, '/hooks/sync-reply', s, { orderId })
      return `${answer}, ran ${h.emu.webhooks.executions('sync-reply').filter((e) => e.bundle.orderId === orderId).length}`
    },
    normal: '201 {"status":"created"}, ran 1',
    shaped: '200 Accepted, ran 0',
    shared: true,
  },
  'webhook-flow-fails': { run: (h, s) => hook(h, '/hooks/orders', s), normal: '200 Accepted', shaped: '500 Action Flow failed to complete.' },
  'webhook-timeout': { run: (h, s) => held(h, () => hook(h, '/hooks/orders', s), 40000), normal: 'at once: 200 Accepted', shaped: 'after 40000 ms: 500 Action Flow did not respond in time.', shared: true },
  'webhook-gone': { run: (h, s) => hook(h, '/hooks/orders', s), normal: '200 Accepted', shaped: '410 Webhook not found.' },
  'webhook-validation-fails': {
    run: (h, s) => hook(h, '/hooks/orders', s),
    normal: '200 Accepted',
    shaped: "400 Validation failed for 1 parameter(s). Missing value of required parameter 'referenceId'.",
  },
}

/** The text form of a probe's activation, for the x-svc-mock-scenario header. */
export function headerValue(name: string, activation: ScenarioActivation = {}): string {
  const params = Object.entries(activation.params ?? {}).map(([k, v]) => `${k}=${String(v)}`)
  return params.length === 0 ? name : `${name}:${params.join(',')}`
}

export { authorizeStep, call }
