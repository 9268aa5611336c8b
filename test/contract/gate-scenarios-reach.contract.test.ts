/**
 * The gate scenarios (`static-keys-rejected`, `rate-limited`, `insufficient-permissions`,
 * `tokens-expired`) reach every route that takes a credential: the versions operation, a secured
 * webhook, and the who-am-I family (the CLI's team probe and the Python SDK's three probes). Their
 * reach is the gate's (`@gated`), not a list of routes in their files, so a route the gate guards
 * is reached wherever it is declared.
 */
import { expect, it } from 'vitest'
import { APP_KEY, contract, VERSIONS } from '../support/harness.js'
import { token } from '../support/oauth.js'

/** Every route that takes a credential, as a caller reaches it. */
const CREDENTIALED = [VERSIONS(), '/hooks/secured?orderId=1', '/api/cloud/team', '/api/cloud', '/api/cloud/permissions', '/api/team']

contract('gate scenarios reach every route that takes a credential', (h) => {
  const each = async (scenario: string, headers: Record<string, string>): Promise<Array<{ path: string; status: number; shaped: string | null }>> => {
    const out = []
    for (const path of CREDENTIALED) {
      const response = await h.fetch(path, { headers: { ...headers, 'x-svc-mock-scenario': scenario } })
      await response.arrayBuffer()
      out.push({ path, status: response.status, shaped: response.headers.get('x-svc-mock-scenario') })
    }
    return out
  }

  it('static-keys-rejected: an application key is refused with 401 on each of them', async () => {
    for (const answer of await each('static-keys-rejected', APP_KEY)) expect(answer, answer.path).toEqual({ path: answer.path, status: 401, shaped: 'static-keys-rejected' })
  })

  it('rate-limited: each of them answers 429 with the rate-limit headers (a secured webhook included)', async () => {
    for (const path of CREDENTIALED) {
      const response = await h.fetch(path, { headers: { ...APP_KEY, 'x-svc-mock-scenario': 'rate-limited' } })
      await response.arrayBuffer()
      expect([path, response.status, response.headers.get('x-ratelimit-limit'), response.headers.get('x-ratelimit-reset')]).toEqual([path, 429, '0', '60'])
    }
  })

  it('tokens-expired: an OAuth access token is refused with 401 on each of them', async () => {
    const { body } = await token(h, { grant_type: 'client_credentials' })
    const bearer = { authorization: `Bearer ${String(body.access_token)}` }
    for (const answer of await each('tokens-expired', bearer)) expect(answer, answer.path).toEqual({ path: answer.path, status: 401, shaped: 'tokens-expired' })
  })

  it('insufficient-permissions: each of them sees the caller without permissions (403 where one is needed, an empty list from the permissions probe)', async () => {
    const answers = await each('insufficient-permissions', APP_KEY)
    expect(answers.map((a) => a.shaped)).toEqual(CREDENTIALED.map(() => 'insufficient-permissions'))
    expect(answers.find((a) => a.path === VERSIONS())?.status).toBe(403)
    const permissions = await h.fetch('/api/cloud/permissions', { headers: { ...APP_KEY, 'x-svc-mock-scenario': 'insufficient-permissions' } })
    expect([permissions.status, await permissions.json()]).toEqual([200, []])
  })

  it('routes that take no credential are not reached: the discovery document; an unsecured webhook (the route of every webhook) lets its call through', async () => {
    const discovery = await h.fetch('/.well-known/openid-configuration', { headers: { ...APP_KEY, 'x-svc-mock-scenario': 'static-keys-rejected,rate-limited' } })
    await discovery.arrayBuffer()
    expect([discovery.status, discovery.headers.get('x-svc-mock-scenario')]).toEqual([200, null])
    const hook = await h.fetch('/hooks/orders?orderId=1', { headers: { ...APP_KEY, 'x-svc-mock-scenario': 'static-keys-rejected,rate-limited' } })
    expect([hook.status, await hook.text()]).toEqual([200, 'Accepted'])
  })
})
