// Run by .ci/run in the msw 3 consumer: svc-mock/vitest wires msw 3 (onUnhandledFrame).
import { expect, it } from 'vitest'
import { useEmulator } from 'svc-mock/vitest'

const emu = await useEmulator()

it('serves the emulator through msw 3', async () => {
  expect((await fetch(`${emu.urls.base}/__svc-mock/health`)).status).toBe(200)
})
