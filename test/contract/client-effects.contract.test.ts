/**
 * What the state says of each OAuth client, on every way in: what it is configured to meet and
 * what its requests meet now with the scenarios on (`GET /__svc-mock/state`, `emu.state()`), so
 * the dashboard can say which wins.
 */
import { expect, it } from 'vitest'
import type { ClientState, EmulatorState } from '../../src/index.js'
import { type Harness, contract } from '../support/harness.js'
import { CI, token } from '../support/oauth.js'

async function client(h: Harness, id: string): Promise<ClientState> {
  const { body } = await h.control<EmulatorState>('GET', '/state')
  const found = body.oauthClients.find((c) => c.clientId === id)
  if (!found) throw new Error(`no client ${id} in the state`)
  return found
}

contract('state: OAuth clients as their requests meet them now', (h) => {
  it('says nothing differs while no scenario is on, and never shows a secret', async () => {
    const ci = await client(h, CI.id)
    expect(ci.configured).toEqual({ tokenLifetime: 899, credentials: 'accepted', consent: 'auto' })
    expect(ci.effective).toEqual({ ...ci.configured, scenarios: [] })
    expect(JSON.stringify(ci)).not.toContain(CI.secret)
  })

  it('a scenario aimed at one client changes that client only, and is named on it', async () => {
    await h.control('POST', '/scenarios/token-invalid-client', { client: CI.id })
    expect((await client(h, CI.id)).effective).toEqual({ tokenLifetime: 899, credentials: 'refused', consent: 'auto', scenarios: ['token-invalid-client'] })
    expect((await client(h, 'ci-post-client')).effective).toMatchObject({ credentials: 'accepted', scenarios: [] })
    expect((await token(h, { grant_type: 'client_credentials' })).status).toBe(401)
  })

  it('shows a shorter token lifetime and a denied consent while their scenarios are on, for every client', async () => {
    await h.control('POST', '/scenarios/token-short-lived', { params: { seconds: 10 } })
    await h.control('POST', '/scenarios/consent-denied', {})
    const web = await client(h, 'web-app')
    expect(web.configured).toMatchObject({ tokenLifetime: 899, consent: 'auto' })
    expect(web.effective).toMatchObject({ tokenLifetime: 10, consent: 'deny', scenarios: ['token-short-lived', 'consent-denied'] })
    expect(h.emu.state().oauthClients.find((c) => c.clientId === 'web-app')).toEqual(web)
  })
})
