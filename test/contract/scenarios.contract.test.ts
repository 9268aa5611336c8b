/**
 * The scenarios of the versions surface (versions-not-found, versions-server-error,
 * network-error, latency), through each activation that both transports share: for the run
 * (control plane), for one request (x-svc-mock-scenario), with `times`, and at start-up.
 */
import { expect, it } from 'vitest'
import { APP_KEY, contract, SEED_ELEMENT, VERSIONS } from '../support/harness.js'

type ErrorBody = { data: Array<{ error: string }>; message: string; output: string; type: string }
type Listing = { name: string; description: string; active: boolean; activation?: { remaining: number | null; params: Record<string, unknown> } }

const withScenario = (value: string): Record<string, string> => ({ ...APP_KEY, 'x-svc-mock-scenario': value })

contract(
  'scenarios of the versions surface',
  (h) => {
    it('lists the catalogue with a description for each, all off', async () => {
      const { status, body } = await h.control<Listing[]>('GET', '/scenarios')
      expect(status).toBe(200)
      const names = body.map((s) => s.name)
      for (const name of ['latency', 'network-error', 'versions-not-found', 'versions-server-error']) expect(names).toContain(name)
      for (const s of body) {
        expect(s.description.length).toBeGreaterThan(40)
        expect(s.active).toBe(false)
      }
    })

    it('versions-not-found: 404 with the error body naming the element, while on', async () => {
      const on = await h.control<Listing>('POST', '/scenarios/versions-not-found')
      expect(on.status).toBe(200)
      expect(on.body.active).toBe(true)
      const response = await h.fetch(VERSIONS(), { headers: APP_KEY })
      expect(response.status).toBe(404)
      expect(await response.json()).toEqual({
        data: [{ error: `Element '${SEED_ELEMENT}' not found.` }],
        message: 'An error occurred.',
        output: 'Volatile',
        type: 'Error',
      })
      const off = await h.control<Listing>('DELETE', '/scenarios/versions-not-found')
      expect(off.body.active).toBe(false)
      expect((await h.fetch(VERSIONS(), { headers: APP_KEY })).status).toBe(200)
    })

    it('versions-server-error: 500 with the error body, type Critical', async () => {
      const response = await h.fetch(VERSIONS(), { headers: withScenario('versions-server-error') })
      expect(response.status).toBe(500)
      const body = (await response.json()) as ErrorBody
      expect(body.type).toBe('Critical')
      expect(body.message).toBe('An error occurred.')
    })

    it('a scenario in the x-svc-mock-scenario header shapes that request only, and the journal names it', async () => {
      expect((await h.fetch(VERSIONS(), { headers: withScenario('versions-not-found') })).status).toBe(404)
      expect((await h.fetch(VERSIONS(), { headers: APP_KEY })).status).toBe(200)
      const [shaped, plain] = h.emu.journal.list({ route: 'versions.list' })
      expect(shaped?.scenarios).toEqual(['versions-not-found'])
      expect(plain?.scenarios).toEqual([])
      const listing = await h.control<Listing[]>('GET', '/scenarios')
      expect(listing.body.every((s) => !s.active)).toBe(true)
    })

    it('times: on for the next N requests it touches, then off by itself', async () => {
      await h.control('POST', '/scenarios/versions-not-found', { times: 2 })
      const listed = await h.control<Listing[]>('GET', '/scenarios')
      expect(listed.body.find((s) => s.name === 'versions-not-found')?.activation?.remaining).toBe(2)
      const statuses: number[] = []
      for (let i = 0; i < 3; i++) statuses.push((await h.fetch(VERSIONS(), { headers: APP_KEY })).status)
      expect(statuses).toEqual([404, 404, 200])
      const after = await h.control<Listing[]>('GET', '/scenarios')
      expect(after.body.find((s) => s.name === 'versions-not-found')?.active).toBe(false)
    })

    it('never shapes the control plane', async () => {
      await h.control('POST', '/scenarios/network-error')
      const health = await h.control<{ status: string }>('GET', '/health')
      expect(health.body.status).toBe('ok')
      await h.control('DELETE', '/scenarios/network-error')
    })

    it('network-error: the request fails with no answer at all', async () => {
      await h.control('POST', '/scenarios/network-error')
      await expect(h.fetch(VERSIONS(), { headers: APP_KEY })).rejects.toThrow(TypeError)
      const [entry] = h.emu.journal.list({ route: 'versions.list' })
      expect(entry?.status).toBe(0)
      expect(entry?.scenarios).toEqual(['network-error'])
      await h.control('DELETE', '/scenarios/network-error')
      expect((await h.fetch(VERSIONS(), { headers: APP_KEY })).status).toBe(200)
    })

    it('network-error:mode=cut-body: the head arrives, then the body breaks off', async () => {
      await h.control('POST', '/scenarios/network-error', { params: { mode: 'cut-body' } })
      const response = await h.fetch(VERSIONS(), { headers: APP_KEY })
      expect(response.status).toBe(200)
      await expect(response.text()).rejects.toThrow()
      await h.control('DELETE', '/scenarios/network-error')
    })

    it('network-error:mode=empty-reply: no answer at all', async () => {
      await expect(h.fetch(VERSIONS(), { headers: withScenario('network-error:mode=empty-reply') })).rejects.toThrow(TypeError)
      const bad = await h.control<{ error: string }>('POST', '/scenarios/network-error', { params: { mode: 'slow' } })
      expect(bad.status).toBe(400)
      expect(bad.body.error).toMatch(/must be one of network-error, empty-reply, cut-body/)
    })

    it('flaky:every=3 fails exactly every third request with 503 and Retry-After', async () => {
      await h.control('POST', '/scenarios/flaky', { params: { every: 3 } })
      const statuses: number[] = []
      for (let i = 0; i < 6; i++) statuses.push((await h.fetch(VERSIONS(), { headers: APP_KEY })).status)
      expect(statuses).toEqual([200, 200, 503, 200, 200, 503])
      await h.fetch(VERSIONS(), { headers: APP_KEY })
      await h.fetch(VERSIONS(), { headers: APP_KEY })
      const failed = await h.fetch(VERSIONS(), { headers: APP_KEY })
      expect(failed.status).toBe(503)
      expect(failed.headers.get('retry-after')).toBe('1')
      expect(await failed.text()).toBe('Service Unavailable')
    })

    it('flaky with a seed fails the same requests on every run', async () => {
      const run = async (): Promise<number[]> => {
        await h.control('POST', '/reset')
        await h.control('POST', '/scenarios/flaky', { params: { rate: 0.5, seed: 7 } })
        const statuses: number[] = []
        for (let i = 0; i < 12; i++) statuses.push((await h.fetch(VERSIONS(), { headers: APP_KEY })).status)
        return statuses
      }
      const first = await run()
      expect(await run()).toEqual(first)
      expect(first).toContain(200)
      expect(first).toContain(503)
    })

    it('latency: the answer waits for the emulator clock, not the wall clock', async () => {
      await h.control('POST', '/scenarios/latency', { params: { ms: 2000 } })
      let settled = false
      const pending = h.fetch(VERSIONS(), { headers: APP_KEY }).then((r) => {
        settled = true
        return r
      })
      await h.emu.clock.waitForParked(1)
      await h.emu.clock.advance(1999)
      expect(settled).toBe(false)
      await h.emu.clock.advance(1)
      const response = await pending
      expect(response.status).toBe(200)
      expect(h.emu.journal.list({ route: 'versions.list' })[0]?.durationMs).toBe(2000)
    })

    it('latency with a parameter in the header: latency:ms=250', async () => {
      const pending = h.fetch(VERSIONS(), { headers: withScenario('latency:ms=250') })
      await h.emu.clock.waitForParked(1)
      await h.emu.clock.advance(250)
      expect((await pending).status).toBe(200)
    })

    it('scenarios compose: latency delays, then versions-not-found answers', async () => {
      const pending = h.fetch(VERSIONS(), { headers: withScenario('latency:ms=100,versions-not-found') })
      await h.emu.clock.waitForParked(1)
      await h.emu.clock.advance(100)
      expect((await pending).status).toBe(404)
      expect(h.emu.journal.list({ route: 'versions.list' })[0]?.scenarios).toEqual(['latency', 'versions-not-found'])
    })

    it('answers 400 naming an unknown scenario in the header, and 404 on the control plane', async () => {
      const response = await h.fetch(VERSIONS(), { headers: withScenario('no-such-thing') })
      expect(response.status).toBe(400)
      expect(await response.text()).toMatch(/Unknown scenario "no-such-thing".*x-svc-mock-scenario/)
      const control = await h.control<{ error: string }>('POST', '/scenarios/no-such-thing')
      expect(control.status).toBe(404)
      expect(control.body.error).toMatch(/Known scenarios: .*latency/)
    })

    it('refuses a bad activation body with 400 naming the field', async () => {
      const bad = await h.control<{ error: string; field?: string }>('POST', '/scenarios/latency', { times: 0 })
      expect(bad.status).toBe(400)
      expect(bad.body.field).toBe('times')
      const badParam = await h.control<{ error: string }>('POST', '/scenarios/latency', { params: { ms: 'soon' } })
      expect(badParam.status).toBe(400)
      expect(badParam.body.error).toMatch(/params\.ms.*must be a number/)
      const unknownParam = await h.control<{ error: string }>('POST', '/scenarios/latency', { params: { seconds: 3 } })
      expect(unknownParam.status).toBe(400)
      expect(unknownParam.body.error).toMatch(/latency" takes ms/)
    })
  },
  { clock: 'manual' },
)

contract(
  'scenarios switched on at start-up',
  (h) => {
    it('applies them from the first request, and reset keeps them on', async () => {
      expect((await h.fetch(VERSIONS(), { headers: APP_KEY })).status).toBe(404)
      await h.emu.reset()
      expect((await h.fetch(VERSIONS(), { headers: APP_KEY })).status).toBe(404)
      expect(h.emu.scenarios.list().find((s) => s.name === 'versions-not-found')?.active).toBe(true)
    })
  },
  { scenarios: ['versions-not-found'] },
)
