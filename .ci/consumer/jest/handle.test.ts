import { expect, it } from '@jest/globals'
import { createEmulator } from 'svc-mock'

const emu = await createEmulator()

it('answers a Request with emu.handle(), no msw and no socket', async () => {
  const res = await emu.handle(new Request(`${emu.urls.auth}/oauth2/token`, {
    method: 'POST',
    headers: { authorization: `Basic ${btoa('ci-client:ci-secret')}`, 'content-type': 'application/x-www-form-urlencoded' },
    body: 'grant_type=client_credentials',
  }))
  expect(res.status).toBe(200)
  const token = (await res.json()) as { token_type: string; expires_in: number }
  expect(token.token_type).toBe('Bearer')
  expect(token.expires_in).toBe(899)
})
