// Run by .ci/run in a scratch project that installed the packed tarball without msw, on Node.js 20.
import { expect, it } from 'vitest'
import { createEmulator, MswMissingError } from 'svc-mock'
import { startServer } from 'svc-mock/server'

it('imports and creates an emulator without msw; emu.handle() answers', async () => {
  const emu = await createEmulator()
  const response = await emu.handle(
    new Request('https://acme.svc-mock.test/oauth2/token', {
      method: 'POST',
      headers: { authorization: `Basic ${btoa('ci-client:ci-secret')}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials',
    }),
  )
  expect(response.status).toBe(200)
  expect(((await response.json()) as { token_type: string }).token_type).toBe('Bearer')
  await emu.close()
})

it('says what to install when the msw handlers are asked for', async () => {
  const emu = await createEmulator()
  expect(() => emu.handlers).toThrow(MswMissingError)
  expect(() => emu.handlers).toThrow(/npm install --save-dev msw/)
  await emu.close()
})

it('serves over a socket', async () => {
  const server = await startServer({ port: 0 })
  const response = await fetch(`${server.url}/__svc-mock/openapi.json`)
  expect(response.status).toBe(200)
  expect(((await response.json()) as { openapi: string }).openapi).toBe('3.1.0')
  await server.close()
})
