/**
 * The comparison of `svc-mock verify` (src/verify/compare.ts), through the normalizer as a run uses
 * it: a unit test per kind of difference, and property tests (fast-check, seeded as the fuzz suite
 * is): a JSON answer compared with itself after any change the normalizer is meant to absorb is
 * the same; after any other change it differs, at the path where the change is.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { JsonValue } from '../../src/kernel/json.js'
import { type NormalizedAnswer, normalizeAnswer } from '../../src/verify/answer.js'
import { compareAnswers, compareShapes } from '../../src/verify/compare.js'
import type { NormalizeContext } from '../../src/verify/normalize.js'
import { shapeOf } from '../../src/verify/shape.js'
import { FUZZ_SEED, runs } from '../support/fuzz.js'

const options = (numRuns: number): fc.Parameters<unknown> => ({ seed: FUZZ_SEED, numRuns, includeErrorInReport: true })

const TEAM: NormalizeContext = {
  origins: { auth: 'https://acme.eu-1.celonis.cloud', base: 'https://acme.eu-1.celonis.cloud', webhook: 'https://acme.eu-1.celonis.cloud' },
  literals: [['Coll-T1', '{collection}'], ['Client-T1', '{client_id}']],
  secrets: ['S3CRET-T1'],
  teamNames: [],
}
const SVC_MOCK: NormalizeContext = {
  origins: { auth: 'https://acme.svc-mock.test', base: 'https://acme.svc-mock.test', webhook: 'https://acme.svc-mock.test' },
  literals: [['Coll-S2', '{collection}'], ['Client-S2', '{client_id}']],
  secrets: ['S3CRET-S2'],
  teamNames: [],
}

function answer(status: number, body: JsonValue, context: NormalizeContext, headers: Record<string, string> = {}): NormalizedAnswer {
  return normalizeAnswer({ status, headers: { 'content-type': 'application/json', ...headers }, body: Buffer.from(JSON.stringify(body)) }, context)
}

/** A member's path as the output writes it. */
const member = (path: string, name: string): string => (/^[A-Za-z_$][\w$]*$/.test(name) ? `${path}.${name}` : `${path}[${JSON.stringify(name)}]`)

describe('comparing two answers', () => {
  it('reports a different status and nothing else once the statuses differ', () => {
    expect(compareAnswers(answer(200, { a: 1 }, TEAM), answer(404, { b: 'x' }, SVC_MOCK))).toEqual([{ at: 'status', target: '200', svcMock: '404' }])
  })

  it('reports a member whose type changed, one that is only on one side, and nullability, at their paths', () => {
    const team = { expires_in: '899', scope: 'a', items: [{ id: 'x', note: null }] }
    const svcMock = { expires_in: 899, token_type: 'Bearer', items: [{ id: 'y', note: 'n' }] }
    expect(compareAnswers(answer(200, team, TEAM), answer(200, svcMock, SVC_MOCK))).toEqual([
      { at: '$.expires_in', target: 'string', svcMock: 'number' },
      { at: '$.scope', target: 'string' },
      { at: '$.items[].note', target: 'null', svcMock: 'string' },
      { at: '$.token_type', svcMock: 'string' },
    ])
  })

  it('compares error bodies by their values once normalized, and reports a changed message at its member', () => {
    const team = { data: [{ error: "Element '7c9e6679-7425-40de-944b-e07fc1f90ae7' not found." }], message: 'An error occurred.', type: 'Error' }
    const same = { data: [{ error: "Element '0f8fad5b-d9cb-469f-a165-70867728950e' not found." }], message: 'An error occurred.', type: 'Error' }
    expect(compareAnswers(answer(404, team, TEAM), answer(404, same, SVC_MOCK))).toEqual([])
    expect(compareAnswers(answer(404, team, TEAM), answer(404, { ...same, type: 'Warning' }, SVC_MOCK))).toEqual([{ at: '$.type', target: '"Error"', svcMock: '"Warning"' }])
  })

  it('reports a documented header missing on one side, and compares a challenge by its scheme and parameter names', () => {
    const team = answer(401, { error: 'invalid_client' }, TEAM, { 'www-authenticate': 'Basic realm="team", charset="UTF-8"', 'x-ratelimit-limit': '20' })
    const svcMock = answer(401, { error: 'invalid_client' }, SVC_MOCK, { 'www-authenticate': 'Basic realm="oauth2/token", charset="UTF-8"' })
    expect(compareAnswers(team, svcMock)).toEqual([{ at: 'header X-RateLimit-Limit', target: '"{n}"' }])
  })

  it('says the team answered an HTML page where svc-mock answers JSON, in one difference', () => {
    const page = normalizeAnswer({ status: 200, headers: { 'content-type': 'text/html; charset=utf-8' }, body: Buffer.from('<html><head><title>Sign in</title></head></html>') }, TEAM)
    expect(compareAnswers(page, answer(200, { id: 'x' }, SVC_MOCK))).toEqual([{ at: 'body', target: 'an HTML page "Sign in"', svcMock: 'JSON' }])
  })

  it('does not report a key of an object keyed by data that one side has alone, and compares the keys both have', () => {
    const rules = { maps: new Set(['$.attributes', '$.attributes.*']), optional: new Set(['$.stereotype']) }
    const team = shapeOf({ attributes: { name: { '1033': 'x' }, custom: { '127': 1 }, version: { '127': '2.0' } }, stereotype: 'x' })
    const svcMock = shapeOf({ attributes: { name: { '1031': 'y', '1033': 'y' }, version: { '127': 2 } } })
    expect(compareShapes(team, svcMock, '$', rules)).toEqual([{ at: '$.attributes.version["127"]', target: 'string', svcMock: 'number' }])
  })
})

