/**
 * openid-client over HTTPS, as a Node.js consumer runs it: discovery and client credentials (basic
 * and post) against `svc-mock --https`, in a child process that trusts svc-mock's local CA through
 * NODE_EXTRA_CA_CERTS (Node.js reads it at start), with no allowInsecureRequests; the token is
 * verified with the remote JWKS and accepted by the API. Without the CA the same client refuses
 * the server; `svc-mock exec --https` gives its command the variable itself.
 */
import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { startServer, type RunningServer } from '../../src/adapters/server.js'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const BIN = fileURLToPath(new URL('../../bin/svc-mock.js', import.meta.url))

/** The consumer's code: discovery, a token by basic and by post, the JWKS, the API; prints what it saw. */
const CONSUMER = `
import * as client from 'openid-client'
import { createRemoteJWKSet, jwtVerify } from 'jose'
const url = new URL(process.env.SVC_MOCK_URL)
const seen = {}
try {
  const basic = await client.discovery(url, 'ci-client', {}, client.ClientSecretBasic('ci-secret'))
  seen.issuer = basic.serverMetadata().issuer
  const tokens = await client.clientCredentialsGrant(basic, { scope: 'studio' })
  const { payload } = await jwtVerify(tokens.access_token, createRemoteJWKSet(new URL('/.well-known/jwks.json', url)), { issuer: url.origin, audience: url.origin })
  seen.sub = payload.sub
  const post = await client.discovery(url, 'ci-post-client', {}, client.ClientSecretPost('ci-post-secret'))
  seen.postClient = (await client.clientCredentialsGrant(post)).access_token.split('.').length
  const versions = await fetch(new URL('/acme-collection/acme-tenant/_api/rest/facets/processes/views/default/elements/0f8fad5b-d9cb-469f-a165-70867728950e/versions', url), { headers: { authorization: 'Bearer ' + tokens.access_token } })
  seen.versions = versions.status
} catch (error) {
  seen.error = String(error.cause?.code ?? error.code ?? error.message)
}
console.log(JSON.stringify(seen))
`

function node(args: string[], env: Record<string, string | undefined>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, NODE_EXTRA_CA_CERTS: undefined, ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
    child.on('exit', (code) => resolve({ code, stdout, stderr }))
  })
}

let server: RunningServer
beforeAll(async () => {
  server = await startServer({ port: 0, log: 'silent', https: true })
})
afterAll(() => server.close())

it('discovers svc-mock over HTTPS and gets client-credentials tokens (basic and post), trusting the local CA through NODE_EXTRA_CA_CERTS', async () => {
  const result = await node(['--input-type=module', '-e', CONSUMER], { SVC_MOCK_URL: server.url, NODE_EXTRA_CA_CERTS: server.caFile })
  expect(result.code, result.stderr).toBe(0)
  expect(JSON.parse(result.stdout)).toEqual({ issuer: server.url, sub: 'ci-client', postClient: 3, versions: 200 })
})

it('without the CA the same client refuses the server (its certificate does not verify)', async () => {
  const result = await node(['--input-type=module', '-e', CONSUMER], { SVC_MOCK_URL: server.url })
  expect(JSON.parse(result.stdout)).toEqual({ error: expect.stringMatching(/CERT|SELF_SIGNED|UNABLE_TO_VERIFY/) })
})

it('svc-mock exec --https runs the same consumer with nothing set by hand', async () => {
  const result = await node([BIN, 'exec', '--https', '--log', 'silent', '--', process.execPath, '--input-type=module', '-e', CONSUMER], {})
  expect(result.code, result.stderr).toBe(0)
  expect(JSON.parse(result.stdout)).toMatchObject({ sub: 'ci-client', postClient: 3, versions: 200, issuer: expect.stringMatching(/^https:\/\/127\.0\.0\.1:\d+$/) })
})
