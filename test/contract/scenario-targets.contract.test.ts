/**
 * Scenario targets: a scenario switched on for one OAuth client, one route or one webhook touches
 * only those requests. The client is found in an Authorization: Basic header, a client_id
 * parameter, or the client_id claim of a Bearer token. A scenario aimed at a webhook, client or
 * route that does not exist is refused naming the closest one that does, on every way to switch
 * it on; so is a journal filter or wait on an unknown route: nothing silently does nothing.
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

contract(
  'scenario targets that name nothing: refused naming the closest',
  (h) => {
    it.each([
      [{ webhook: 'order' }, /no webhook "order" exists \(did you mean "orders"\?/],
      [{ client: 'ci-clinet' }, /no client "ci-clinet" exists \(did you mean "ci-client"\?/],
      [{ route: 'versions.lst' }, /no route "versions.lst" exists \(did you mean "versions.list"\?/],
    ])('the control plane refuses %o with 400 naming the closest, and switches nothing on', async (aim, message) => {
      const answer = await h.control<{ error: string }>('POST', '/scenarios/webhook-queue-full', aim)
      expect(answer.status).toBe(400)
      expect(answer.body.error).toMatch(message)
      expect(h.emu.scenarios.list().some((s) => s.active)).toBe(false)
    })

    it('the header form is refused with 400 too, and the request is not answered as if shaped', async () => {
      const response = await h.fetch('/hooks/orders?orderId=1', { headers: { 'x-svc-mock-scenario': 'webhook-queue-full:webhook=order' } })
      expect(response.status).toBe(400)
      expect(await response.text()).toMatch(/no webhook "order" exists/)
    })

    it('in-process, emu.scenarios.use throws naming the closest', () => {
      expect(() => h.emu.scenarios.use('webhook-queue-full', { webhook: 'order' })).toThrow(/did you mean "orders"/)
      expect(() => h.emu.scenarios.use('webhook-queue-full:client=ci-clinet')).toThrow(/did you mean "ci-client"/)
    })

    it('a journal filter or wait on an unknown route is a 400 naming the closest', async () => {
      const list = await h.control<{ error: string }>('GET', '/journal?route=versions.lst')
      expect([list.status, list.body.error]).toEqual([400, expect.stringMatching(/did you mean "versions.list"/)])
      const wait = await h.control<{ error: string }>('GET', '/journal/wait?route=versions.lst&timeoutMs=1')
      expect(wait.status).toBe(400)
      expect(() => h.emu.journal.list({ route: 'webhooks.recieve' })).toThrow(/did you mean "webhooks.receive"/)
      expect(h.emu.journal.list({ route: 'webhooks.*' })).toEqual([])
    })
  },
  { clock: 'manual' },
)
