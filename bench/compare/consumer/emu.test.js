// bench/compare.js row 1 (copied 10 times into the scratch consumer): svc-mock through msw, as the
// README shows it: one versions GET and one assertion.
import { setupServer } from 'msw/node'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createEmulator } from 'svc-mock'
import { AUTH, VERSIONS_URL } from '../request.js'

const emu = await createEmulator({ clock: 'manual' })
const server = setupServer(...emu.handlers)

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
afterAll(() => server.close())

it('reads the versions of an element', async () => {
  const res = await fetch(VERSIONS_URL, { headers: { authorization: AUTH } })
  const body = await res.json()
  expect(body.elements.map((e) => e.attributes.version['127'])).toEqual(['1.0', '2.0', '2.1'])
})
