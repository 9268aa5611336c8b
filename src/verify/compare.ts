/**
 * The comparison of one probe's two normalized answers: status, media type, the documented headers,
 * then the body: a success body by its shape (kinds, nullability, members, array items), an error
 * body by its values, a text body by its text. Each difference names where it is (`status`,
 * `header WWW-Authenticate`, `$.expires_in`) and what each side has there. Once the statuses
 * differ, nothing else is compared: the rest would follow from it.
 */
import type { JsonValue } from '../kernel/json.js'
import type { ProbeComparison } from '../kernel/verify-probe.js'
import { type NormalizedAnswer, describeBody } from './answer.js'
import { type Shape, describeKinds, kindOf, memberPath } from './shape.js'

/** One difference: where, and what each side has there (undefined: nothing). */
export interface Difference {
  readonly at: string
  readonly target?: string
  readonly svcMock?: string
}

const HEADER_NAMES: Readonly<Record<string, string>> = {
  'www-authenticate': 'WWW-Authenticate',
  'retry-after': 'Retry-After',
  'x-ratelimit-limit': 'X-RateLimit-Limit',
  'x-ratelimit-remaining': 'X-RateLimit-Remaining',
  'x-ratelimit-reset': 'X-RateLimit-Reset',
  location: 'Location',
  deprecation: 'Deprecation',
}
const headerName = (name: string): string => HEADER_NAMES[name] ?? name

const own = <T>(record: Readonly<Record<string, T>> | undefined, name: string): T | undefined => (record !== undefined && Object.hasOwn(record, name) ? record[name] : undefined)

/** Where the two answers of a probe differ; none when they are the same. */
export function compareAnswers(target: NormalizedAnswer, svcMock: NormalizedAnswer, comparison: ProbeComparison = {}): Difference[] {
  if (target.status !== svcMock.status) return [{ at: 'status', target: statusOf(target), svcMock: statusOf(svcMock) }]
  const out: Difference[] = []
  const bodyKinds = kindOfBody(target) === kindOfBody(svcMock)
  if (target.contentType !== svcMock.contentType && bodyKinds) out.push({ at: 'content type', target: target.contentType || 'none', svcMock: svcMock.contentType || 'none' })
  for (const name of new Set([...Object.keys(target.headers), ...Object.keys(svcMock.headers)])) {
    const t = own(target.headers, name)
    const s = own(svcMock.headers, name)
    if (t !== s) out.push({ at: `header ${headerName(name)}`, ...(t === undefined ? {} : { target: JSON.stringify(t) }), ...(s === undefined ? {} : { svcMock: JSON.stringify(s) }) })
  }
  return [...out, ...compareBodies(target, svcMock, comparison)]
}

const statusOf = (answer: NormalizedAnswer): string => {
  const location = own(answer.headers, 'location')
  return answer.status >= 300 && answer.status < 400 && location !== undefined ? `${answer.status} to ${location}` : String(answer.status)
}

const kindOfBody = (answer: NormalizedAnswer): string => (answer.body.kind === 'shape' ? 'json' : answer.body.kind)

function compareBodies(target: NormalizedAnswer, svcMock: NormalizedAnswer, comparison: ProbeComparison): Difference[] {
  const t = target.body
  const s = svcMock.body
  if (t.kind === 'shape' && s.kind === 'shape') return compareShapes(t.shape, s.shape, '$', { maps: new Set(comparison.maps ?? []), optional: new Set(comparison.optional ?? []) })
  if (t.kind === 'json' && s.kind === 'json') return compareValues(t.value, s.value, '$')
  if (t.kind === 'text' && s.kind === 'text') return t.text === s.text ? [] : [{ at: 'body', target: JSON.stringify(t.text), svcMock: JSON.stringify(s.text) }]
  if (t.kind === 'html' && s.kind === 'html') return t.title === s.title ? [] : [{ at: 'body', target: describeBody(t), svcMock: describeBody(s) }]
  if (t.kind === s.kind) return []
  return [{ at: 'body', target: describeBody(t), svcMock: describeBody(s) }]
}

