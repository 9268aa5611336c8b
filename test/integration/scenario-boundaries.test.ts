/**
 * Per-test scenarios, in-process: every scenario of the catalogue switched on inside
 * `emu.scenarios.boundary()` shapes that test's requests, while a test running at the same time
 * outside it gets the normal answers.
 */
import { setupServer } from 'msw/node'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createEmulator } from '../../src/index.js'
import type { Harness } from '../support/harness.js'
import { PROBES } from '../support/scenario-probes.js'

describe('scenarios switched on for one test (boundary)', async () => {
  const emu = await createEmulator<string>({ clock: 'manual' }) // names from a table: any name
  const server = setupServer(...emu.handlers)
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
  afterEach(() => emu.reset())
  afterAll(() => server.close())
  const h: Harness = {
    kind: 'in-process',
    emu,
    origin: emu.urls.base,
    fetch: (path, init) => fetch(path.startsWith('http') ? path : `${emu.urls.base}${path}`, init),
    control: async (method, path, body) => {
      const response = await fetch(`${emu.urls.base}/__svc-mock${path}`, { method, ...(body === undefined ? {} : { body: JSON.stringify(body) }) })
      const text = await response.text()
      return { status: response.status, body: (text === '' ? undefined : JSON.parse(text)) as never }
    },
  }

  it.each(Object.keys(PROBES).sort())('%s', async (name) => {
    const probe = PROBES[name]
    if (!probe) throw new Error(`no probe for ${name}`)
    const inside = emu.scenarios.boundary(async () => {
      emu.scenarios.use(name, probe.activation)
      return await probe.run(h, {})
    })
    const outside = async (): Promise<string> => await probe.run(h, {})
    const [shaped, normal] = probe.shared ? [await inside(), await outside()] : await Promise.all([inside(), outside()])
    expect(shaped).toBe(probe.shaped)
    expect(normal).toBe(probe.normal)
    expect(emu.scenarios.list().every((s) => !s.active)).toBe(true)
  })
})
