/**
 * `/__svc-mock` is reserved (issue 32, item 2): the control plane is matched before any other
 * route, so a route of the user's whose template could match a path under it (`/{a}/{b}`,
 * `/{tenant}/state`) still loads but never sees those paths; a path there that no control route
 * serves is the control plane's own 404 (or 405), never a route of the user's.
 */
import { expect, it } from 'vitest'
import type { RoutesDocumentInput } from '../../src/index.js'
import { APP_KEY, contract } from '../support/harness.js'

const GREEDY: RoutesDocumentInput = {
  routes: [
    { id: 'any.two', method: 'GET', path: '/{a}/{b}', auth: 'none', response: { body: { mine: true } } },
    { id: 'any.reset', method: 'POST', path: '/{a}/reset', auth: 'none', response: { body: { mine: true } } },
    { id: 'any.delete', method: 'DELETE', path: '/{a}/{b}', auth: 'none', response: { body: { mine: true } } },
    { id: 'any.one', method: 'GET', path: '/{a}', auth: 'none', response: { body: { mine: true } } },
  ],
}

contract('/__svc-mock is reserved for the control plane', (h) => {
  it('a route of yours whose template could match a control path still loads, answers its other paths, and never sees the control plane\'s', async () => {
    expect((await h.control('POST', '/routes', GREEDY)).status).toBe(201)
    expect(await (await h.fetch('/tenant/things')).json()).toEqual({ mine: true })
    expect(await (await h.fetch('/tenant')).json()).toEqual({ mine: true })

    const state = await h.control<{ version: string }>('GET', '/state')
    expect(state.status).toBe(200)
    expect(typeof state.body.version).toBe('string')
    expect((await h.control('GET', '/health')).body).toMatchObject({ status: 'ok' })
    expect((await h.control<unknown>('GET', '/teams')).body).not.toEqual({ mine: true })
    const script = await h.fetch('/__svc-mock/dashboard/app.js')
    expect(script.headers.get('content-type')).toMatch(/javascript/)
    const reset = await h.control('POST', '/reset')
    expect(reset.body).not.toEqual({ mine: true })
    // The reset took the run-time routes away: it was the control plane's reset that answered.
    expect((await h.fetch('/tenant/things')).status).toBe(404)
  })

  it('a path under /__svc-mock no control route serves is the control plane\'s own 404 (and a wrong method its 405), never a route of yours', async () => {
    await h.control('POST', '/routes', GREEDY)
    const missing = await h.fetch('/__svc-mock/nothing-here')
    expect(missing.status).toBe(404)
    expect(await missing.json()).toMatchObject({ error: 'Not Found', message: 'svc-mock has no route for GET /__svc-mock/nothing-here.' })
    const wrongMethod = await h.fetch('/__svc-mock/state', { method: 'DELETE' })
    expect(wrongMethod.status).toBe(405)
    expect(wrongMethod.headers.get('allow')).toBe('GET, HEAD')
    const bare = await h.fetch('/__svc-mock')
    expect(await bare.text()).not.toContain('mine')
    const journal = h.emu.journal.list().map((e) => e.route)
    expect(journal.filter((id) => id.startsWith('any.'))).toEqual([])
  })

  it('a route file\'s /{tenant}/state behind the gate leaves GET /__svc-mock/state a 200, not its 401', async () => {
    await h.emu.userRoutes.add({ routes: [{ id: 'tenant.state', method: 'GET', path: '/{tenant}/state', response: { body: { tenant: '{{path.tenant}}' } } }] })
    expect((await h.control('GET', '/state')).status).toBe(200)
    expect(await (await h.fetch('/acme/state', { headers: APP_KEY })).json()).toEqual({ tenant: 'acme' })
    expect((await h.fetch('/acme/state')).status).toBe(401)
  })
})

contract(
  '/__svc-mock is reserved for the control plane, also for a route file given at start',
  (h) => {
    it('GET /__svc-mock/health and /__svc-mock/state answer as the control plane, with /{a}/{b} loaded from the start', async () => {
      expect((await h.control('GET', '/health')).body).toMatchObject({ status: 'ok' })
      expect((await h.control<{ version: string }>('GET', '/state')).body.version).toEqual(expect.any(String))
      expect(await (await h.fetch('/tenant/things')).json()).toEqual({ mine: true })
    })
  },
  { routes: GREEDY },
)
