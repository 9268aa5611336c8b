/**
 * The gate's scenarios reach the user's routes as they reach every gated route (product.md,
 * section 1: `static-keys-rejected`, `insufficient-permissions`, `rate-limited` and
 * `tokens-expired` "reach every gated route", the user's routes named): a route of the user's
 * goes through the same gate and carries its tag (`@gated`), so each answers as on the platform's
 * own routes; a public one (`auth: "none"`) is not the gate's, and they leave it alone.
 */
import { expect, it } from 'vitest'
import type { RoutesDocumentInput } from '../../src/index.js'
import { APP_KEY, contract } from '../support/harness.js'
import { token } from '../support/oauth.js'

const DOCUMENT: RoutesDocumentInput = {
  routes: [{ id: 'settings.read', method: 'GET', path: '/team/api/settings', auth: { permission: { action: 'manage', resource: 'team' } }, response: { body: { ok: true } } }],
}

contract(
  'the gate\'s scenarios on your routes',
  (h) => {
    const settings = (authorization: string): Promise<Response> => h.fetch('/team/api/settings', { headers: { authorization } })
    const managerKey = async (): Promise<string> => {
      const created = await h.control<{ key: string }>('POST', '/api-keys', { kind: 'app', permissions: [{ action: 'manage', resource: 'team' }] })
      return `AppKey ${created.body.key}`
    }

    it('static-keys-rejected: a static key is 401 "no longer supported"', async () => {
      const key = await managerKey()
      expect((await settings(key)).status).toBe(200)
      h.emu.scenarios.use('static-keys-rejected')
      const refused = await settings(key)
      expect(refused.status).toBe(401)
      expect(await refused.json()).toEqual({ error: 'Unauthorized', message: 'Static API keys are no longer supported. Migrate to OAuth 2.0.' })
    })

    it('insufficient-permissions: a credential that holds the permission is 403 ADMIN_ACCESS_ERROR', async () => {
      const key = await managerKey()
      h.emu.scenarios.use('insufficient-permissions')
      const refused = await settings(key)
      expect(refused.status).toBe(403)
      expect(await refused.json()).toEqual({ title: 'Access Denied.', status: 403, detail: 'Access is denied', errorCode: 'ADMIN_ACCESS_ERROR' })
    })

    it('rate-limited: over the limit is 429 LIMIT_RATE_EXCEEDED with the rate-limit headers', async () => {
      const key = await managerKey()
      h.emu.scenarios.use('rate-limited', { params: { limit: 1 } })
      expect((await settings(key)).headers.get('x-ratelimit-remaining')).toBe('0')
      const refused = await settings(key)
      expect(refused.status).toBe(429)
      expect(refused.headers.get('x-ratelimit-reset')).toBe('60')
      expect(await refused.json()).toMatchObject({ title: 'Rate limit exceeded', status: 429, errorCode: 'LIMIT_RATE_EXCEEDED' })
    })

    it('leave a public route of yours alone: it is not the gate\'s', async () => {
      h.emu.scenarios.use('rate-limited')
      h.emu.scenarios.use('static-keys-rejected')
      const ping = await h.fetch('/public/ping', { headers: APP_KEY })
      expect(ping.status).toBe(200)
      expect(ping.headers.get('x-ratelimit-limit')).toBeNull()
    })

    it('tokens-expired: an access token is 401 invalid_token; a static key still passes', async () => {
      const accessToken = String((await token(h, { grant_type: 'client_credentials' })).body.access_token)
      h.emu.scenarios.use('tokens-expired')
      const refused = await h.fetch('/integration/api/pools', { headers: { authorization: `Bearer ${accessToken}` } })
      expect(refused.status).toBe(401)
      expect(refused.headers.get('www-authenticate')).toMatch(/^Bearer error="invalid_token"/)
      expect((await h.fetch('/integration/api/pools', { headers: APP_KEY })).status).toBe(200)
    })
  },
  { clock: 'manual', routes: [DOCUMENT, { resources: [{ name: 'pools', path: '/integration/api/pools' }] }, { routes: [{ id: 'public.ping', method: 'GET', path: '/public/ping', auth: 'none', response: { body: 'pong' } }] }] },
)
