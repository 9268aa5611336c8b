/**
 * The snapshot the build writes (dist/precompiled.json): the default fixtures parsed, the built-in
 * scenarios validated, and what each domain computes from the default fixtures (the generated
 * elements), so that starting an emulator with the defaults validates and generates nothing. The
 * build checks nothing here that a start would not: the same code makes both.
 */
import { writeFileSync } from 'node:fs'
import { relative } from 'node:path'
import { BUILT_IN_KEY, BUILT_IN_SCENARIOS_DIR, DEFAULTS_KEY, DEFAULT_FIXTURES_DIR } from './defaults.js'
import { DEFAULT_SECTIONS_KEY, DEFAULT_SETTINGS_KEY, FIXTURE_SECTIONS, buildEmulator, parsedSectionsText, settingsSchema } from './emulator.js'
import { fixtureDocuments, parseDocument } from './kernel/fixtures.js'
import { packagePath, packageRoot } from './kernel/package-root.js'
import { PRECOMPILED_FILE, type PrecompiledFile, entry } from './kernel/precompiled.js'
import { ScenarioCatalogue, scenarioFiles } from './kernel/scenarios/catalogue.js'
import { allProblems } from './kernel/validation.js'

export async function precompileDefaults(): Promise<PrecompiledFile> {
  const files = fixtureDocuments([DEFAULT_FIXTURES_DIR])
  const documents = files.map((d) => ({ ...parseDocument(d, FIXTURE_SECTIONS), file: relative(packageRoot(), d.file) }))
  const catalogue = new ScenarioCatalogue((tree) => {
    const parsed = settingsSchema().safeParse(tree)
    return parsed.success ? undefined : allProblems(parsed.error)[0]
  })
  catalogue.addDir(BUILT_IN_SCENARIOS_DIR)
  const definitions = catalogue.list().map((d) => ({ ...d, source: relative(packageRoot(), d.source) }))
  let computed: Record<string, unknown> = {}
  let settings = ''
  const emulator = await buildEmulator(
    { clock: 'manual' },
    {
      loaded: async (domains, fixtures) => {
        for (const domain of domains) computed = { ...computed, ...(await domain.precompile?.(fixtures)) }
      },
      validSettings: (treeText) => {
        settings = treeText
      },
    },
  )
  await emulator.close()
  return {
    [DEFAULTS_KEY]: entry(documents, files.map((d) => d.file)),
    [BUILT_IN_KEY]: entry(definitions, scenarioFiles(BUILT_IN_SCENARIOS_DIR)),
    // Made by the code alone (the domains' defaults), which is this bundle's: no file to watch.
    [DEFAULT_SETTINGS_KEY]: entry(settings, []),
    [DEFAULT_SECTIONS_KEY]: entry(parsedSectionsText(settings), []),
    // What the domains computed depends on the default fixtures: it is stale as soon as they change.
    ...Object.fromEntries(Object.entries(computed).map(([key, value]) => [key, entry(value, files.map((d) => d.file))])),
  }
}

/** Writes the snapshot beside the bundle (`npm run build` does this). */
export async function writePrecompiled(): Promise<string> {
  const path = packagePath('dist', PRECOMPILED_FILE)
  writeFileSync(path, JSON.stringify(await precompileDefaults()))
  return path
}
