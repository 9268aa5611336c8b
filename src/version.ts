/** The package version and homepage, read once from package.json (kept light: the CLI's --version needs only this). */
import { readFileSync } from 'node:fs'
import { packagePath } from './kernel/package-root.js'

const manifest = JSON.parse(readFileSync(packagePath('package.json'), 'utf8')) as { version: string; homepage?: string }

export const VERSION: string = manifest.version

/** Where the documentation lives online. */
export const HOMEPAGE: string = manifest.homepage ?? ''
