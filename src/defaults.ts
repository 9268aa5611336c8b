/**
 * The emulator's built-in defaults: the default fixtures and the built-in scenarios, read from
 * the package's folders, or from the build's snapshot when it has them (parsed and validated
 * already; see src/precompile.ts).
 */
import { type FixtureDocument, fixtureDocuments } from './kernel/fixtures.js'
import { packagePath } from './kernel/package-root.js'
import { precompiled } from './kernel/precompiled.js'
import type { ScenarioCatalogue, ScenarioDefinition } from './kernel/scenarios/catalogue.js'

export const DEFAULT_FIXTURES_DIR = packagePath('fixtures', 'default')
export const BUILT_IN_SCENARIOS_DIR = packagePath('scenarios')

export const DEFAULTS_KEY = 'fixtures:default'
export const BUILT_IN_KEY = 'scenarios:built-in'

/** The default fixture documents (file names are stored relative to the package). */
export function defaultDocuments(dir: string): FixtureDocument[] {
  const snapshot = precompiled(DEFAULTS_KEY) as FixtureDocument[] | undefined
  return snapshot ? snapshot.map((d) => ({ ...d, file: packagePath(d.file) })) : fixtureDocuments([dir])
}

export function addBuiltInScenarios(catalogue: ScenarioCatalogue): void {
  const snapshot = precompiled(BUILT_IN_KEY) as ScenarioDefinition[] | undefined
  if (snapshot) catalogue.addValidated(snapshot.map((d) => ({ ...d, source: packagePath(d.source) })))
  else catalogue.addDir(BUILT_IN_SCENARIOS_DIR)
}
