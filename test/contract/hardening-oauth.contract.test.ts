/**
 * OAuth strictness: a used authorization code presented again revokes every token issued from
 * it, access and refresh (RFC 6749 section 4.1.2); a rotated refresh token presented again
 * revokes its whole family (RFC 9700 section 4.14.2).
 */
import { expect, it } from 'vitest'
import { VERSIONS, contract } from '../support/harness.js'
import { WEB_APP, exchange, getCode, token } from '../support/oauth.js'

contract('hardening: OAuth replays revoke what they issued', (h) => {
  const api = async (accessToken: unknown): Promise<Response> => await h.fetch(VERSIONS(), { headers: { authorization: `Bearer ${String(accessToken)}` } })
  const refresh = async (refreshToken: unknown) =>
    await token(h, { grant_type: 'refresh_token', refresh_token: String(refreshToken) }, { auth: 'post', client: WEB_APP })

  it('a reused code: invalid_grant, and the access and refresh tokens issued from it (and from its refreshes) stop working', async () => {
    const code = await getCode(h)
    const first = await exchange(h, code)
    expect(first.status).toBe(200)
    const renewed = await refresh(first.body.refresh_token)
    expect(renewed.status).toBe(200)
    expect((await api(first.body.access_token)).status).toBe(200)
    expect((await api(renewed.body.access_token)).status).toBe(200)

    const replay = await exchange(h, code)
    expect([replay.status, replay.body.error]).toEqual([400, 'invalid_grant'])
    expect(String(replay.body.error_description)).toMatch(/tokens issued from it are revoked/)

    for (const accessToken of [first.body.access_token, renewed.body.access_token]) {
      const refused = await api(accessToken)
      expect(refused.status).toBe(401)
      expect(refused.headers.get('www-authenticate')).toMatch(/^Bearer error="invalid_token"/)
      expect(refused.headers.get('x-svc-mock-reason')).toMatch(/revoked: the authorization code it was issued from was used twice/)
    }
    const refreshAfter = await refresh(renewed.body.refresh_token)
    expect([refreshAfter.status, refreshAfter.body.error]).toEqual([400, 'invalid_grant'])
    expect(String(refreshAfter.body.error_description)).toMatch(/code it was issued from was used twice/)
  })

  it('a reused refresh token: invalid_grant, and the newest refresh token of the family is revoked too; another grant is untouched', async () => {
    const first = await exchange(h, await getCode(h))
    const other = await exchange(h, await getCode(h, { state: 's-2' }))
    const second = await refresh(first.body.refresh_token)
    expect(second.status).toBe(200)
    const replay = await refresh(first.body.refresh_token)
    expect([replay.status, replay.body.error]).toEqual([400, 'invalid_grant'])
    const newest = await refresh(second.body.refresh_token)
    expect([newest.status, newest.body.error]).toEqual([400, 'invalid_grant'])
    expect(String(newest.body.error_description)).toMatch(/an earlier refresh token of this grant was used twice/)
    expect((await refresh(other.body.refresh_token)).status).toBe(200)
  })
})
