/**
 * The control plane against other web pages: a cross-site form post cannot change anything (415: a
 * change with a body must be JSON), a page of another origin or another site is refused (403), and
 * nothing it asked for happened; a change without a body needs no Content-Type (curl just works).
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

  it('a change without a body needs no Content-Type: a bare POST resets, a bare DELETE switches off', async () => {
    await h.emu.scenarios.use('latency')
    const reset = await h.fetch('/__svc-mock/reset', { method: 'POST' })
    expect(reset.status).toBe(200)
    expect(h.emu.scenarios.list().find((s) => s.name === 'latency')?.active).toBe(false)
    const on = await h.fetch('/__svc-mock/scenarios/latency', { method: 'POST' })
    expect(on.status).toBe(200)
    expect(h.emu.scenarios.list().find((s) => s.name === 'latency')?.active).toBe(true)
    const off = await h.fetch('/__svc-mock/scenarios/latency', { method: 'DELETE' })
    expect(off.status).toBe(200)
    expect(h.emu.scenarios.list().find((s) => s.name === 'latency')?.active).toBe(false)
  })

  it('a change with a body that is not JSON is refused with 415 and changes nothing (text/plain, none, DELETE too)', async () => {
    await h.emu.scenarios.use('latency')
    const reset = await h.fetch('/__svc-mock/reset', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: '{}' })
    expect(reset.status).toBe(415)
    expect(((await reset.json()) as { error: string }).error).toMatch(/Content-Type: application\/json/)
    expect(h.emu.scenarios.list().find((s) => s.name === 'latency')?.active).toBe(true)
    const off = await h.fetch('/__svc-mock/scenarios/latency', { method: 'DELETE', headers: { 'content-type': 'text/plain' }, body: 'x' })
    expect(off.status).toBe(415)
    expect(h.emu.scenarios.list().find((s) => s.name === 'latency')?.active).toBe(true)
    const before = h.emu.oauth.clients.list().length
    const created = await h.fetch('/__svc-mock/oauth-clients', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: '{"name":"x","grantType":"client_credentials","authMethod":"client_secret_basic"}' })
    expect(created.status).toBe(415)
    expect(h.emu.oauth.clients.list()).toHaveLength(before)
  })

  it('a bodiless change from a page of another origin (browsers send Origin on every POST) is refused with 403, null included', async () => {
    await h.emu.scenarios.use('latency')
    for (const origin of ['https://evil.example', 'null']) {
      const reset = await h.fetch('/__svc-mock/reset', { method: 'POST', headers: { origin } })
      expect(reset.status).toBe(403)
    }
    expect(h.emu.scenarios.list().find((s) => s.name === 'latency')?.active).toBe(true)
  })

  it('a request a browser marks Sec-Fetch-Site: cross-site or same-site is refused with 403, reads included', async () => {
    await h.emu.scenarios.use('latency')
    for (const site of ['cross-site', 'same-site']) {
      const reset = await h.fetch('/__svc-mock/reset', { method: 'POST', headers: { 'sec-fetch-site': site } })
      expect(reset.status).toBe(403)
      const state = await h.fetch('/__svc-mock/state', { headers: { 'sec-fetch-site': site } })
      expect(state.status).toBe(403)
    }
    expect(h.emu.scenarios.list().find((s) => s.name === 'latency')?.active).toBe(true)
    for (const site of ['same-origin', 'none']) {
      const state = await h.fetch('/__svc-mock/state', { headers: { 'sec-fetch-site': site } })
      expect(state.status).toBe(200)
    }
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
