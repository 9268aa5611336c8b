/** The package version, read once from package.json (kept light: the CLI's --version needs only this). */
import { readFileSync } from 'node:fs'
import { packagePath } from './kernel/package-root.js'

export const VERSION: string = (JSON.parse(readFileSync(packagePath('package.json'), 'utf8')) as { version: string }).version
