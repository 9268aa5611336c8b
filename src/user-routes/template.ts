/**
 * Path templates: `/integration/api/pools/{poolId}` is the route pattern `/integration/api/pools/:poolId`.
 * A parameter is a whole segment; a template that no request could match (a space, `..`, a `?`, a
 * parameter inside a segment, a name used twice) is refused with the reason. And the clash rule:
 * a route clashes with an earlier one when that one takes its method and matches every path it
 * could match, so it would never be served.
 */
import { type CompiledPattern, compilePattern } from '../kernel/router.js'
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
  // A URL's path is normalized before routing: a segment it would change (a space, "..") can never
  // match. The probe is appended to an origin, never resolved against one: "//x" is a path here.
  const probe = `/${segments.map((s) => (s.startsWith(':') ? 'x' : s)).join('/')}`
  let normalized: string
  try {
    normalized = new URL(`http://svc-mock.invalid${probe}`).pathname
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

/** A route's method and compiled path, as the clash rule compares them. */
export interface Placed {
  readonly method: string
  readonly segments: CompiledPattern['segments']
}

export function placed(route: Pick<RouteDefinition, 'method' | 'path'>): Placed {
  return { method: route.method, segments: compilePattern(route.path).segments }
}

interface Node<R> {
  readonly statics: Map<string, Node<R>>
  param: Node<R> | undefined
  readonly routes: Array<{ readonly method: string; readonly route: R }>
}

const node = <R>(): Node<R> => ({ statics: new Map(), param: undefined, routes: [] })

/**
 * The routes there are, by path shape: finds a route that shadows a new one (takes its method and
 * matches every path it could match) by walking only the branches that can, not every route.
 */
export class ClashIndex<R> {
  readonly #root: Node<R> = node()

  add(where: Placed, route: R): void {
    let at = this.#root
    for (const segment of where.segments) {
      if (segment.kind === 'param') at = at.param ??= node()
      else {
        let next = at.statics.get(segment.value)
        if (!next) {
          next = node()
          at.statics.set(segment.value, next)
        }
        at = next
      }
    }
    at.routes.push({ method: where.method, route })
  }

  /** A route added before that would answer every request `later` could match, if there is one. */
  shadowing(later: Placed): R | undefined {
    const segments = later.segments
    const visit = (at: Node<R>, i: number): R | undefined => {
      const segment = segments[i]
      // A HEAD route is served before a GET route that matches its paths (the router prefers it).
      if (segment === undefined) return at.routes.find((r) => r.method === '*' || r.method === later.method)?.route
      if (segment.kind === 'static') {
        const child = at.statics.get(segment.value)
        const found = child ? visit(child, i + 1) : undefined
        if (found !== undefined) return found
      }
      // A parameter matches any segment but an empty one.
      if (at.param && !(segment.kind === 'static' && segment.value === '')) return visit(at.param, i + 1)
      return undefined
    }
    return visit(this.#root, 0)
  }
}