// --- Property tests --------------------------------------------------------------------------------

type Step = { member: string } | 'items'

/** Every shape path of a value: its members and, for a non-empty array, its items. */
function pathsOf(value: JsonValue, steps: Step[] = [], out = new Map<string, Step[]>()): Map<string, Step[]> {
  out.set(JSON.stringify(steps), steps)
  if (Array.isArray(value)) for (const item of value) pathsOf(item, [...steps, 'items'], out)
  else if (value !== null && typeof value === 'object') for (const [name, item] of Object.entries(value)) pathsOf(item, [...steps, { member: name }], out)
  return out
}

const text = (steps: readonly Step[]): string => steps.reduce((path, step) => (step === 'items' ? `${path}[]` : member(path, step.member)), '$')

/** Every value at a shape path. */
function valuesAt(value: JsonValue, steps: readonly Step[]): JsonValue[] {
  const [step, ...rest] = steps
  if (step === undefined) return [value]
  if (step === 'items') return Array.isArray(value) ? value.flatMap((item) => valuesAt(item, rest)) : []
  if (value === null || typeof value !== 'object' || Array.isArray(value) || !Object.hasOwn(value, step.member)) return []
  return valuesAt(value[step.member] ?? null, rest)
}

/** The value with `change` applied to every value at a shape path. */
function mapAt(value: JsonValue, steps: readonly Step[], change: (v: JsonValue) => JsonValue): JsonValue {
  const [step, ...rest] = steps
  if (step === undefined) return change(value)
  if (step === 'items') return Array.isArray(value) ? value.map((item) => mapAt(item, rest, change)) : value
  if (value === null || typeof value !== 'object' || Array.isArray(value) || !Object.hasOwn(value, step.member)) return value
  return Object.fromEntries(Object.entries(value).map(([name, item]) => [name, name === step.member ? mapAt(item, rest, change) : item]))
}

const kindOf = (v: JsonValue): string => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v)
const SAMPLES: Readonly<Record<string, JsonValue>> = { null: null, boolean: true, number: 7, string: 'x', array: [], object: {} }

