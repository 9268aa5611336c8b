/**
 * Every scenario of the catalogue, on both transports, through each activation that a socket
 * client also has: for the run (control plane), for one request (x-svc-mock-scenario), and at
 * start-up (options). Each is compared with the normal answer of the same requests. (The per-test
 * activation, in-process only, is in test/integration/scenario-boundaries.test.ts.)
 */
import { describe, expect, it } from 'vitest'
import { createEmulator } from '../../src/index.js'
import { type Harness, contract } from '../support/harness.js'
import { PROBES, headerValue } from '../support/scenario-probes.js'

const NAMES = Object.keys(PROBES).sort()

contract(
  'the scenario catalogue',
  (h) => {
    it('has a probe here for every scenario, and the product catalogue in full', () => {
      const catalogue = h.emu.scenarios.list().map((s) => s.name)
      expect(catalogue.sort()).toEqual(NAMES)
      for (const name of ['webhook-queue-full', 'webhook-flow-inactive', 'webhook-flow-fails', 'webhook-timeout', 'webhook-gone', 'token-invalid-client', 'token-server-error', 'token-slow', 'token-short-lived', 'tokens-expired', 'consent-denied', 'static-keys-rejected', 'insufficient-permissions', 'rate-limited', 'versions-not-found', 'versions-server-error', 'network-error', 'latency', 'flaky']) {
        expect(catalogue).toContain(name)
      }
    })

    describe.each(NAMES)('%s', (name) => {
      const probe = PROBES[name]
      if (!probe) throw new Error(`no probe for ${name}`)

      it('normal answer without it', async () => {
        expect(await probe.run(h, {})).toBe(probe.normal)
      })

      it('switched on for the run (control plane), then off again', async () => {
        expect((await h.control('POST', `/scenarios/${name}`, probe.activation ?? {})).status).toBe(200)
        expect(await probe.run(h, {})).toBe(probe.shaped)
        expect((await h.control('DELETE', `/scenarios/${name}`)).status).toBe(200)
        await h.emu.reset()
        expect(await probe.run(h, {})).toBe(probe.normal)
      })

      it('switched on for one request (x-svc-mock-scenario)', async () => {
        expect(await probe.run(h, { 'x-svc-mock-scenario': headerValue(name, probe.activation) })).toBe(probe.shaped)
        expect(h.emu.scenarios.list().every((s) => !s.active)).toBe(true)
      })
    })
  },
  { clock: 'manual' },
)

describe('scenarios switched on at start-up', () => {
  it.each(NAMES)('%s', async (name) => {
    const probe = PROBES[name]
    if (!probe) throw new Error(`no probe for ${name}`)
    const emu = await createEmulator<string>({ clock: 'manual', scenarios: [{ name, ...probe.activation }] })
    const harness: Harness = {
      kind: 'handle',
      emu,
      origin: emu.urls.base,
      fetch: (path, init) => emu.handle(new Request(path.startsWith('http') ? path : `${emu.urls.base}${path}`, init)),
      control: async (method, path, body) => {
        const response = await emu.handle(new Request(`${emu.urls.base}/__svc-mock${path}`, { method, ...(body === undefined ? {} : { body: JSON.stringify(body) }) }))
        const text = await response.text()
        return { status: response.status, body: (text === '' ? undefined : JSON.parse(text)) as never }
      },
    }
    expect(await probe.run(harness, {})).toBe(probe.shaped)
    await emu.close()
  })
})
