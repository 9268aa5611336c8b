// Run by .ci/run in a scratch project that installed the packed tarball with msw 3 on Node.js 22:
// what a consumer gets. Also type-checked there (tsc) against msw 3's types.
import { setupServer } from 'msw/node'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createEmulator, type WebhookInput } from 'svc-mock'
import { mswMajor, unhandled } from 'svc-mock/msw'

const VERSIONS = '/acme-collection/acme-tenant/_api/rest/facets/processes/views/default/elements/0f8fad5b-d9cb-469f-a165-70867728950e/versions'
const emu = await createEmulator({ clock: 'manual' })
const server = setupServer(...emu.handlers)
beforeAll(() => server.listen({ onUnhandledFrame: 'error' })) // msw 3's name for it
afterAll(() => server.close())

it('is msw 3', () => {
  expect(mswMajor()).toBe(3)
  expect(unhandled('error')).toEqual({ onUnhandledFrame: 'error' })
})

it('answers through msw', async () => {
  const response = await fetch(`${emu.urls.base}${VERSIONS}`, { headers: { authorization: 'AppKey svcmock-app-key' } })
  expect(response.status).toBe(200)
  expect(((await response.json()) as { count: number }).count).toBe(3)
})

it('answers through emu.handle()', async () => {
  const response = await emu.handle(new Request(`${emu.urls.base}/__svc-mock/health`))
  expect(await response.json()).toMatchObject({ status: 'ok' })
})

it('fails a stray request', async () => {
  await expect(fetch('https://acme.svc-mock.tset/oauth2/token', { method: 'POST' })).rejects.toThrow()
})

it('takes typed inputs', async () => {
  const input: WebhookInput = { name: 'invoices', flow: { response: { status: 201, body: { ok: true } } } }
  const created = await emu.webhooks.create(input)
  const response = await fetch(created.url, { method: 'POST', body: 'x' })
  expect(response.status).toBe(201)
})
