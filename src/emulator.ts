/**
 * The composition root: an emulator is a kernel made of the domains of src/domains.ts and, last,
 * the control plane that steers them, over the run's inputs (fixtures and scenarios,
 * src/run-inputs.ts) and options. It only assembles; the adapters add the transports (msw
 * handlers, `emu.handle()`, the node:http server) and, on a server, the teams the control plane
 * can make.
 */
import { CONTROL_PREFIX, controlDomain } from './control/index.js'
import { builtInScenarios } from './defaults.js'
import { DOMAINS, type DomainApis, SETTINGS_SECTIONS } from './domains.js'
import type { EmulatorCore, EmulatorOptions, EmulatorState, EmulatorUrls, ScenarioTargets } from './emulator-api.js'
import { resolveOptions } from './emulator-options.js'
import { createKernel } from './kernel/kernel.js'
import type { SavedStateDocument } from './kernel/saved.js'
import { type RunInputs, readRunInputs } from './run-inputs.js'
import type { ControlledTeams } from './teams/index.js'
import { VERSION } from './version.js'

export { DEFAULT_ORIGIN } from './emulator-options.js'
export { BUILT_IN_SCENARIOS_DIR, DEFAULT_FIXTURES_DIR } from './defaults.js'
export { VERSION }

/** What the adapter that hosts an emulator may hand it beside the options. */
export interface EmulatorHost {
  /** The run's fixtures and scenarios, read and checked already (default: read from the options). */
  readonly run?: RunInputs
  /** The server's teams, which the control plane lists, makes, closes, saves and loads (none in-process). */
  readonly teams?: ControlledTeams
}

/** Builds an emulator without any transport (the adapters add theirs). */
export async function buildEmulator(options: EmulatorOptions = {}, host: EmulatorHost = {}): Promise<EmulatorCore> {
  const { urls, seed, idSeed, clock, logger, journalSize, state } = resolveOptions(options)
  const run = host.run ?? readRunInputs(options)
  return await createKernel<EmulatorOptions, EmulatorUrls, EmulatorState, ScenarioTargets, DomainApis>({
    urls, seed, idSeed, clock, logger, journalSize,
    product: { name: 'svc-mock', version: VERSION },
    domains: [...DOMAINS, controlDomain(host.teams)],
    settingsSections: SETTINGS_SECTIONS,
    options, settings: options.settings ?? {}, fixtures: run.fixtures, scenarios: run.scenarios, scenarioLibrary: builtInScenarios, startup: options.scenarios ?? [],
    routeList: `GET ${urls.base}${CONTROL_PREFIX}/routes`,
    ...(state === undefined ? {} : { state: state as SavedStateDocument }),
    // The generator (and zod's JSON Schema conversion) and the routes' documentation load only when a document is asked for.
    document: async (documented) => (await import('./openapi.js')).openApiDocument({ ...documented, urls, version: VERSION }),
  })
}
