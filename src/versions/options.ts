/**
 * The run options of the versions operation (`createEmulator()` and the command line): what they
 * are, their flags (`--version-list-key`, `--versions-scope`), and their check, once, as they
 * become the domain's base settings (a ConfigError naming the option).
 */
import { oneOf, someText } from '../kernel/checks.js'
import type { Flag } from '../kernel/flags.js'

const LIST_KEYS = ['elements', 'values', 'both'] as const

export interface VersionsOptions {
  /** Name of the version list in answers: `elements` (default), `values`, or `both`. */
  versionListKey?: (typeof LIST_KEYS)[number]
  /** OAuth scope the versions operation needs (default: none beyond a valid credential). */
  versionsScope?: string | null
}

export const VERSIONS_FLAGS: readonly Flag<VersionsOptions>[] = [
  {
    name: 'version-list-key',
    env: 'SVC_MOCK_VERSION_LIST_KEY',
    option: 'versionListKey',
    placeholder: 'K',
    example: 'values',
    help: 'elements, values or both: the name of the version list',
    default: 'elements',
  },
  { name: 'versions-scope', env: 'SVC_MOCK_VERSIONS_SCOPE', option: 'versionsScope', placeholder: 'S', example: 'studio', help: 'OAuth scope the versions operation needs', default: 'none' },
]

/** The `versions` settings the options set, checked. */
export function versionsBaseSettings(options: VersionsOptions): Readonly<Record<string, unknown>> {
  return { listKey: oneOf('versionListKey', options.versionListKey ?? 'elements', LIST_KEYS), requiredScope: options.versionsScope == null ? null : someText('versionsScope', options.versionsScope) }
}