/** Another sample of the same shape: every leaf another value of its kind, some array items repeated. */
function resampled(value: JsonValue): fc.Arbitrary<JsonValue> {
  if (typeof value === 'string') return fc.string()
  if (typeof value === 'number') return fc.integer()
  if (typeof value === 'boolean') return fc.boolean()
  if (value === null) return fc.constant(null)
  if (Array.isArray(value)) {
    if (value.length === 0) return fc.constant([])
    return fc.tuple(fc.tuple(...value.map(resampled)), fc.array(fc.nat(value.length - 1), { maxLength: 3 })).chain(([items, repeats]) =>
      fc.tuple(...repeats.map((i) => resampled(value[i] ?? null))).map((extra) => [...items, ...extra]),
    )
  }
  const entries = Object.entries(value)
  return fc.tuple(...entries.map(([, item]) => resampled(item))).map((items) => Object.fromEntries(entries.map(([name], i) => [name, items[i] ?? null])))
}

const json = fc.jsonValue({ maxDepth: 4 }) as fc.Arbitrary<JsonValue>

describe('comparing success bodies (property)', () => {
  it('finds a JSON body the same as itself after any change of values that keeps its shape', () => {
    fc.assert(
      fc.property(
        json.chain((value) => fc.tuple(fc.constant(value), resampled(value))),
        ([value, again]) => {
          expect(compareAnswers(answer(200, value, TEAM), answer(200, again, SVC_MOCK))).toEqual([])
        },
      ),
      options(runs(300)),
    )
  })

  it('finds it different, at the path of the change, after a type changed, a member removed or a member added', () => {
    const change = json.chain((value) => {
      const paths = [...pathsOf(value).values()]
      return fc.tuple(fc.constant(value), fc.constantFrom(...paths), fc.constantFrom('kind', 'remove', 'add'), fc.constantFrom(...Object.keys(SAMPLES)))
    })
    fc.assert(
      fc.property(change, ([value, steps, how, kind]) => {
        const at = valuesAt(value, steps)
        let changed: JsonValue
        let where = text(steps)
        if (how === 'kind') {
          fc.pre(!at.some((v) => kindOf(v) === kind))
          changed = mapAt(value, steps, () => SAMPLES[kind] ?? null)
        } else if (how === 'remove') {
          const last = steps.at(-1)
          fc.pre(last !== undefined && last !== 'items')
          const name = typeof last === 'object' ? last.member : ''
          changed = mapAt(value, steps.slice(0, -1), (v) => (v !== null && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).filter(([n]) => n !== name)) : v))
        } else {
          fc.pre(at.length > 0 && at.every((v) => v !== null && typeof v === 'object' && !Array.isArray(v)))
          const fresh = `added-${Object.keys(Object.assign({}, ...at.map((v) => (typeof v === 'object' ? v : {})))).length}-member`
          changed = mapAt(value, steps, (v) => ({ ...(v as Record<string, JsonValue>), [fresh]: 1 }))
          where = member(where, fresh)
        }
        expect(compareAnswers(answer(200, changed, TEAM), answer(200, value, SVC_MOCK)).map((d) => d.at)).toEqual([where])
      }),
      options(runs(300)),
    )
  })
})

// Error bodies: strings made of words and of values each side has its own of.
type Fragment = { word: string } | { token: { team: string; svcMock: string } }
type Template = string | number | boolean | null | Fragment[] | Template[] | { [name: string]: Template }

const hex = (n: number): fc.Arbitrary<string> => fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: n, maxLength: n })
const uuid = fc.tuple(hex(8), hex(4), hex(4), hex(4), hex(12)).map((parts) => parts.join('-'))
const time = fc.date({ min: new Date('2000-01-01'), max: new Date('2099-12-31'), noInvalidDate: true }).map((d) => d.toISOString())
const jwt = fc.tuple(fc.base64String({ minLength: 4, maxLength: 12 }), fc.base64String({ minLength: 4, maxLength: 12 })).map(([a, b]) => `eyJ${a.replace(/[+/=]/g, 'x')}.${b.replace(/[+/=]/g, 'y')}.sig`)
const both = (arb: fc.Arbitrary<string>): fc.Arbitrary<Fragment> => fc.tuple(arb, arb).map(([team, svcMock]) => ({ token: { team, svcMock } }))
const fixed = (team: string, svcMock: string): fc.Arbitrary<Fragment> => fc.constant({ token: { team, svcMock } })
const fragment: fc.Arbitrary<Fragment> = fc.oneof(
  { weight: 4, arbitrary: fc.stringMatching(/^[a-z]{1,8}$/).map((word) => ({ word })) },
  both(uuid),
  both(time),
  both(jwt),
  fixed(`${TEAM.origins.base}/oauth2/token`, `${SVC_MOCK.origins.base}/oauth2/token`),
  fixed('S3CRET-T1', 'S3CRET-S2'),
  fixed('Coll-T1', 'Coll-S2'),
  fixed('Client-T1', 'Client-S2'),
)
const template: fc.Arbitrary<Template> = fc.letrec<{ node: Template }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.array(fragment, { minLength: 1, maxLength: 5 }),
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('node'), { maxLength: 3 }),
    fc.dictionary(fc.stringMatching(/^[a-z_]{1,6}$/), tie('node'), { maxKeys: 4 }),
  ),
})).node

