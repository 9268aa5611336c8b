/**
 * svc-mock with msw 2 and msw 3: the installed major is detected, `unhandled()` passes the option
 * it reads (`onUnhandledRequest` in msw 2, `onUnhandledFrame` in msw 3), and a stray request (another
 * origin) fails the way the strategy says. `.ci/run` runs this file under both majors.
 */
import { createRequire } from 'node:module'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EmulatorHandler, mswMajor, setupEmulatorServer, unhandled } from '../../src/adapters/msw.js'
import { unhandledListenOption } from '../../src/adapters/msw-compat.js'
import { createEmulator, MswMissingError } from '../../src/index.js'
import { APP_KEY, VERSIONS } from '../support/harness.js'

const installed = Number((createRequire(import.meta.url)('msw/package.json') as { version: string }).version.split('.')[0])

describe(`msw ${installed}`, async () => {
  const emu = await createEmulator()
  const server = setupEmulatorServer(emu)
  beforeAll(() => server.listen(unhandled('error')))
  afterAll(() => server.close())

  it('is detected as the installed major', () => {
    expect(mswMajor()).toBe(installed)
  })

  it("extends the main entry's RequestHandler, and turns a network fault into msw's network error", async () => {
    // Under msw 2 the class is taken from an msw/core/http handler (the main entry loads GraphQL).
    const { RequestHandler } = await import('msw')
    expect(Object.getPrototypeOf(EmulatorHandler)).toBe(RequestHandler)
    for (const handler of emu.handlers) expect(handler).toBeInstanceOf(RequestHandler)
    emu.scenarios.use('network-error', { times: 1 })
    await expect(fetch(`${emu.urls.base}${VERSIONS()}`, { headers: APP_KEY })).rejects.toThrow(TypeError)
    expect((await fetch(`${emu.urls.base}${VERSIONS()}`, { headers: APP_KEY })).status).toBe(200)
  })

  it('serves the emulator through msw', async () => {
    expect((await fetch(`${emu.urls.base}${VERSIONS()}`, { headers: APP_KEY })).status).toBe(200)
  })

  it("fails a stray request to another origin with unhandled('error')", async () => {
    await expect(fetch('https://acme.svc-mock.tset/oauth2/token', { method: 'POST' })).rejects.toThrow()
  })

  it('answers a typo in a path on its own origin with 404 naming the closest route', async () => {
    const response = await fetch(`${emu.urls.base}/oauth2/tokn`, { method: 'POST' })
    expect(response.status).toBe(404)
    expect(((await response.json()) as { closest: string }).closest).toContain('/oauth2/token')
  })
})

describe('the listen option for each major', () => {
  it('is onUnhandledRequest for msw 2 and onUnhandledFrame for msw 3', () => {
    expect(unhandledListenOption('error', 2)).toEqual({ onUnhandledRequest: 'error' })
    expect(unhandledListenOption('warn', 3)).toEqual({ onUnhandledFrame: 'warn' })
  })

  it("gives a callback the request of an HTTP frame under msw 3, with msw's printers", () => {
    const seen: string[] = []
    const option = unhandledListenOption((request, print) => {
      seen.push(request.url)
      if (request.url.endsWith('/bad')) print.error()
      else print.warning()
    }, 3) as { onUnhandledFrame: (args: { frame: { data?: { request?: unknown } }; defaults: { warn(): void; error(): void } }) => void }
    const printed: string[] = []
    const defaults = { warn: () => printed.push('warn'), error: () => printed.push('error') }
    option.onUnhandledFrame({ frame: { data: { request: new Request('https://a.test/ok') } }, defaults })
    option.onUnhandledFrame({ frame: { data: { request: new Request('https://a.test/bad') } }, defaults })
    option.onUnhandledFrame({ frame: { data: {} }, defaults }) // a WebSocket frame: msw's default
    expect(seen).toEqual(['https://a.test/ok', 'https://a.test/bad'])
    expect(printed).toEqual(['warn', 'error'])
  })

  it('MswMissingError says how to install msw or do without it', () => {
    expect(new MswMissingError().message).toMatch(/npm install --save-dev msw.*emu\.handle\(request\)/)
  })
})
