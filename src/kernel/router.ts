/**
 * Path patterns and the route table. A pattern is a path with `:name` segments
 * (`/hooks/:token`); matching is exact, segment by segment, with percent-decoded parameters.
 * Every transport reaches the routes through the pipeline's tables, so all agree on every parameter.
 */

export interface CompiledPattern {
  readonly pattern: string
  readonly segments: readonly Segment[]
  /** Returns the decoded parameters when `pathname` matches, else undefined. */
  match(pathname: string): Record<string, string> | undefined
}

type Segment = { kind: 'static'; value: string } | { kind: 'param'; name: string }

export function compilePattern(pattern: string): CompiledPattern {
  if (!pattern.startsWith('/')) throw new Error(`Route pattern must start with "/": ${pattern}`)
  const segments: Segment[] = pattern
    .slice(1)
    .split('/')
    .map((part) => (part.startsWith(':') ? { kind: 'param', name: part.slice(1) } : { kind: 'static', value: part }))
  return {
    pattern,
    segments,
    match(pathname) {
      return matchSegments(segments, splitPath(pathname))
    },
  }
}

export function splitPath(pathname: string): string[] {
  return pathname.slice(1).split('/')
}

/** The first segment of a path (`__svc-mock` of `/__svc-mock/state`), without splitting the rest. */
export function firstSegment(pathname: string): string {
  const end = pathname.indexOf('/', 1)
  return pathname.slice(1, end === -1 ? undefined : end)
}

export function matchSegments(segments: readonly Segment[], parts: readonly string[]): Record<string, string> | undefined {
  if (parts.length !== segments.length) return undefined
  // Checked first without allocating: most routes tried for a path are not it.
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i]
    const part = parts[i]
    if (segment === undefined || part === undefined) return undefined
    if (segment.kind === 'static' ? segment.value !== part : part === '') return undefined
  }
  const params: Record<string, string> = {}
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i]
    if (segment?.kind === 'param') params[segment.name] = safeDecode(parts[i] ?? '')
  }
  return params
}

function safeDecode(part: string): string {
  if (!part.includes('%')) return part
  try {
    return decodeURIComponent(part)
  } catch {
    return part
  }
}

export interface RouteTableEntry<R> {
  readonly method: string
  readonly pattern: CompiledPattern
  readonly route: R
}

export type RouteMatch<R> =
  | { kind: 'match'; route: R; params: Record<string, string> }
  | { kind: 'method-not-allowed'; allowed: string[] }
  | { kind: 'not-found' }

/** The server's route table: routes bucketed by segment count, checked in registration order. */
export class RouteTable<R> {
  #buckets = new Map<number, RouteTableEntry<R>[]>()
  /** Every method some route takes (`*` for a route that takes any). */
  readonly methods = new Set<string>()

  add(method: string, pattern: CompiledPattern, route: R): void {
    this.methods.add(method)
    if (method === 'GET') this.methods.add('HEAD')
    const size = pattern.segments.length
    const bucket = this.#buckets.get(size) ?? []
    bucket.push({ method, pattern, route })
    this.#buckets.set(size, bucket)
  }

  /**
   * The first route, in registration order, that takes the method and matches the path. A GET
   * route also answers HEAD, unless a route declared for HEAD itself matches the path too.
   */
  match(method: string, pathname: string): RouteMatch<R> {
    const parts = splitPath(pathname)
    const bucket = this.#buckets.get(parts.length)
    if (!bucket) return { kind: 'not-found' }
    const allowed: string[] = []
    let first: RouteMatch<R> | undefined
    for (const entry of bucket) {
      const params = matchSegments(entry.pattern.segments, parts)
      if (!params) continue
      if (entry.method === method) return { kind: 'match', route: entry.route, params }
      if (entry.method === '*') return first ?? { kind: 'match', route: entry.route, params }
      if (method === 'HEAD' && entry.method === 'GET') {
        first ??= { kind: 'match', route: entry.route, params }
        continue
      }
      allowed.push(entry.method)
    }
    if (first) return first
    return allowed.length > 0 ? { kind: 'method-not-allowed', allowed } : { kind: 'not-found' }
  }

  entries(): RouteTableEntry<R>[] {
    return [...this.#buckets.values()].flat()
  }
}
