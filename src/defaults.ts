/**
 * The emulator's built-in defaults: the default fixture documents and the built-in scenarios, read
 * from the package's folders. The build validates both once and keeps them in a snapshot
 * (dist/defaults.json), which a start takes instead of validating them again; this module is the
 * only one that knows it. The snapshot is used only by the build it came from (never by the
 * sources, which tests run), and an entry only while its files hold what they held then (size and
 * content digest: installs rewrite modification times), so an edited fixture is never served stale.
 */
import { createHash } from 'node:crypto'
import { readFileSync, writeFileSync } from 'node:fs'
import { relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { FIXTURE_SECTIONS, SETTINGS_SECTIONS } from './domains.js'
import { type FixtureDocument, fixtureDocuments, parseDocument } from './kernel/fixtures.js'
import { once } from './kernel/once.js'
import { packagePath, packageRoot } from './kernel/package-root.js'
import { type ScenarioDefinition, scenarioCatalogue, scenarioFiles } from './kernel/scenarios/catalogue.js'

export const DEFAULT_FIXTURES_DIR = packagePath('fixtures', 'default')
export const BUILT_IN_SCENARIOS_DIR = packagePath('scenarios')
const SNAPSHOT_FILE = 'defaults.json'

interface SnapshotEntry<T> {
  /** Files (relative to the package) the value was made from, with their `size:sha1` then. */
  readonly files: Readonly<Record<string, string>>
  readonly value: T
}

interface Snapshot {
  readonly fixtures: SnapshotEntry<FixtureDocument[]>
  readonly scenarios: SnapshotEntry<ScenarioDefinition[]>
}

/** The default fixture documents, validated (file names as the package has them). */
export function defaultFixtureDocuments(): FixtureDocument[] {
  const kept = fresh(snapshot()?.fixtures)
  return kept ? kept.map((d) => ({ ...d, file: packagePath(d.file) })) : fixtureDocuments([DEFAULT_FIXTURES_DIR])
}

/** The built-in scenarios, validated: read on the first call of the process (a run that switches none on reads none). */
export const builtInScenarios: () => readonly ScenarioDefinition[] = once(() => {
  const kept = fresh(snapshot()?.scenarios)
  if (kept) return kept.map((d) => ({ ...d, source: packagePath(d.source) }))
  const catalogue = scenarioCatalogue(SETTINGS_SECTIONS)
  catalogue.addDir(BUILT_IN_SCENARIOS_DIR)
  return catalogue.list()
})

/** Validates the defaults and writes the snapshot beside the build (`npm run build` does this). */
export function writeDefaultsSnapshot(): string {
  const files = fixtureDocuments([DEFAULT_FIXTURES_DIR])
  const documents = files.map((d) => ({ ...parseDocument(d, FIXTURE_SECTIONS), file: relative(packageRoot(), d.file) }))
  const catalogue = scenarioCatalogue(SETTINGS_SECTIONS)
  catalogue.addDir(BUILT_IN_SCENARIOS_DIR)
  const definitions = catalogue.list().map((d) => ({ ...d, source: relative(packageRoot(), d.source) }))
  const written: Snapshot = {
    fixtures: entry(documents, files.map((d) => d.file)),
    scenarios: entry(definitions, scenarioFiles(BUILT_IN_SCENARIOS_DIR)),
  }
  const path = packagePath('dist', SNAPSHOT_FILE)
  writeFileSync(path, JSON.stringify(written))
  return path
}

let read: Snapshot | null | undefined

function snapshot(): Snapshot | null {
  if (read !== undefined) return read
  read = null
  // Only the build carries the snapshot it was made with; the sources validate everything.
  if (!fileURLToPath(import.meta.url).startsWith(packagePath('dist'))) return read
  try {
    read = JSON.parse(readFileSync(packagePath('dist', SNAPSHOT_FILE), 'utf8')) as Snapshot
  } catch {
    // No snapshot: validate the files.
  }
  return read
}

/** The entry's value while every file it was made from is unchanged. */
function fresh<T>(kept: SnapshotEntry<T> | undefined): T | undefined {
  if (!kept) return undefined
  for (const [file, stamp] of Object.entries(kept.files)) if (stampOf(packagePath(file)) !== stamp) return undefined
  return kept.value
}

function entry<T>(value: T, files: readonly string[]): SnapshotEntry<T> {
  return { value, files: Object.fromEntries(files.map((file) => [relative(packageRoot(), file), stampOf(file)])) }
}

function stampOf(file: string): string {
  try {
    const bytes = readFileSync(file)
    return `${bytes.length}:${createHash('sha1').update(bytes).digest('base64url')}`
  } catch {
    return 'missing'
  }
}
