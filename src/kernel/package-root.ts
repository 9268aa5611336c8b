/**
 * Where svc-mock's own files are (fixtures/, scenarios/, dashboard/, package.json): the nearest
 * folder above this module that holds svc-mock's package.json. Found by walking up, so it is the
 * same whether the code runs from src/ (tests), dist/ (bundled) or anywhere a bundler put it.
 */
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

let root: string | undefined

export function packageRoot(): string {
  if (root !== undefined) return root
  let dir = dirname(fileURLToPath(import.meta.url))
  for (;;) {
    const manifest = join(dir, 'package.json')
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === 'svc-mock') return (root = dir)
    const parent = dirname(dir)
    if (parent === dir) throw new Error(`svc-mock cannot find its own package.json above ${fileURLToPath(import.meta.url)}`)
    dir = parent
  }
}

/** A path inside the package. */
export function packagePath(...parts: string[]): string {
  return join(packageRoot(), ...parts)
}
