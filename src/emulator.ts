/**
 * The composition root: an emulator is the kernel, the domains of src/domains.ts over the run's
 * inputs (fixtures and scenarios, src/run-inputs.ts) and options, and the control plane that
 * steers them. It only assembles; the adapters add the transports (msw handlers, `emu.handle()`,
 * the node:http server) and, on a server, the teams the control plane can make.
 */
import { CONTROL_PREFIX, type TeamHost, defineControlDomain } from './control/index.js'
import { DOMAINS, SETTINGS_SECTIONS } from './domains.js'
import type { EmulatorCore, EmulatorOptions, EmulatorState, EmulatorUrls, ScenarioTargets } from './emulator-api.js'
import type { DomainApis } from './domains.js'
import { resolveOptions } from './emulator-options.js'
import { Kernel } from './kernel/kernel.js'
import { type RunInputs, readRunInputs } from './run-inputs.js'
import { VERSION } from './version.js'

export { DEFAULT_ORIGIN } from './emulator-options.js'
export { BUILT_IN_SCENARIOS_DIR, DEFAULT_FIXTURES_DIR } from './defaults.js'
export { VERSION }

/** What the adapter that hosts an emulator may hand it beside the options. */
export interface EmulatorHost {
  /** The run's fixtures and scenarios, read and checked already (default: read from the options). */
  readonly run?: RunInputs
  /** The server's teams, which the control plane lists, makes and closes (none in-process). */
  readonly teams?: TeamHost
}

/** Builds an emulator without any transport (the adapters add theirs). */
export async function buildEmulator(options: EmulatorOptions = {}, host: EmulatorHost = {}): Promise<EmulatorCore> {
  const { urls, seed, idSeed, clock, logger, journalSize } = resolveOptions(options)
  const run = host.run ?? readRunInputs(options)
  const product = { name: 'svc-mock', version: VERSION }
  const kernel = new Kernel<EmulatorOptions, EmulatorUrls>({ urls, seed, idSeed, clock, logger, journalSize, product, domains: DOMAINS, settings: SETTINGS_SECTIONS, routeList: `GET ${urls.base}${CONTROL_PREFIX}/routes` })
  kernel.catalogue.addValidated(run.scenarios)
  await kernel.start({ options, settings: options.settings ?? {}, fixtures: run.fixtures, scenarios: options.scenarios ?? [] })
  const emulator: EmulatorCore = Object.assign(kernel.api<EmulatorState, ScenarioTargets, DomainApis>(), {
    // The generator (and zod's JSON Schema conversion) and the routes' documentation load only when a document is asked for.
    openapi: async () => (await import('./openapi.js')).openApiDocument({ ...(await kernel.documented()), urls, version: VERSION }),
  })
  kernel.route([defineControlDomain({ emulator, targetNames: kernel.targetNames, parts: kernel.controlParts, ...(host.teams ? { teams: host.teams } : {}) })])
  return emulator
}
