/**
 * oauth4webapi (the library openid-client 6 is built on) runs the device authorization grant
 * (RFC 8628) against the standalone server over a socket, as the public client `content-cli`:
 * discovery both ways (RFC 8414 `algorithm: 'oauth2'` at `/.well-known/oauth-authorization-server`,
 * and OpenID discovery), the device authorization request, polling that honours `interval` and
 * `slow_down`, the failure answers, and refresh with the rotated refresh token. oauth4webapi does
 * not wait by itself: the test's poll loop waits `interval` seconds on the emulator clock (moved
 * over the control plane), never on the wall clock.
 */
import { createRemoteJWKSet, jwtVerify } from 'jose'
import * as oauth from 'oauth4webapi'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { startServer, type RunningServer } from '../../src/adapters/server.js'

const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code'
const SEED_ELEMENT = '0f8fad5b-d9cb-469f-a165-70867728950e'
const VERSIONS = `/acme-collection/acme-tenant/_api/rest/facets/processes/views/default/elements/${SEED_ELEMENT}/versions`
const MAX_POLLS = 40
const insecure = { [oauth.allowInsecureRequests]: true }
const client: oauth.Client = { client_id: 'content-cli' }

let server: RunningServer

beforeAll(async () => {
  server = await startServer({ port: 0, log: 'silent', clock: 'manual' })
})
afterAll(() => server.close())

