/**
 * HeaderFields stands in for Fetch `Headers` wherever the emulator makes headers itself (a socket
 * request's, every reply's): whatever is done to it, a route or a transport must see exactly what
 * undici's `Headers` would show. Checked operation by operation against undici on random sequences.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { HeaderFields } from '../../src/kernel/headers.js'

const name = fc.constantFrom('Content-Type', 'content-type', 'Set-Cookie', 'set-cookie', 'X-A', 'x-a', 'Accept', 'WWW-Authenticate', '__proto__', 'bad name', 'é', '')
const value = fc.constantFrom('a', ' padded\t', 'x=1; Path=/', '', 'b, c', 'line\nbreak', 'nul\0', 'ünï', '\r\n')
const op = fc.oneof(
  fc.record({ kind: fc.constant('append' as const), name, value }),
  fc.record({ kind: fc.constant('set' as const), name, value }),
  fc.record({ kind: fc.constant('delete' as const), name }),
  fc.record({ kind: fc.constant('get' as const), name }),
  fc.record({ kind: fc.constant('has' as const), name }),
)

type Op = { kind: 'append' | 'set'; name: string; value: string } | { kind: 'delete' | 'get' | 'has'; name: string }

function apply(headers: Headers, o: Op): unknown {
  try {
    switch (o.kind) {
      case 'append':
        return headers.append(o.name, o.value)
      case 'set':
        return headers.set(o.name, o.value)
      case 'delete':
        return headers.delete(o.name)
      case 'get':
        return headers.get(o.name)
      case 'has':
        return headers.has(o.name)
    }
  } catch (error) {
    return error instanceof TypeError ? 'TypeError' : error
  }
}

function view(headers: Headers): unknown {
  const each: Array<[string, string]> = []
  headers.forEach((v, k) => each.push([k, v]))
  return { entries: [...headers.entries()], iterated: [...headers], each, keys: [...headers.keys()], values: [...headers.values()], cookies: headers.getSetCookie() }
}

describe('HeaderFields', () => {
  it('answers every operation as undici Headers does, and shows the same entries after each', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 25 }), (ops) => {
        const ours = new HeaderFields()
        const fetchs = new Headers()
        for (const o of ops) {
          expect(apply(ours, o)).toEqual(apply(fetchs, o))
          expect(view(ours)).toEqual(view(fetchs))
        }
      }),
      { numRuns: 500 },
    )
  })

  it('reads node:http raw headers as undici would (names without case, repeats joined)', () => {
    const raw = ['Host', '127.0.0.1:4010', 'Accept', 'a', 'ACCEPT', 'b', 'Set-Cookie', 'x=1', 'set-cookie', 'y=2', 'Content-Type', 'application/json']
    const fetchs = new Headers()
    for (let i = 0; i < raw.length; i += 2) fetchs.append(raw[i] as string, raw[i + 1] as string)
    const ours = HeaderFields.fromRaw(raw)
    expect(view(ours)).toEqual(view(fetchs))
    expect(ours.get('accept')).toBe('a, b')
  })

  it('gives node:http its fields as added, unless a name other than Set-Cookie repeats (Fetch joins those)', () => {
    const fields = new HeaderFields()
    fields.set('Content-Type', 'text/plain')
    fields.append('Set-Cookie', 'a=1')
    fields.append('set-cookie', 'b=2')
    fields.set('X-A', 'x')
    expect(fields.flat()).toEqual(['content-type', 'text/plain', 'set-cookie', 'a=1', 'set-cookie', 'b=2', 'x-a', 'x'])
    fields.append('x-a', 'y')
    expect(fields.flat()).toBeUndefined()
    expect(fields.get('x-a')).toBe('x, y')
  })

  it('gives a Fetch Response the same headers as a record as it does as pairs, and no record when a name repeats', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 12 }), (ops) => {
        const ours = new HeaderFields()
        for (const o of ops) apply(ours, o)
        const record = ours.record()
        const names = ours.fields().filter((_, i) => i % 2 === 0)
        expect(record === undefined).toBe(new Set(names).size !== names.length || names.includes('__proto__'))
        if (record !== undefined) expect(view(new Response(null, { headers: record }).headers)).toEqual(view(new Response(null, { headers: ours }).headers))
      }),
      { numRuns: 500 },
    )
    // undici copies a record into a plain object, where "__proto__" is lost: no record for it.
    const odd = new HeaderFields()
    odd.set('constructor', 'y')
    odd.set('hasOwnProperty', 'z')
    expect(new Response(null, { headers: odd.record() }).headers.get('hasownproperty')).toBe('z')
    odd.set('__proto__', 'x')
    expect(odd.record()).toBeUndefined()
    expect(new Response(null, { headers: odd.record() ?? odd }).headers.get('__proto__')).toBe('x')
  })

  it('is taken by a Fetch Response as its headers', async () => {
    const ours = new HeaderFields()
    ours.append('Set-Cookie', 'a=1')
    ours.append('set-cookie', 'b=2')
    ours.set('Content-Type', 'text/plain')
    const response = new Response('hi', { headers: ours })
    expect(response.headers.getSetCookie()).toEqual(['a=1', 'b=2'])
    expect(response.headers.get('content-type')).toBe('text/plain')
    expect(await response.text()).toBe('hi')
  })
})
