/**
 * Every answer a scenario shaped says so: `x-svc-mock-scenario: <names>`, the names the journal
 * records for that request, comma-separated, on every way in; so a run-level scenario left on
 * explains an otherwise puzzling 401 or 404 in the answer itself. Answers no scenario touched, and
 * the control plane's, carry no such header.
 */
import { expect, it } from 'vitest'
import { APP_KEY, VERSIONS, contract } from '../support/harness.js'

const HEADER = 'x-svc-mock-scenario'
const TOKEN = { method: 'POST', headers: { authorization: `Basic ${btoa('ci-client:ci-secret')}`, 'content-type': 'application/x-www-form-urlencoded' }, body: 'grant_type=client_credentials' }

contract('scenarios: the answer names the scenarios that shaped it', (h) => {
  it('an answer a run-level scenario made (a rule) carries its name, as the journal records it', async () => {
    await h.emu.scenarios.use('versions-not-found')
    const response = await h.fetch(VERSIONS(), { headers: APP_KEY })
    expect(response.status).toBe(404)
    expect(response.headers.get(HEADER)).toBe('versions-not-found')
    expect(h.emu.journal.list({ route: 'versions.list' }).at(-1)?.scenarios).toEqual(['versions-not-found'])
  })

  it('an answer a scenario shaped through settings (a short token lifetime) carries its name', async () => {
    await h.emu.scenarios.use('token-short-lived')
    const response = await h.fetch('/oauth2/token', TOKEN)
    expect(response.status).toBe(200)
    expect(response.headers.get(HEADER)).toBe('token-short-lived')
  })

  it('several scenarios: every name the journal records, comma-separated, in its order (the per-request header too)', async () => {
    await h.emu.scenarios.use('rate-limited:limit=100')
    const response = await h.fetch(VERSIONS(), { headers: { ...APP_KEY, [HEADER]: 'versions-not-found' } })
    expect(response.status).toBe(404)
    const recorded = h.emu.journal.list({ route: 'versions.list' }).at(-1)?.scenarios ?? []
    expect([...recorded].sort()).toEqual(['rate-limited', 'versions-not-found'])
    expect(response.headers.get(HEADER)).toBe(recorded.join(', '))
  })

  it('an answer no scenario touched carries no such header, even while one is on elsewhere', async () => {
    await h.emu.scenarios.use('token-short-lived')
    const response = await h.fetch(VERSIONS(), { headers: APP_KEY })
    expect(response.status).toBe(200)
    expect(response.headers.has(HEADER)).toBe(false)
  })

  it('the control plane\'s answers never carry it', async () => {
    await h.emu.scenarios.use('latency')
    const response = await h.fetch('/__svc-mock/scenarios')
    expect(response.status).toBe(200)
    expect(response.headers.has(HEADER)).toBe(false)
  })
})
