/**
 * A real OAuth client against the standalone server over a socket: openid-client discovers the
 * server, runs client credentials (basic and post), the authorization code grant with PKCE and
 * refresh; jose's remote JWKS verifies the tokens it was given. If these pass, a consumer's own
 * client library works against svc-mock as it would against the platform.
 */
import { createRemoteJWKSet, jwtVerify } from 'jose'
import * as client from 'openid-client'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { startServer, type RunningServer } from '../../src/adapters/server.js'

let server: RunningServer

beforeAll(async () => {
  server = await startServer({ port: 0, log: 'silent' })
})
afterAll(() => server.close())

const discover = async (clientId: string, auth: client.ClientAuth, metadata: Partial<client.ClientMetadata> = {}): Promise<client.Configuration> =>
  await client.discovery(new URL(server.url), clientId, metadata, auth, { execute: [client.allowInsecureRequests] })

const verify = async (accessToken: string): Promise<Record<string, unknown>> => {
  const jwks = createRemoteJWKSet(new URL(`${server.url}/.well-known/jwks.json`))
  const { payload } = await jwtVerify(accessToken, jwks, { issuer: server.url, audience: server.url })
  return payload
}

const versions = (accessToken: string): Promise<Response> =>
  fetch(`${server.url}/acme-collection/acme-tenant/_api/rest/facets/processes/views/default/elements/0f8fad5b-d9cb-469f-a165-70867728950e/versions`, {
    headers: { authorization: `Bearer ${accessToken}` },
  })

it('discovers the server: issuer, endpoints, grants, auth methods, PKCE methods', async () => {
  const config = await discover('ci-client', client.ClientSecretBasic('ci-secret'))
  const metadata = config.serverMetadata()
  expect(metadata.issuer).toBe(server.url)
  expect(metadata.token_endpoint).toBe(`${server.url}/oauth2/token`)
  expect(metadata.authorization_endpoint).toBe(`${server.url}/oauth2/authorize`)
  expect(metadata.device_authorization_endpoint).toBe(`${server.url}/oauth2/device_authorization`)
  expect(metadata.grant_types_supported).toEqual(['client_credentials', 'authorization_code', 'refresh_token', 'urn:ietf:params:oauth:grant-type:device_code'])
  expect(metadata.token_endpoint_auth_methods_supported).toEqual(['client_secret_basic', 'client_secret_post', 'none'])
  expect(metadata.code_challenge_methods_supported).toEqual(['S256', 'plain'])
})

it('client credentials with Client secret basic, verified with the remote JWKS and accepted by the API', async () => {
  const config = await discover('ci-client', client.ClientSecretBasic('ci-secret'))
  const tokens = await client.clientCredentialsGrant(config, { scope: 'audit.log:read studio' })
  expect(tokens.token_type).toBe('bearer')
  expect(tokens.expires_in).toBe(899)
  expect(tokens.scope).toBe('audit.log:read studio')
  expect(await verify(tokens.access_token)).toMatchObject({ sub: 'ci-client', client_id: 'ci-client', scope: 'audit.log:read studio' })
  expect((await versions(tokens.access_token)).status).toBe(200)
})

it('client credentials with Client secret post', async () => {
  const config = await discover('ci-post-client', client.ClientSecretPost('ci-post-secret'))
  const tokens = await client.clientCredentialsGrant(config)
  expect((await verify(tokens.access_token)).client_id).toBe('ci-post-client')
})

it('a Client secret post attempt that fails reaches the client as the invalid_client body error (no challenge)', async () => {
  const config = await discover('ci-client', client.ClientSecretPost('ci-secret'))
  const failure = await client.clientCredentialsGrant(config).catch((error: unknown) => error)
  expect(failure).toMatchObject({ code: 'OAUTH_RESPONSE_BODY_ERROR', error: 'invalid_client', status: 401 })
})

it('a Client secret basic attempt that fails gets the WWW-Authenticate: Basic challenge (RFC 6749 section 5.2)', async () => {
  const config = await discover('ci-post-client', client.ClientSecretBasic('ci-post-secret'))
  const failure = await client.clientCredentialsGrant(config).catch((error: unknown) => error)
  expect(failure).toMatchObject({ code: 'OAUTH_WWW_AUTHENTICATE_CHALLENGE', status: 401 })
  expect((failure as { cause: Array<{ scheme: string }> }).cause[0]?.scheme).toBe('basic')
})

it('authorization code with PKCE, then refresh, each token verified with the remote JWKS', async () => {
  const config = await discover('web-app', client.ClientSecretPost('web-app-secret'))
  const redirectUri = 'http://127.0.0.1:53682/callback'
  const verifier = client.randomPKCECodeVerifier()
  const state = client.randomState()
  const authorizeUrl = client.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope: 'studio audit.log:read',
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    login_hint: 'alice',
  })
  const redirect = await fetch(authorizeUrl, { redirect: 'manual' })
  expect(redirect.status).toBe(302)
  const callback = new URL(redirect.headers.get('location') ?? '')
  expect(`${callback.origin}${callback.pathname}`).toBe(redirectUri)

  const tokens = await client.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state })
  expect(tokens.scope).toBe('studio audit.log:read')
  expect(tokens.refresh_token).toEqual(expect.any(String))
  expect(await verify(tokens.access_token)).toMatchObject({ sub: 'alice', client_id: 'web-app' })
  expect((await versions(tokens.access_token)).status).toBe(200)

  const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token ?? '')
  expect(refreshed.refresh_token).not.toBe(tokens.refresh_token)
  expect((await verify(refreshed.access_token)).sub).toBe('alice')
  await expect(client.refreshTokenGrant(config, tokens.refresh_token ?? '')).rejects.toMatchObject({ error: 'invalid_grant' })
})

it('a denied consent reaches the client as access_denied', async () => {
  const config = await discover('web-app', client.ClientSecretPost('web-app-secret'))
  const state = client.randomState()
  const authorizeUrl = client.buildAuthorizationUrl(config, { redirect_uri: 'http://localhost:3000/callback', state })
  const redirect = await fetch(authorizeUrl, { redirect: 'manual', headers: { 'x-svc-mock-scenario': 'consent-denied' } })
  const callback = new URL(redirect.headers.get('location') ?? '')
  await expect(client.authorizationCodeGrant(config, callback, { expectedState: state })).rejects.toMatchObject({ error: 'access_denied' })
})
