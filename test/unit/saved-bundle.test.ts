/** A webhook call's bundle in a saved state: JSON, with file bytes and numbers JSON cannot carry written as text, read back as they were. */
import { describe, expect, it } from 'vitest'
import { SavedBundle, readBundle, saveBundle } from '../../src/webhooks/saved-bundle.js'

const roundTrip = (bundle: Record<string, unknown>): Record<string, unknown> => readBundle(SavedBundle.parse(JSON.parse(JSON.stringify(saveBundle(bundle)))))

describe('a saved bundle', () => {
  it('keeps file bytes, numbers JSON has no form for, and members named __proto__ or holding "/" and "~", in their order', () => {
    const proto = JSON.parse('{"__proto__": {"polluted": true}, "x": 1}') as Record<string, unknown>
    const bundle: Record<string, unknown> = {
      files: [{ name: 'a.bin', mime: 'application/octet-stream', data: Buffer.from([0, 255, 7]) }],
      big: Number.POSITIVE_INFINITY,
      small: Number.NEGATIVE_INFINITY,
      none: Number.NaN,
      zero: -0,
      'a/b~c': { deep: [1, Buffer.from('hi')] },
      proto,
    }
    const back = roundTrip(bundle)
    expect(Object.keys(back)).toEqual(Object.keys(bundle))
    expect(back.files).toEqual(bundle.files)
    expect(Buffer.isBuffer((back.files as Array<{ data: unknown }>)[0]?.data)).toBe(true)
    expect([back.big, back.small, back.none]).toEqual([Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, Number.NaN])
    expect(Object.is(back.zero, -0)).toBe(true)
    expect(back['a/b~c']).toEqual({ deep: [1, Buffer.from('hi')] })
    expect(Object.keys(back.proto as object)).toEqual(['__proto__', 'x'])
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })

  it('writes a JSON bundle as it is, and neither writing nor reading changes the value it is given', () => {
    const plain = { orderId: 'o-1', n: 2 }
    expect(saveBundle(plain)).toEqual({ value: plain })
    const withBytes = { data: Buffer.from([1]) }
    const written = saveBundle(withBytes)
    expect(Buffer.isBuffer(withBytes.data)).toBe(true)
    const parsed = SavedBundle.parse(JSON.parse(JSON.stringify(written)))
    readBundle(parsed)
    expect(parsed.value.data).toBe('AQ==')
  })

  it('refuses a pointer that leads nowhere or to a value that is not text', () => {
    expect(() => readBundle({ value: { a: 1 }, special: [['/b', 'bytes']] })).toThrow(/no member "b"/)
    expect(() => readBundle({ value: { a: 1 }, special: [['/a', 'number']] })).toThrow(/not text/)
  })
})
