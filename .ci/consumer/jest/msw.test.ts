import { afterAll, afterEach, beforeAll, expect, it } from '@jest/globals'
import { setupServer } from 'msw/node'
import { createEmulator } from 'svc-mock'
import { unhandled } from 'svc-mock/msw'

/** The part of the versions answer these tests read. */
type Versions = { elements: Array<{ attributes: { version: Record<string, string> } }> }

const VERSIONS = '/acme-collection/acme-tenant/_api/rest/facets/processes/views/default/elements/0f8fad5b-d9cb-469f-a165-70867728950e/versions'

const emu = await createEmulator({ clock: 'manual' })
const server = setupServer(...emu.handlers)

beforeAll(() => server.listen(unhandled('error'))) // onUnhandledRequest (msw 2) or onUnhandledFrame (msw 3)
afterEach(() => emu.reset())
afterAll(() => server.close())

it('reads the versions of an element through msw', async () => {
  const res = await fetch(`${emu.urls.base}${VERSIONS}`, { headers: { authorization: 'AppKey svcmock-app-key' } })
  const body = (await res.json()) as Versions
  expect(body.elements.map((e) => e.attributes.version['127'])).toEqual(['1.0', '2.0', '2.1'])
})

it('answers as a scenario says, and names it', async () => {
  emu.scenarios.use('versions-not-found')
  const res = await fetch(`${emu.urls.base}${VERSIONS}`, { headers: { authorization: 'AppKey svcmock-app-key' } })
  expect(res.status).toBe(404)
  expect(res.headers.get('x-svc-mock-scenario')).toBe('versions-not-found')
})

it('fails a request to an origin nothing serves', async () => {
  await expect(fetch('https://acme.svc-mock.tset/oauth2/token', { method: 'POST' })).rejects.toThrow()
})
