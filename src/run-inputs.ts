/**
 * What a run reads and checks once: its fixture documents (the defaults, then the user's, each
 * validated) and its own scenarios (the user's folders and definitions, each validated; the
 * built-in ones come from defaults.ts when the catalogue is first read). Every emulator of the run is built from them: the standalone
 * server's teams share the run's, so making a team reads no file and validates nothing twice.
 * Beside them, the flags of the run's inputs: fixtures, scenario files, scenarios on at start.
 */
import { defaultFixtureDocuments } from './defaults.js'
import { FIXTURE_SECTIONS, SETTINGS_SECTIONS } from './domains.js'
import type { EmulatorOptions, FixtureInput } from './emulator-api.js'
import { type FixtureDocument, fixtureDocuments, parseDocument } from './kernel/fixtures.js'
import type { Flag } from './kernel/flags.js'
import { type ScenarioDefinition, scenarioCatalogue } from './kernel/scenarios/catalogue.js'

export interface RunInputs {
  /** Every fixture document, validated, in the order they apply (later records replace earlier ones). */
  readonly fixtures: readonly FixtureDocument[]
  /** The run's own scenario definitions, validated (the built-in ones are read when first used: defaults.ts). */
  readonly scenarios: readonly ScenarioDefinition[]
}

type InputOptions = Pick<EmulatorOptions, 'fixtures' | 'defaultFixtures' | 'scenarioDirs' | 'scenarioDefinitions'>

/** Reads and validates the run's fixtures and scenarios; a bad one throws naming its file, path and rule. */
export function readRunInputs(options: InputOptions): RunInputs {
  const catalogue = scenarioCatalogue(SETTINGS_SECTIONS)
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

/** The flags of the run's inputs. */
export const INPUT_FLAGS: readonly Flag<EmulatorOptions>[] = [
  {
    name: 'fixtures',
    env: 'SVC_MOCK_FIXTURES',
    option: 'fixtures',
    kind: 'list',
    split: ':',
    placeholder: 'PATH',
    example: 'fixtures/',
    help: 'fixture file or folder, on top of the defaults; repeatable',
  },
  { name: 'no-default-fixtures', env: 'SVC_MOCK_DEFAULT_FIXTURES', option: 'defaultFixtures', kind: 'switch', sets: false, help: 'start from your fixtures only' },
  {
    name: 'scenario',
    env: 'SVC_MOCK_SCENARIOS',
    option: 'scenarios',
    kind: 'list',
    envHelp: 'comma-separated',
    placeholder: 'SPEC',
    example: 'latency:ms=2000',
    help: 'switch a scenario on for the run; repeatable. SPEC is\nname[:key=value,...], e.g. latency:ms=2000 or latency:ms=500,times=3',
  },
  { name: 'scenarios', env: 'SVC_MOCK_SCENARIO_DIRS', option: 'scenarioDirs', kind: 'list', split: ':', placeholder: 'DIR', example: 'scenarios/', help: 'add your own scenario files (*.json); repeatable' },
]
