/**
 * Where route documents come from: a route file, a folder of them (its `*.json` files in name
 * order; a recording's body files beside them are not route files), a document given in code, or
 * the body of `POST /__svc-mock/routes`. A file's folder is where its `bodyFile`s must live.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { RouteFileError } from './errors.js'
import type { RoutesDocumentInput } from './schema.js'

/** A route file or folder (a path), or a route document. */
export type RoutesInput = string | RoutesDocumentInput

/** One route document, with where it came from. */
export interface RoutesSource {
  /** The file, or `inline routes #N`. */
  readonly name: string
  /** The folder `bodyFile`s are read from; undefined for a document with no file. */
  readonly dir: string | undefined
  readonly data: unknown
}

/** Expands paths into their files and reads them; documents stay as they are. */
export function routeSources(inputs: readonly RoutesInput[], inlineStart = 0): RoutesSource[] {
  const out: RoutesSource[] = []
  let inline = inlineStart
  for (const input of inputs) {
    if (typeof input !== 'string') {
      out.push({ name: `inline routes #${++inline}`, dir: undefined, data: input })
      continue
    }
    const path = resolve(input)
    let isDir: boolean
    try {
      isDir = statSync(path).isDirectory()
    } catch {
      throw new RouteFileError(input, '', '', 'does not exist')
    }
    if (!isDir) {
      out.push({ name: path, dir: dirname(path), data: readJson(path) })
      continue
    }
    const files = readdirSync(path)
      .filter((name) => name.endsWith('.json'))
      .sort()
    for (const file of files) out.push({ name: join(path, file), dir: path, data: readJson(join(path, file)) })
  }
  return out
}

function readJson(file: string): unknown {
  let raw: string
  try {
    raw = readFileSync(file, 'utf8')
  } catch {
    throw new RouteFileError(file, '', '', 'cannot be read')
  }
  try {
    return JSON.parse(raw)
  } catch (error) {
    throw new RouteFileError(file, '', '', `is not valid JSON (${error instanceof Error ? error.message : String(error)})`)
  }
}
