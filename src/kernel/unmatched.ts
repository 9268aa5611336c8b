/**
 * A request no route answered: its answer (405 with `Allow` on a path that takes other methods,
 * 404 naming the closest route, 501 for a method no route could take) and its near miss, as
 * WireMock reports one for a request no stub matched: the route it came closest to and what
 * differed (the method, a path segment, the origin). Generic: it compares a request line with
 * route patterns, nothing else.
 */
import { near } from './closest.js'
import { type Reply, json } from './reply.js'
import type { IncomingRequest } from './request.js'
import type { CompiledRoute, HttpMethod } from './route.js'
import { type RouteMatch, splitPath } from './router.js'

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

/**
 * Methods a route could take: on a known path they answer 405 with `Allow` (as the platform's
 * Spring servers do for PATCH on the token endpoint), even when no route takes them anywhere.
 */
const ROUTABLE_METHODS: ReadonlySet<string> = new Set<HttpMethod>(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'])

/** Explains requests that matched no route, against the emulator's routes. */
export class Unmatched {
  readonly #routes: readonly CompiledRoute[]
  readonly #origins: Readonly<Record<string, string>>
  readonly #methods: ReadonlySet<string>
  readonly #routeList: string

  /**
   * `origins` maps each named address to its origin; `methods` holds every method some route takes;
   * `routeList` is where a 404 for a path the emulator does not emulate points the caller.
   */
  constructor(routes: readonly CompiledRoute[], origins: Readonly<Record<string, string>>, methods: ReadonlySet<string>, routeList: string) {
    this.#routes = routes
    this.#origins = origins
    this.#methods = methods
    this.#routeList = routeList
  }

  /**
   * The answer to a request the route table did not match (or matched on another address);
   * `reserved` when its path lies under the prefix the control routes reserve.
   */
  answer(request: IncomingRequest, match: RouteMatch<CompiledRoute>, reserved: boolean): Reply {
    const { method, url } = request
    if (!this.#methods.has(method) && !ROUTABLE_METHODS.has(method)) {
      return json({ error: 'Not Implemented', message: `svc-mock implements no route for the method ${method}.` }, { status: 501 })
    }
    if (match.kind === 'method-not-allowed') {
      const { allowed } = match
      const allow = [...new Set(allowed.includes('GET') ? [...allowed, 'HEAD'] : allowed)].join(', ')
      return json({ error: 'Method Not Allowed', message: `${method} is not allowed on ${url.pathname}. Allowed: ${allow}.` }, { status: 405, headers: { allow } })
    }
    // A miss under the emulator's own prefix is the emulator's own 404; any other path is a
    // platform path svc-mock does not emulate, and the hint names an emulated platform route.
    const among = this.#neighbours(reserved)
    // A platform path always names its nearest emulated route, however far: a caller should see what exists.
    const closest = closestRoute(method, url.pathname, among, !reserved)
    const hint = closest ? { closest: `${closest.definition.method} ${closest.definition.path} (${closest.definition.id})` } : {}
    if (reserved) return json({ error: 'Not Found', message: `svc-mock has no route for ${method} ${url.pathname}.`, ...hint }, { status: 404 })
    return json(
      {
        error: 'Not emulated',
        path: url.pathname,
        message: `svc-mock does not emulate ${method} ${url.pathname}. The routes it emulates are listed at ${this.#routeList}.`,
        ...hint,
      },
      { status: 404 },
    )
  }

  /**
   * The near miss of a request no route answered: the route it came closest to (the one that
   * matched its line on another address, else one whose path it matches, else the nearest
   * pattern), and what differed.
   */
  nearMiss(request: IncomingRequest, match: RouteMatch<CompiledRoute>, reserved: boolean): NearMiss | undefined {
    const { method, url } = request
    const onOrigin = (route: CompiledRoute): number => (this.#origins[route.definition.origin] === url.origin ? 1 : 0)
    const among = this.#neighbours(reserved)
    const route =
      (match.kind === 'match' ? match.route : undefined) ??
      among.filter((r) => r.pattern.match(url.pathname) !== undefined).sort((a, b) => onOrigin(b) - onOrigin(a))[0] ??
      closestRoute(method, url.pathname, among, true)
    if (!route) return undefined
    return differences(method, url, route, this.#origins[route.definition.origin] ?? '')
  }

  /** The routes a missed path is compared with: the emulator's own under its reserved prefix, the others elsewhere. */
  #neighbours(reserved: boolean): CompiledRoute[] {
    return this.#routes.filter((r) => (r.definition.control ?? false) === reserved)
  }
}

/**
 * The route whose pattern is nearest to a path that matched none: equal segments count most, then
 * parameters and segments a typo away, then the method. Below a score of nothing in common, none
 * unless `always`.
 */
function closestRoute(method: string, pathname: string, among: readonly CompiledRoute[], always: boolean): CompiledRoute | undefined {
  const parts = pathname.slice(1).split('/')
  let best: CompiledRoute | undefined
  let bestScore = always ? Number.NEGATIVE_INFINITY : 0
  for (const route of among) {
    const segments = route.pattern.segments
    let score = 0
    for (let i = 0; i < Math.min(segments.length, parts.length); i++) {
      const segment = segments[i]
      const part = parts[i] ?? ''
      if (segment?.kind === 'static' && segment.value === part) score += 2
      else if (segment?.kind === 'param' || (segment?.kind === 'static' && near(part, segment.value))) score += 1
    }
    score -= Math.abs(segments.length - parts.length)
    if (route.definition.method === method || route.definition.method === '*') score += 1
    if (score > bestScore) {
      bestScore = score
      best = route
    }
  }
  return best
}

/** What differs between a request line and one route on `origin`. */
function differences(method: string, url: URL, route: CompiledRoute, origin: string): NearMiss {
  const { definition, pattern } = route
  const found: NearMissDifference[] = []
  if (definition.method !== '*' && definition.method !== method && !(method === 'HEAD' && definition.method === 'GET')) {
    found.push({ part: 'method', expected: definition.method, actual: method })
  }
  const parts = splitPath(url.pathname)
  const segments = pattern.segments
  for (let i = 0; i < Math.max(parts.length, segments.length); i++) {
    const segment = segments[i]
    const part = parts[i]
    const expected = segment === undefined ? null : segment.kind === 'static' ? segment.value : `:${segment.name}`
    if (segment === undefined || part === undefined) {
      found.push({ part: 'path', segment: i + 1, expected, actual: part ?? null })
    } else if (segment.kind === 'static' ? segment.value !== part : part === '') {
      found.push({ part: 'path', segment: i + 1, expected, actual: part })
    }
  }
  if (origin !== url.origin) found.push({ part: 'origin', expected: origin, actual: url.origin })
  return { route: { id: definition.id, method: definition.method, path: pattern.pattern, origin }, differences: found }
}
