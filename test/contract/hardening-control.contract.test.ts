/**
 * The control plane against other web pages: a cross-site form post or a `no-cors` fetch cannot
 * change anything (415: a change must be JSON), a page of another origin is refused (403), and
 * nothing it asked for happened.
 */
import { expect, it } from 'vitest'
import { contract } from '../support/harness.js'

contract('hardening: the control plane against other web pages', (h) => {
  it('a cross-site form post (urlencoded) is refused with 415 and switches nothing on', async () => {
    const response = await h.fetch('/__svc-mock/scenarios/network-error', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'times=1' })
    expect(response.status).toBe(415)
    expect(((await response.json()) as { error: string }).error).toMatch(/Content-Type: application\/json/)
    expect(h.emu.scenarios.list().some((s) => s.active)).toBe(false)
  })

  it('a no-cors fetch (text/plain, or no Content-Type) cannot reset or create a client', async () => {
    await h.emu.scenarios.use('latency')
    const reset = await h.fetch('/__svc-mock/reset', { method: 'POST', headers: { 'content-type': 'text/plain' } })
    expect(reset.status).toBe(415)
    expect(h.emu.scenarios.list().find((s) => s.name === 'latency')?.active).toBe(true)
    const bare = await h.fetch('/__svc-mock/reset', { method: 'POST' })
    expect(bare.status).toBe(415)
    const before = h.emu.oauth.clients.list().length
    const created = await h.fetch('/__svc-mock/oauth-clients', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: '{"name":"x","grantType":"client_credentials","authMethod":"client_secret_basic"}' })
    expect(created.status).toBe(415)
    expect(h.emu.oauth.clients.list()).toHaveLength(before)
  })

  it('a request sent by a page of another origin is refused with 403, reads included', async () => {
    const state = await h.fetch('/__svc-mock/state', { headers: { origin: 'https://evil.example' } })
    expect(state.status).toBe(403)
    const change = await h.fetch('/__svc-mock/scenarios/network-error', { method: 'POST', headers: { origin: 'https://evil.example', 'content-type': 'application/json' }, body: '{}' })
    expect(change.status).toBe(403)
    expect(h.emu.scenarios.list().some((s) => s.active)).toBe(false)
  })

  it('the emulator\'s own page (same origin, JSON) is served', async () => {
    const response = await h.fetch('/__svc-mock/scenarios/latency', { method: 'POST', headers: { origin: h.origin, 'content-type': 'application/json' }, body: '{"times":1}' })
    expect(response.status).toBe(200)
    expect(h.emu.scenarios.list().find((s) => s.name === 'latency')?.active).toBe(true)
  })

  it('the platform\'s own routes are not guarded (a webhook takes a form from anywhere)', async () => {
    const response = await h.fetch('/hooks/orders', { method: 'POST', headers: { origin: 'https://shop.example', 'content-type': 'application/x-www-form-urlencoded' }, body: 'orderId=A-1' })
    expect(response.status).toBe(200)
  })
})
