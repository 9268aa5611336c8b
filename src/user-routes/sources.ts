/**
 * Where route documents come from: a route file, a folder of them (its `*.json` files in name
 * order; a recording's body files beside them are not route files), a document given in code, or
 * the body of `POST /__svc-mock/routes`. A file's folder is where its `bodyFile`s must live.
 */
import { readJsonPath } from '../kernel/json-files.js'
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
    for (const { file, dir, data } of readJsonPath(input, (file, rule) => new RouteFileError(file, '', '', rule))) out.push({ name: file, dir, data })
  }
  return out
}

