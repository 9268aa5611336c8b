/**
 * Where a recording goes: the path template of a proxied path (a segment that looks like an id
 * becomes a parameter), and the route id and file names of a method and template. A name is
 * `[a-z0-9._-]` only: the method, a short code of which segments are parameters, the path made
 * readable, and a hash of the exact method and template, so two templates never share a file.
 *
 * The code comes first because a folder is declared in name order, and a route must come before a
 * route that would answer all of its paths (or it is refused as shadowed): one hex digit per four
 * segments, a bit set for a parameter, so `/pools/count` sorts before `/pools/{poolId}`.
 */
import { createHash } from 'node:crypto'
import { RECORD_HASH_LENGTH, RECORD_ID_LIMIT } from './constants.js'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** Whether a path segment names one thing (an id) rather than a kind of thing. */
export function looksLikeId(segment: string): boolean {
  return UUID.test(segment) || /^\d+$/.test(segment) || (/^[A-Za-z0-9_-]{8,}$/.test(segment) && /\d/.test(segment))
}

/**
 * The template of a recorded path (`/pools/3fa8…/tables` → `/pools/{poolId}/tables`) and its
 * parameters. A segment a route cannot hold as fixed text (one that starts with `:`) becomes a
 * parameter too.
 */
export function templateOfPath(pathname: string): { template: string; params: string[] } {
  const params: string[] = []
  const segments = pathname
    .slice(1)
    .split('/')
    .map((segment, i, all) => {
      if (!looksLikeId(segment) && !segment.startsWith(':')) return segment
      const before = i > 0 ? all[i - 1] : undefined
      const base = before !== undefined && !looksLikeId(before) && /^[A-Za-z][A-Za-z0-9_-]*$/.test(before) ? `${singular(before).replace(/[-_]+([a-z0-9])/gi, (_, c: string) => c.toUpperCase())}Id` : 'id'
      let name = base
      for (let n = 2; params.includes(name); n++) name = `${base}${n}`
      params.push(name)
      return `{${name}}`
    })
  return { template: `/${segments.join('/')}`, params }
}

function singular(word: string): string {
  if (word.endsWith('ies')) return `${word.slice(0, -3)}y`
  if (word.endsWith('s') && !word.endsWith('ss') && !word.endsWith('us')) return word.slice(0, -1)
  return word
}

/** A recording's route id and its files in the record folder. */
export interface RecordingName {
  /** `get.1.integration.api.pools.by-poolid.3fa9c2b1d0`: also the files' name. */
  readonly id: string
  /** The route file. */
  readonly json: string
  /** Its body file, when the body is not in the route file. */
  readonly body: string
}

/** The id and file names of the recording of `method` on `template`. */
export function recordingName(method: string, template: string): RecordingName {
  const segments = template.slice(1).split('/')
  const hash = createHash('sha256').update(`${method} ${template}`).digest('hex').slice(0, RECORD_HASH_LENGTH)
  const readable = segments.map((segment) => (/^\{.+\}$/.test(segment) ? `by-${clean(segment.slice(1, -1))}` : clean(segment))).join('.')
  const base = `${method.toLowerCase()}.${parameterCode(segments)}.${readable}`
    .slice(0, RECORD_ID_LIMIT - RECORD_HASH_LENGTH - 1)
    .replace(/[.-]+$/, '')
  const id = `${base}.${hash}`
  return { id, json: `${id}.json`, body: `${id}.body` }
}

/** One hex digit per four segments, most significant first, a bit set where a segment is a parameter. */
function parameterCode(segments: readonly string[]): string {
  let code = ''
  for (let i = 0; i < segments.length; i += 4) {
    let digit = 0
    for (let bit = 0; bit < 4; bit++) digit = (digit << 1) | (/^\{.+\}$/.test(segments[i + bit] ?? '') ? 1 : 0)
    code += digit.toString(16)
  }
  return code
}

/** A segment as a name may hold it: lower case letters, digits and `-`, never empty (an empty segment is `-`). */
function clean(segment: string): string {
  return segment.toLowerCase().replace(/[^a-z0-9-]+/g, '-').slice(0, 32) || '-'
}
