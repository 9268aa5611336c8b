/**
 * Near misses, as WireMock reports them for a request no stub matched: the route closest to a
 * request that matched none, and what differed between them (the method, a path segment, the
 * origin). Generic: it compares a request line with route patterns, nothing else.
 */
import type { CompiledPattern } from './router.js'
import { splitPath } from './router.js'

/** One way a request differed from the route it came closest to. */
export type NearMissDifference =
  | { readonly part: 'method'; readonly expected: string; readonly actual: string }
  /**
   * Segment `segment` (1 for the first after the leading `/`) of the path: `expected` is the
   * pattern's segment (`:name` for a parameter), null when the request has a segment too many;
   * `actual` is null when the request lacks that segment.
   */
  | { readonly part: 'path'; readonly segment: number; readonly expected: string | null; readonly actual: string | null }
  | { readonly part: 'origin'; readonly expected: string; readonly actual: string }

export interface NearMiss {
  /** The closest route: its id, method, path pattern and the origin it answers on. */
  readonly route: { readonly id: string; readonly method: string; readonly path: string; readonly origin: string }
  readonly differences: readonly NearMissDifference[]
}

export interface NearMissCandidate {
  readonly id: string
  readonly method: string
  readonly pattern: CompiledPattern
  readonly origin: string
}

/** What differs between a request line and one route. */
export function nearMiss(method: string, url: URL, route: NearMissCandidate): NearMiss {
  const differences: NearMissDifference[] = []
  if (route.method !== '*' && route.method !== method && !(method === 'HEAD' && route.method === 'GET')) {
    differences.push({ part: 'method', expected: route.method, actual: method })
  }
  const parts = splitPath(url.pathname)
  const segments = route.pattern.segments
  for (let i = 0; i < Math.max(parts.length, segments.length); i++) {
    const segment = segments[i]
    const part = parts[i]
    const expected = segment === undefined ? null : segment.kind === 'static' ? segment.value : `:${segment.name}`
    if (segment === undefined || part === undefined) {
      differences.push({ part: 'path', segment: i + 1, expected, actual: part ?? null })
    } else if (segment.kind === 'static' ? segment.value !== part : part === '') {
      differences.push({ part: 'path', segment: i + 1, expected, actual: part })
    }
  }
  if (route.origin !== url.origin) differences.push({ part: 'origin', expected: route.origin, actual: url.origin })
  return { route: { id: route.id, method: route.method, path: route.pattern.pattern, origin: route.origin }, differences }
}