/** Where a member's presence is not compared: in an object keyed by data, or where the probe says it is optional. */
export interface ShapeRules {
  readonly maps: ReadonlySet<string>
  readonly optional: ReadonlySet<string>
}

const NO_RULES: ShapeRules = { maps: new Set(), optional: new Set() }

/**
 * Success bodies: the same kinds, members, and item shapes. `pattern` is the path with the members
 * of objects keyed by data written `*` (`$.elements[].attributes.*`), which the rules name.
 */
export function compareShapes(target: Shape, svcMock: Shape, path = '$', rules: ShapeRules = NO_RULES, pattern = path): Difference[] {
  const same = target.kinds.length === svcMock.kinds.length && target.kinds.every((kind) => svcMock.kinds.includes(kind))
  if (!same) return [{ at: path, target: describeKinds(target.kinds), svcMock: describeKinds(svcMock.kinds) }]
  const out: Difference[] = []
  if (target.members !== undefined && svcMock.members !== undefined) {
    const keyedByData = rules.maps.has(pattern)
    for (const name of new Set([...Object.keys(target.members), ...Object.keys(svcMock.members)])) {
      const at = memberPath(path, name)
      const memberPattern = keyedByData ? `${pattern}.*` : memberPath(pattern, name)
      const t = own(target.members, name)
      const s = own(svcMock.members, name)
      if (t !== undefined && s !== undefined) out.push(...compareShapes(t, s, at, rules, memberPattern))
      else if (!keyedByData && !rules.optional.has(memberPattern)) out.push({ at, ...(t === undefined ? {} : { target: describeKinds(t.kinds) }), ...(s === undefined ? {} : { svcMock: describeKinds(s.kinds) }) })
    }
  }
  if (target.items !== undefined && svcMock.items !== undefined) out.push(...compareShapes(target.items, svcMock.items, `${path}[]`, rules, `${pattern}[]`))
  return out
}

const shown = (value: JsonValue): string => {
  const text = JSON.stringify(value)
  return text.length > 120 ? `${text.slice(0, 117)}…` : text
}

/** Error bodies: the same members and items, each with the same (normalized) value. */
export function compareValues(target: JsonValue, svcMock: JsonValue, path: string): Difference[] {
  const tk = kindOf(target)
  const sk = kindOf(svcMock)
  if (tk !== sk) return [{ at: path, target: `${tk} ${shown(target)}`, svcMock: `${sk} ${shown(svcMock)}` }]
  if (Array.isArray(target) && Array.isArray(svcMock)) {
    const out: Difference[] = target.length === svcMock.length ? [] : [{ at: path, target: `${target.length} items`, svcMock: `${svcMock.length} items` }]
    for (let i = 0; i < Math.min(target.length, svcMock.length); i++) out.push(...compareValues(target[i] ?? null, svcMock[i] ?? null, `${path}[${i}]`))
    return out
  }
  if (tk === 'object' && typeof target === 'object' && target !== null && typeof svcMock === 'object' && svcMock !== null && !Array.isArray(target) && !Array.isArray(svcMock)) {
    const out: Difference[] = []
    for (const name of new Set([...Object.keys(target), ...Object.keys(svcMock)])) {
      const t = own(target, name)
      const s = own(svcMock, name)
      const at = memberPath(path, name)
      if (t !== undefined && s !== undefined) out.push(...compareValues(t, s, at))
      else out.push({ at, ...(t === undefined ? {} : { target: shown(t) }), ...(s === undefined ? {} : { svcMock: shown(s) }) })
    }
    return out
  }
  return Object.is(target, svcMock) || target === svcMock ? [] : [{ at: path, target: shown(target), svcMock: shown(svcMock) }]
}
