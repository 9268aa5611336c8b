// bench/compare.js row 1 (copied 10 times into the scratch consumer): a hand-written msw handler
// answering the same bytes as svc-mock (answer.js holds the emulator's own answer), same request,
// same assertion.
import { http, HttpResponse } from 'msw'
import { setupServer } from 'msw/node'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { BODY, HEADERS, STATUS } from '../answer.js'
import { AUTH, VERSIONS_URL } from '../request.js'

const server = setupServer(http.get(VERSIONS_URL, () => new HttpResponse(BODY, { status: STATUS, headers: HEADERS })))

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
afterAll(() => server.close())

it('reads the versions of an element', async () => {
  const res = await fetch(VERSIONS_URL, { headers: { authorization: AUTH } })
  const body = await res.json()
  expect(body.elements.map((e) => e.attributes.version['127'])).toEqual(['1.0', '2.0', '2.1'])
})
