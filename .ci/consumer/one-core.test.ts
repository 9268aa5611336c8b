// One svc-mock per test file, whichever entry points it imports, and made of this realm's classes,
// as a consumer who installed the packed tarball gets it (.ci/run).
import { createEmulator, SvcMockError, UnknownScenarioError } from 'svc-mock'
import { EmulatorHandler, MswMissingError as MswMissingFromMsw } from 'svc-mock/msw'
import { MswMissingError, PortInUseError } from 'svc-mock'
import { PortInUseError as PortInUseFromServer } from 'svc-mock/server'
import { expect, it } from 'vitest'

it('hands out one class per error and one msw handler class, whichever entry point they come from', async () => {
  expect(MswMissingFromMsw).toBe(MswMissingError)
  expect(PortInUseFromServer).toBe(PortInUseError)
  const emu = await createEmulator({ clock: 'manual' })
  expect(emu.handlers.length).toBeGreaterThan(0)
  for (const handler of emu.handlers) expect(handler).toBeInstanceOf(EmulatorHandler)
})

it('throws errors of this realm', async () => {
  // Any name (a misspelt one is otherwise a type error): the throw is what is tested.
  const emu = await createEmulator<string>({ clock: 'manual' })
  let thrown: unknown
  try {
    emu.scenarios.use('no-such-scenario')
  } catch (error) {
    thrown = error
  }
  expect(thrown).toBeInstanceOf(UnknownScenarioError)
  expect(thrown).toBeInstanceOf(SvcMockError)
  expect(thrown).toBeInstanceOf(Error)
  const res = await emu.handle(new Request(`${emu.urls.base}/__svc-mock/health`))
  expect(res).toBeInstanceOf(Response)
})
