/**
 * Path templates: `/integration/api/pools/{poolId}` is the route pattern `/integration/api/pools/:poolId`.
 * A parameter is a whole segment; a template that no request could match (a space, `..`, a `?`, a
 * parameter inside a segment, a name used twice) is refused with the reason. And the clash rule:
 * a route clashes with an earlier one when that one takes its method and matches every path it
 * could match, so it would never be served.
 */
import { compilePattern } from '../kernel/router.js'
import type { RouteDefinition } from '../kernel/route.js'

export interface PathTemplate {
  /** The kernel's pattern (`:name` segments). */
  readonly pattern: string
  /** The parameters' names, in order. */
  readonly params: readonly string[]
}

const PARAM = /^\{([A-Za-z_][A-Za-z0-9_]*)\}$/

/** The template as a route pattern, or the reason no request could match it. */
export function parseTemplate(path: string): PathTemplate | { problem: string } {
  if (!path.startsWith('/')) return { problem: `"${path}" must start with "/"` }
  if (/[?#]/.test(path)) return { problem: `"${path}" holds "?" or "#": a path template matches the path only (a query string is read with {{query.NAME}})` }
  const params: string[] = []
  const segments: string[] = []
  for (const segment of path.slice(1).split('/')) {
    const param = PARAM.exec(segment)
    if (param) {
      const name = param[1] ?? ''
      if (params.includes(name)) return { problem: `the parameter {${name}} appears twice in "${path}"` }
      params.push(name)
      segments.push(`:${name}`)
      continue
    }
    if (/[{}]/.test(segment)) return { problem: `the segment "${segment}" of "${path}": a parameter is a whole segment, {name} with a name of letters, digits and "_"` }
    if (segment.startsWith(':')) return { problem: `the segment "${segment}" of "${path}": write a parameter as {name}` }
    segments.push(segment)
  }
  // A URL's path is normalized before routing: a segment it would change (a space, "..") can never match.
  const probe = `/${segments.map((s) => (s.startsWith(':') ? 'x' : s)).join('/')}`
  let normalized: string
  try {
    normalized = new URL(probe, 'http://svc-mock.invalid').pathname
  } catch {
    normalized = ''
  }
  if (normalized !== probe) return { problem: `"${path}" cannot match any request: a URL's path would read "${normalized}" (percent-encode what is not allowed in a path, and leave out "." and ".." segments)` }
  return { pattern: `/${segments.join('/')}`, params }
}

/** A kernel pattern (`:name`) as a template (`{name}`), for messages and documents. */
export function templateOf(pattern: string): string {
  return pattern.replace(/:([A-Za-z0-9_]+)/g, '{$1}')
}

/** Whether `earlier` takes the method and matches every path `later` could match (so `later` is never served). */
export function shadows(earlier: Pick<RouteDefinition, 'method' | 'path'>, later: Pick<RouteDefinition, 'method' | 'path'>): boolean {
  const method = earlier.method === '*' || earlier.method === later.method || (later.method === 'HEAD' && earlier.method === 'GET')
  if (!method) return false
  const outer = compilePattern(earlier.path).segments
  const inner = compilePattern(later.path).segments
  if (outer.length !== inner.length) return false
  return outer.every((segment, i) => {
    const other = inner[i]
    if (segment.kind === 'param') return !(other?.kind === 'static' && other.value === '')
    return other?.kind === 'static' && other.value === segment.value
  })
}
