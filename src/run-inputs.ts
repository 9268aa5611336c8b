/**
 * What a run reads and checks once: its fixture documents (the defaults, then the user's, each
 * validated) and its scenario catalogue (the built-in scenarios, then the user's folders and
 * definitions, each validated). Every emulator of the run is built from them: the standalone
 * server's teams share the run's, so making a team reads no file and validates nothing twice.
 */
import { addBuiltInScenarios, defaultFixtureDocuments } from './defaults.js'
import { FIXTURE_SECTIONS, SETTINGS_SECTIONS } from './domains.js'
import type { EmulatorOptions, FixtureInput } from './emulator-api.js'
import { type FixtureDocument, fixtureDocuments, parseDocument } from './kernel/fixtures.js'
import { ScenarioCatalogue, type ScenarioDefinition } from './kernel/scenarios/catalogue.js'
import { settingsSchemaOf } from './kernel/settings.js'
import { firstProblem, parseNaming } from './kernel/validation.js'

export interface RunInputs {
  /** Every fixture document, validated, in the order they apply (later records replace earlier ones). */
  readonly fixtures: readonly FixtureDocument[]
  /** The scenario catalogue's definitions, validated. */
  readonly scenarios: readonly ScenarioDefinition[]
}

type InputOptions = Pick<EmulatorOptions, 'fixtures' | 'defaultFixtures' | 'scenarioDirs' | 'scenarioDefinitions'>

/** Reads and validates the run's fixtures and scenarios; a bad one throws naming its file, path and rule. */
export function readRunInputs(options: InputOptions): RunInputs {
  const catalogue = new ScenarioCatalogue((tree) => {
    const parsed = parseNaming(settingsSchemaOf(SETTINGS_SECTIONS), tree)
    return parsed.success ? undefined : firstProblem(parsed.error)
  })
  addBuiltInScenarios(catalogue)
  for (const dir of options.scenarioDirs ?? []) catalogue.addDir(dir)
  for (const definition of options.scenarioDefinitions ?? []) catalogue.add(definition)
  const defaults = options.defaultFixtures === false ? [] : defaultFixtureDocuments()
  return { fixtures: [...defaults, ...fixtureDocuments(listOf(options.fixtures))].map(validated), scenarios: catalogue.list() }
}

/**
 * The run's inputs with more fixture documents applied after its own (a team's), validated first:
 * a bad one throws naming it (`label[index]`), the section and the field.
 */
export function withFixtures(run: RunInputs, documents: readonly object[], label: string): RunInputs {
  if (documents.length === 0) return run
  const more = documents.map((data, index) => validated({ file: `${label}[${index}]`, data }))
  return { fixtures: [...run.fixtures, ...more], scenarios: run.scenarios }
}

function validated(document: FixtureDocument): FixtureDocument {
  return parseDocument(document, FIXTURE_SECTIONS)
}

function listOf(fixtures: FixtureInput | FixtureInput[] | undefined): FixtureInput[] {
  return fixtures === undefined ? [] : Array.isArray(fixtures) ? fixtures : [fixtures]
}
