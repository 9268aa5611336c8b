/**
 * Scenario targets: a scenario switched on for one OAuth client, one route or one webhook touches
 * only those requests. The client is found in an Authorization: Basic header, a client_id
 * parameter, or the client_id claim of a Bearer token.
 */
import { expect, it } from 'vitest'
import { APP_KEY, contract, VERSIONS } from '../support/harness.js'
import { CI, CI_POST, token } from '../support/oauth.js'

contract(
  'scenario targets',
  (h) => {
    it('client: a token-server-error aimed at one client leaves the others alone (Basic and post)', async () => {
      expect((await h.control('POST', '/scenarios/token-server-error', { client: CI_POST.id })).status).toBe(200)
      expect((await token(h, { grant_type: 'client_credentials' }, { client: CI })).status).toBe(200)
      expect((await token(h, { grant_type: 'client_credentials' }, { client: CI_POST, auth: 'post' })).status).toBe(500)
      expect((await token(h, { grant_type: 'client_credentials' }, { client: CI_POST, auth: 'post', encoding: 'multipart' })).status).toBe(500)
      expect((await token(h, { grant_type: 'client_credentials' }, { client: CI_POST, auth: 'post', encoding: 'query' })).status).toBe(500)
    })

    it('client: an API call is matched by the client_id claim of its access token', async () => {
      const ci = String((await token(h, { grant_type: 'client_credentials' }, { client: CI })).body.access_token)
      const post = String((await token(h, { grant_type: 'client_credentials' }, { client: CI_POST, auth: 'post' })).body.access_token)
      await h.control('POST', '/scenarios/versions-not-found', { client: CI.id })
      expect((await h.fetch(VERSIONS(), { headers: { authorization: `Bearer ${ci}` } })).status).toBe(404)
      expect((await h.fetch(VERSIONS(), { headers: { authorization: `Bearer ${post}` } })).status).toBe(200)
      expect((await h.fetch(VERSIONS(), { headers: APP_KEY })).status).toBe(200)
    })

    it('client in the header form: x-svc-mock-scenario: token-server-error:client=ci-client', async () => {
      const headers = { 'x-svc-mock-scenario': 'token-server-error:client=ci-post-client' }
      expect((await token(h, { grant_type: 'client_credentials' }, { client: CI, headers })).status).toBe(200)
      expect((await token(h, { grant_type: 'client_credentials' }, { client: CI_POST, auth: 'post', headers })).status).toBe(500)
    })

    it('route: latency aimed at the token endpoint does not slow the REST API', async () => {
      await h.control('POST', '/scenarios/latency', { route: 'auth.token', params: { ms: 5000 } })
      expect((await h.fetch(VERSIONS(), { headers: APP_KEY })).status).toBe(200)
      const pending = token(h, { grant_type: 'client_credentials' })
      await h.emu.clock.waitForParked(1)
      await h.emu.clock.advance(5000)
      expect((await pending).status).toBe(200)
    })
  },
  { clock: 'manual' },
)
