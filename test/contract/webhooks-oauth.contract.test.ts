/**
 * Secured webhooks and OAuth together: a call from outside may carry an OAuth
 * access token as its Bearer credential; an expired or forged one is refused like any bad one.
 */
import { expect, it } from 'vitest'
import { contract } from '../support/harness.js'
import { token } from '../support/oauth.js'
import { postJson, received } from '../support/webhooks.js'

contract(
  'webhooks: secured, with OAuth access tokens',
  { team: true },
  (h) => {
    it('accepts a Bearer OAuth access token and marks the answer x-service-authenticated: true', async () => {
      const accessToken = String((await token(h, { grant_type: 'client_credentials' })).body.access_token)
      const answer = await postJson(h, '/hooks/secured', { orderId: 'A-1' }, { authorization: `Bearer ${accessToken}` })
      expect(answer.status).toBe(200)
      expect(answer.headers.get('x-service-authenticated')).toBe('true')
      expect(await received(h, 'secured')).toEqual({ orderId: 'A-1' })
      const [entry] = h.emu.journal.list({ route: 'webhooks.receive', limit: 1 })
      expect(entry?.identity).toContain('ci-client')
    })

    it('refuses an access token once the emulator clock passes its expiry', async () => {
      const accessToken = String((await token(h, { grant_type: 'client_credentials' })).body.access_token)
      await h.emu.clock.advance(900_000)
      const answer = await postJson(h, '/hooks/secured', { orderId: 'A-2' }, { authorization: `Bearer ${accessToken}` })
      expect([answer.status, answer.text]).toEqual([401, 'Unauthorized'])
      expect(h.emu.webhooks.executions('secured')).toEqual([])
    })

    it('refuses a tampered token', async () => {
      const accessToken = String((await token(h, { grant_type: 'client_credentials' })).body.access_token)
      const [header, payload, signature] = accessToken.split('.')
      const claims = JSON.parse(Buffer.from(payload ?? '', 'base64url').toString()) as Record<string, unknown>
      const forged = `${header}.${Buffer.from(JSON.stringify({ ...claims, client_id: 'someone-else' })).toString('base64url')}.${signature}`
      const answer = await postJson(h, '/hooks/secured', { orderId: 'A-3' }, { authorization: `Bearer ${forged}` })
      expect(answer.status).toBe(401)
    })
  },
  { clock: 'manual' },
)