const isFragments = (t: Template): t is Fragment[] => Array.isArray(t) && t.length > 0 && t.every((f) => f !== null && typeof f === 'object' && !Array.isArray(f) && ('word' in f || 'token' in f))

function render(t: Template, side: 'team' | 'svcMock'): JsonValue {
  if (isFragments(t)) return t.map((f) => ('word' in f ? f.word : f.token[side])).join(' ')
  if (Array.isArray(t)) return t.map((item) => render(item, side))
  if (t !== null && typeof t === 'object') return Object.fromEntries(Object.entries(t).map(([name, item]) => [name, render(item, side)]))
  return t
}

/** The concrete paths of the leaves a change can reach: strings with a word, numbers, booleans. */
function leaves(t: Template, path = '$'): Array<{ path: string; steps: Array<string | number> }> {
  if (isFragments(t)) return t.some((f) => 'word' in f) ? [{ path, steps: [] }] : []
  if (typeof t === 'number' || typeof t === 'boolean') return [{ path, steps: [] }]
  if (Array.isArray(t)) return t.flatMap((item, i) => leaves(item, `${path}[${i}]`).map((l) => ({ ...l, steps: [i, ...l.steps] })))
  if (t !== null && typeof t === 'object') return Object.entries(t).flatMap(([name, item]) => leaves(item, member(path, name)).map((l) => ({ ...l, steps: [name, ...l.steps] })))
  return []
}

function changeLeaf(t: Template, steps: ReadonlyArray<string | number>): Template {
  const [step, ...rest] = steps
  if (step === undefined) {
    if (isFragments(t)) {
      const i = t.findIndex((f) => 'word' in f)
      return t.map((f, j) => (j === i && 'word' in f ? { word: `${f.word}z` } : f))
    }
    return typeof t === 'number' ? t + 1 : typeof t === 'boolean' ? !t : t
  }
  if (Array.isArray(t) && typeof step === 'number') return t.map((item, i) => (i === step ? changeLeaf(item, rest) : item)) as Template
  if (t !== null && typeof t === 'object' && !Array.isArray(t)) return Object.fromEntries(Object.entries(t).map(([name, item]) => [name, name === step ? changeLeaf(item, rest) : item]))
  return t
}

describe('comparing error bodies (property)', () => {
  it('finds an error body the same when only ids, times, tokens, addresses, secrets, the element and the client differ', () => {
    fc.assert(
      fc.property(template, (t) => {
        expect(compareAnswers(answer(400, render(t, 'team'), TEAM), answer(400, render(t, 'svcMock'), SVC_MOCK))).toEqual([])
      }),
      options(runs(300)),
    )
  })

  it('finds it different, at the member where it is, when a word of a message, a number or a boolean changed', () => {
    const changed = template.chain((t) => {
      const all = leaves(t)
      return all.length === 0 ? fc.constant(undefined) : fc.tuple(fc.constant(t), fc.constantFrom(...all))
    })
    fc.assert(
      fc.property(changed, (pair) => {
        fc.pre(pair !== undefined)
        const [t, leaf] = pair ?? [null, { path: '', steps: [] }]
        const diffs = compareAnswers(answer(400, render(changeLeaf(t, leaf.steps), 'team'), TEAM), answer(400, render(t, 'svcMock'), SVC_MOCK))
        expect(diffs.map((d) => d.at)).toEqual([leaf.path])
      }),
      options(runs(300)),
    )
  })
})
