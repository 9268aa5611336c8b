/**
 * Every signing algorithm the emulator offers (RS256, ES256, ES384, EdDSA): the access token is a
 * compact JWS whose header names the algorithm and the key, whose signature verifies with the
 * JWKS the emulator publishes (checked by jose, as a resource server would), whose claims are the
 * documented ones, and which the API accepts.
 */
import { type JWK, createLocalJWKSet, decodeProtectedHeader, jwtVerify } from 'jose'
import { expect, it } from 'vitest'
import { TOKEN_ALGORITHMS } from '../../src/auth/settings.js'
import { VERSIONS, contract } from '../support/harness.js'
import { token } from '../support/oauth.js'

for (const alg of TOKEN_ALGORITHMS) {
  contract(
    `oauth: ${alg} access tokens`,
    { tls: true, team: true },
    (h) => {
      it('signs a token that verifies with the published JWKS and opens the API', async () => {
        const answer = await token(h, { grant_type: 'client_credentials' })
        expect(answer.status).toBe(200)
        const accessToken = String(answer.body.access_token)
        const jwks = (await (await h.fetch('/.well-known/jwks.json')).json()) as { keys: JWK[] }
        const header = decodeProtectedHeader(accessToken)
        expect(header).toEqual({ alg, kid: expect.any(String), typ: 'JWT' })
        expect(jwks.keys.find((k) => k.kid === header.kid)).toMatchObject({ alg, use: 'sig' })
        const now = h.emu.clock.now()
        const { payload } = await jwtVerify(accessToken, createLocalJWKSet(jwks), {
          algorithms: [alg],
          issuer: h.emu.urls.auth,
          audience: h.emu.urls.base,
          currentDate: now,
        })
        const iat = Math.floor(now.getTime() / 1000)
        expect(payload).toEqual({ client_id: 'ci-client', scope: expect.any(String), iss: h.emu.urls.auth, sub: 'ci-client', aud: h.emu.urls.base, iat, exp: iat + Number(answer.body.expires_in), jti: expect.any(String) })
        const api = await h.fetch(VERSIONS(), { headers: { authorization: `Bearer ${accessToken}` } })
        expect(api.status).toBe(200)
      })

      it('refuses its own token once a byte of the signature changed', async () => {
        const accessToken = String((await token(h, { grant_type: 'client_credentials' })).body.access_token)
        const signature = accessToken.split('.')[2] ?? ''
        const flipped = `${signature[0] === 'A' ? 'B' : 'A'}${signature.slice(1)}`
        const api = await h.fetch(VERSIONS(), { headers: { authorization: `Bearer ${accessToken.split('.').slice(0, 2).join('.')}.${flipped}` } })
        expect(api.status).toBe(401)
      })
    },
    { clock: 'manual', tokenAlgorithm: alg },
  )
}
