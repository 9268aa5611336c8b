/**
 * The composition root: an emulator is the kernel, the domains of src/domains.ts over the built-in
 * defaults and the run's options, and the control plane that steers them. It only assembles; the
 * adapters add the transports (msw handlers, `emu.handle()`, the node:http server).
 */
import { CONTROL_PREFIX, defineControlDomain } from './control/index.js'
import { addBuiltInScenarios, defaultFixtureDocuments } from './defaults.js'
import { DOMAINS, SETTINGS_SECTIONS } from './domains.js'
import type { EmulatorCore, EmulatorOptions, EmulatorState, ScenarioTargets } from './emulator-api.js'
import type { DomainApis } from './domains.js'
import { resolveOptions } from './emulator-options.js'
import { fixtureDocuments } from './kernel/fixtures.js'
import { Kernel } from './kernel/kernel.js'
import { VERSION } from './version.js'

export { DEFAULT_ORIGIN } from './emulator-options.js'
export { BUILT_IN_SCENARIOS_DIR, DEFAULT_FIXTURES_DIR } from './defaults.js'
export { VERSION }

/** Builds an emulator without any transport (the adapters add theirs). */
export async function buildEmulator(options: EmulatorOptions = {}): Promise<EmulatorCore> {
  const { urls, seed, clock, logger, journalSize } = resolveOptions(options)
  const product = { name: 'svc-mock', version: VERSION }
  const kernel = new Kernel({ urls, seed, clock, logger, journalSize, product, domains: DOMAINS, settings: SETTINGS_SECTIONS, routeList: `GET ${urls.base}${CONTROL_PREFIX}/routes` })
  addBuiltInScenarios(kernel.catalogue)
  const inputs = options.fixtures === undefined ? [] : Array.isArray(options.fixtures) ? options.fixtures : [options.fixtures]
  await kernel.start({
    options,
    settings: options.settings ?? {},
    fixtures: [...(options.defaultFixtures === false ? [] : defaultFixtureDocuments()), ...fixtureDocuments(inputs)],
    scenarioDirs: options.scenarioDirs ?? [],
    scenarioDefinitions: options.scenarioDefinitions ?? [],
    scenarios: options.scenarios ?? [],
  })
  const emulator: EmulatorCore = Object.assign(kernel.api<EmulatorState, ScenarioTargets, DomainApis>(), {
    // The generator (and zod's JSON Schema conversion) and the routes' documentation load only when a document is asked for.
    openapi: async () => (await import('./openapi.js')).openApiDocument({ ...(await kernel.documented()), urls, version: VERSION }),
  })
  kernel.route([defineControlDomain({ emulator, targetNames: kernel.targetNames })])
  return emulator
}
