/**
 * What both transports must agree on beyond the routes: unknown paths, wrong methods, body
 * limits, and requests that arrive concurrently.
 */
import { expect, it } from 'vitest'
import { APP_KEY, contract, VERSIONS } from '../support/harness.js'

contract('transport behaviour', (h) => {
  it('answers an unknown path with 404 JSON naming the closest route', async () => {
    const response = await h.fetch('/acme-collection/acme-tenant/_api/rest/facets/processes/views/default/elements/x/version')
    expect(response.status).toBe(404)
    const body = (await response.json()) as { error: string; message: string; closest?: string }
    expect(body.error).toBe('Not Found')
    expect(body.message).toContain('/elements/x/version')
    expect(body.closest).toContain('versions.list')
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