async function control(method: string, path: string, body?: unknown): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${server.url}/__svc-mock${path}`, {
    method,
    ...(method === 'GET' ? {} : { headers: { 'content-type': 'application/json' } }),
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  const text = await response.text()
  return { status: response.status, body: text === '' ? undefined : (JSON.parse(text) as unknown) }
}

beforeEach(async () => {
  expect((await control('POST', '/reset')).status).toBe(200)
})

const advance = async (ms: number): Promise<void> => {
  expect((await control('POST', '/clock/advance', { ms })).status).toBe(200)
}

const switchOn = async (scenario: string, activation: { times?: number; route?: string } = {}): Promise<void> => {
  const { status, body } = await control('POST', `/scenarios/${scenario}`, activation)
  expect(status, JSON.stringify(body)).toBeLessThan(300)
}

async function discover(algorithm: 'oauth2' | 'oidc'): Promise<oauth.AuthorizationServer> {
  const issuer = new URL(server.url)
  return await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm, ...insecure }))
}

async function authorizeDevice(as: oauth.AuthorizationServer, scope = 'studio package-manager'): Promise<oauth.DeviceAuthorizationResponse> {
  const response = await oauth.deviceAuthorizationRequest(as, client, oauth.None(), { scope }, insecure)
  return await oauth.processDeviceAuthorizationResponse(as, client, response)
}

interface PollResult {
  /** The error of every poll that did not give a token, in order. */
  answers: string[]
  /** The interval (seconds) waited before each poll. */
  waits: number[]
  tokens?: oauth.TokenEndpointResponse
  failure?: oauth.ResponseBodyError
}

/** Polls as RFC 8628 section 3.5 says: wait `interval`, poll; pending: again; slow_down: 5 s more. */
async function poll(as: oauth.AuthorizationServer, device: oauth.DeviceAuthorizationResponse): Promise<PollResult> {
  const result: PollResult = { answers: [], waits: [] }
  let interval = device.interval ?? 5
  for (let i = 0; i < MAX_POLLS; i++) {
    await advance(interval * 1000)
    result.waits.push(interval)
    const response = await oauth.deviceCodeGrantRequest(as, client, oauth.None(), device.device_code, insecure)
    try {
      result.tokens = await oauth.processDeviceCodeResponse(as, client, response)
      return result
    } catch (error) {
      if (!(error instanceof oauth.ResponseBodyError)) throw error
      result.answers.push(error.error)
      if (error.error === 'slow_down') interval += 5
      else if (error.error !== 'authorization_pending') {
        result.failure = error
        return result
      }
    }
  }
  throw new Error(`no answer but pending after ${MAX_POLLS} polls`)
}

const versions = (accessToken: string): Promise<Response> => fetch(`${server.url}${VERSIONS}`, { headers: { authorization: `Bearer ${accessToken}` } })

async function verify(accessToken: string): Promise<Record<string, unknown>> {
  const { payload } = await jwtVerify(accessToken, createRemoteJWKSet(new URL(`${server.url}/.well-known/jwks.json`)), { issuer: server.url })
  return payload
}

describe('discovery', () => {
  it('RFC 8414 metadata (/.well-known/oauth-authorization-server) is the OpenID document, and both advertise the device flow for public clients', async () => {
    const rfc8414 = await discover('oauth2')
    const oidc = await discover('oidc')
    expect(rfc8414).toEqual(oidc)
    expect(rfc8414.issuer).toBe(server.url)
    expect(rfc8414.device_authorization_endpoint).toBe(`${server.url}/oauth2/device_authorization`)
    expect(rfc8414.grant_types_supported).toEqual(expect.arrayContaining([DEVICE_GRANT, 'refresh_token']))
    expect(rfc8414.token_endpoint_auth_methods_supported).toEqual(expect.arrayContaining(['none']))
    expect(rfc8414.scopes_supported).toEqual(expect.arrayContaining(['studio', 'package-manager', 'integration.data-pools', 'action-engine.projects']))
  })
})

describe('device authorization grant, approved at once as alice', () => {
  for (const algorithm of ['oauth2', 'oidc'] as const) {
    it(`discovered with algorithm "${algorithm}": device authorization, one poll after the interval, a token that works, refresh with rotation`, async () => {
      const as = await discover(algorithm)
      const device = await authorizeDevice(as)
      expect(device).toMatchObject({ verification_uri: `${server.url}/oauth2/device_verification`, expires_in: 300, interval: 5 })
      expect(device.user_code).toEqual(expect.any(String))
      expect(device.verification_uri_complete).toMatch(new RegExp(`^${server.url}/oauth2/device_verification\\?.+`))

      const { answers, waits, tokens } = await poll(as, device)
      expect(answers).toEqual([])
      expect(waits).toEqual([5])
      expect(tokens).toMatchObject({ token_type: 'bearer', expires_in: 899, scope: 'studio package-manager', refresh_token: expect.any(String) })
      const first = tokens as oauth.TokenEndpointResponse
      expect(await verify(first.access_token)).toMatchObject({ sub: 'alice', client_id: 'content-cli', scope: 'studio package-manager' })
      expect((await versions(first.access_token)).status).toBe(200)

      await advance(900_000)
      expect((await versions(first.access_token)).status).toBe(401)
      const refreshed = await oauth.processRefreshTokenResponse(
        as,
        client,
        await oauth.refreshTokenGrantRequest(as, client, oauth.None(), first.refresh_token ?? '', insecure),
      )
      expect(refreshed.refresh_token).toEqual(expect.any(String))
      expect(refreshed.refresh_token).not.toBe(first.refresh_token)
      expect(await verify(refreshed.access_token)).toMatchObject({ sub: 'alice', client_id: 'content-cli' })
      expect((await versions(refreshed.access_token)).status).toBe(200)

      const reused = await oauth.refreshTokenGrantRequest(as, client, oauth.None(), first.refresh_token ?? '', insecure)
      await expect(oauth.processRefreshTokenResponse(as, client, reused)).rejects.toMatchObject({ error: 'invalid_grant', status: 400 })
    })
  }

  it('a device code is single use: polling again after the token was issued is invalid_grant or expired_token, never a second token', async () => {
    const as = await discover('oauth2')
    const device = await authorizeDevice(as)
    expect((await poll(as, device)).tokens).toBeDefined()
    const again = await oauth.deviceCodeGrantRequest(as, client, oauth.None(), device.device_code, insecure)
    const failure = await oauth.processDeviceCodeResponse(as, client, again).catch((error: unknown) => error)
    expect(failure).toBeInstanceOf(oauth.ResponseBodyError)
    expect((failure as oauth.ResponseBodyError).error).toMatch(/^(invalid_grant|expired_token)$/)
  })

  it('a public client that sends a secret is invalid_client (401)', async () => {
    const as = await discover('oauth2')
    const response = await oauth.deviceAuthorizationRequest(as, client, oauth.ClientSecretPost('not-a-public-client-secret'), { scope: 'studio' }, insecure)
    await expect(oauth.processDeviceAuthorizationResponse(as, client, response)).rejects.toMatchObject({ error: 'invalid_client', status: 401 })
  })

  it('an unknown scope at the device authorization endpoint is invalid_scope (400)', async () => {
    const as = await discover('oauth2')
    const response = await oauth.deviceAuthorizationRequest(as, client, oauth.None(), { scope: 'studio no-such-scope' }, insecure)
    await expect(oauth.processDeviceAuthorizationResponse(as, client, response)).rejects.toMatchObject({ error: 'invalid_scope', status: 400 })
  })
})

describe('the failure answers, by scenario (RFC 8628 section 3.5)', () => {
  it('device-pending: authorization_pending (400) until approval, then the token', async () => {
    await switchOn('device-pending')
    const as = await discover('oauth2')
    const { answers, waits, tokens } = await poll(as, await authorizeDevice(as))
    expect(answers.length).toBeGreaterThan(0)
    expect(new Set(answers)).toEqual(new Set(['authorization_pending']))
    expect(waits.every((w) => w === 5)).toBe(true)
    expect((await versions(tokens?.access_token ?? '')).status).toBe(200)
  })

  it('device-slow-down (once): slow_down (400); the client then waits 5 s longer and gets the token', async () => {
    const as = await discover('oauth2')
    const device = await authorizeDevice(as)
    // Once, on the first poll (see content-cli.test.ts).
    await switchOn('device-slow-down', { times: 1, route: 'auth.token' })
    const { answers, waits, tokens } = await poll(as, device)
    expect(answers).toEqual(['slow_down'])
    expect(waits).toEqual([5, 10])
    expect((await versions(tokens?.access_token ?? '')).status).toBe(200)
  })

  for (const [scenario, error] of [
    ['device-denied', 'access_denied'],
    ['device-expired', 'expired_token'],
  ] as const) {
    it(`${scenario}: ${error} (400), and no token`, async () => {
      await switchOn(scenario)
      const as = await discover('oauth2')
      const { tokens, failure } = await poll(as, await authorizeDevice(as))
      expect(tokens).toBeUndefined()
      expect(failure).toMatchObject({ error, status: 400 })
    })
  }

  it('without a scenario, a device code left unpolled past expires_in (300 s of emulator time) is expired_token', async () => {
    const as = await discover('oauth2')
    const device = await authorizeDevice(as)
    await advance(301_000)
    const response = await oauth.deviceCodeGrantRequest(as, client, oauth.None(), device.device_code, insecure)
    await expect(oauth.processDeviceCodeResponse(as, client, response)).rejects.toMatchObject({ error: 'expired_token', status: 400 })
  })
})
