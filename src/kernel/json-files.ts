/**
 * JSON documents named by a path, as fixtures and route files are given: the file itself, or a
 * folder's `*.json` files in name order. Each problem (a path that does not exist, a file that
 * cannot be read, text that is not JSON) is the error the caller's `refuse` makes, naming the file.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'

export interface JsonFile {
  /** The file's absolute path. */
  readonly file: string
  /** The folder it is in. */
  readonly dir: string
  readonly data: unknown
}

export function readJsonPath(input: string, refuse: (file: string, rule: string) => Error): JsonFile[] {
  const path = resolve(input)
  let isDir: boolean
  try {
    isDir = statSync(path).isDirectory()
  } catch {
    throw refuse(input, 'does not exist')
  }
  if (!isDir) return [{ file: path, dir: dirname(path), data: readJson(path, refuse) }]
  return readdirSync(path)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => ({ file: join(path, name), dir: path, data: readJson(join(path, name), refuse) }))
}

function readJson(file: string, refuse: (file: string, rule: string) => Error): unknown {
  let raw: string
  try {
    raw = readFileSync(file, 'utf8')
  } catch {
    throw refuse(file, 'cannot be read')
  }
  try {
    return JSON.parse(raw)
  } catch (error) {
    throw refuse(file, `is not valid JSON (${error instanceof Error ? error.message : String(error)})`)
  }
}
