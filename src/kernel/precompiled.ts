/**
 * The build's snapshot of what every start would otherwise compute the same way: the default
 * fixtures parsed, the built-in scenarios validated, the elements the default fixtures generate
 * (`npm run build` writes dist/precompiled.json). It is used only by the bundle it was built with
 * (never by the sources, which tests run), and an entry made from files is used only while those
 * files hold what they held then (same size and content digest; not modification times, which
 * `npm pack` and installs rewrite), so an edited fixture is never served stale.
 */
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { packagePath, packageRoot } from './package-root.js'

export interface PrecompiledEntry {
  /** Files (relative to the package) the value was made from, with their `size:sha1` then. */
  readonly files: Readonly<Record<string, string>>
  readonly value: unknown
}

export type PrecompiledFile = Readonly<Record<string, PrecompiledEntry>>

export const PRECOMPILED_FILE = 'precompiled.json'

let snapshot: PrecompiledFile | null | undefined
/** Files checked against the snapshot in this process, and whether they still matched. */
const checked = new Map<string, boolean>()

/** The value the build stored under `key`, or undefined (no snapshot, not this bundle's, or its files changed). */
export function precompiled(key: string): unknown {
  snapshot ??= read()
  const entry = snapshot?.[key]
  if (!entry) return undefined
  for (const [file, stamp] of Object.entries(entry.files)) if (!unchanged(file, stamp)) return undefined
  return entry.value
}

/** Whether a file holds what it held at build time; read once per process (the package's files do not change under it). */
function unchanged(file: string, stamp: string): boolean {
  let same = checked.get(file)
  if (same === undefined) {
    same = stampOf(packagePath(file)) === stamp
    checked.set(file, same)
  }
  return same
}

/** An entry for the snapshot, made from these files. */
export function entry(value: unknown, files: readonly string[]): PrecompiledEntry {
  return { value, files: Object.fromEntries(files.map((file) => [relative(packageRoot(), file), stampOf(file)])) }
}

function read(): PrecompiledFile | null {
  // Only the bundle carries the snapshot it was built with; the sources compute everything.
  if (!fileURLToPath(import.meta.url).startsWith(packagePath('dist'))) return null
  try {
    return JSON.parse(readFileSync(packagePath('dist', PRECOMPILED_FILE), 'utf8')) as PrecompiledFile
  } catch {
    return null
  }
}

function stampOf(file: string): string {
  try {
    const bytes = readFileSync(file)
    return `${bytes.length}:${createHash('sha1').update(bytes).digest('base64url')}`
  } catch {
    return 'missing'
  }
}
