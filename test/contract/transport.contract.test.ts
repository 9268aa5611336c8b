/**
 * What both transports must agree on beyond the routes: unknown paths, wrong methods, body
 * limits, and requests that arrive concurrently.
 */
import { expect, it } from 'vitest'
import { APP_KEY, contract, VERSIONS } from '../support/harness.js'

contract('transport behaviour', (h) => {
  it('answers a platform path it does not emulate with 404 "Not emulated", naming the closest emulated platform route', async () => {
    const response = await h.fetch('/acme-collection/acme-tenant/_api/rest/facets/processes/views/default/elements/x/version')
    expect(response.status).toBe(404)
    const body = (await response.json()) as { error: string; path: string; message: string; closest?: string }
    expect(body.error).toBe('Not emulated')
    expect(body.path).toBe('/acme-collection/acme-tenant/_api/rest/facets/processes/views/default/elements/x/version')
    expect(body.message).toMatch(/does not emulate GET .*\/elements\/x\/version.*listed at GET .*\/__svc-mock\/routes/)
    expect(body.closest).toContain('versions.list')
  })

  it('points a platform CLI\'s other paths at an emulated platform route, never at a control-plane route', async () => {
    for (const path of ['/package-manager/api/spaces', '/integration/api/pools/paged', '/api/cloud']) {
      const body = (await (await h.fetch(path, { headers: APP_KEY })).json()) as { error: string; closest?: string }
      expect(body.error).toBe('Not emulated')
      expect(body.closest).toMatch(/^GET \//)
      expect(body.closest).not.toContain('__svc-mock')
    }
  })

  it('answers an unknown control-plane path with 404 naming the closest control route', async () => {
    const body = (await (await h.fetch('/__svc-mock/scenario')).json()) as { error: string; closest?: string }
    expect(body).toMatchObject({ error: 'Not Found', closest: expect.stringContaining('/__svc-mock/scenarios') })
  })

  it('answers a known path with the wrong method with 405 and Allow', async () => {
    const response = await h.fetch(VERSIONS(), { method: 'POST', headers: APP_KEY, body: '{}' })
    expect(response.status).toBe(405)
    expect(response.headers.get('allow')).toBe('GET, HEAD')
  })

  it('refuses a body over the route limit with 413, and keeps serving', async () => {
    const big = JSON.stringify({ storage: 'acme-collection/acme-tenant', pad: 'x'.repeat(10 * 1024 * 1024 + 10) })
    const response = await h.fetch('/__svc-mock/elements', { method: 'POST', body: big, headers: { 'content-type': 'application/json' } })
    expect(response.status).toBe(413)
    expect(await response.text()).toBe('Payload Too Large')
    expect((await h.fetch(VERSIONS(), { headers: APP_KEY })).status).toBe(200)
  })

  it('answers many concurrent requests, each with its own answer', async () => {
    const statuses = await Promise.all(
      Array.from({ length: 50 }, (_, i) => h.fetch(VERSIONS(), { headers: i % 2 === 0 ? APP_KEY : { authorization: 'Bearer svcmock-user-key-bob' } }).then((r) => r.status)),
    )
    expect(statuses).toEqual(Array.from({ length: 50 }, (_, i) => (i % 2 === 0 ? 200 : 403)))
    expect(h.emu.journal.list({ route: 'versions.list' })).toHaveLength(50)
  })
})
