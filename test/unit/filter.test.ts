/** $filter: parsing (precedence, errors) and evaluation against version records. */
import { describe, expect, it } from 'vitest'
import { FilterError, matchesFilter, parseFilter } from '../../src/versions/filter.js'
import type { ElementJson } from '../../src/versions/render.js'

const record = (attributes: Record<string, Record<string, unknown>>, state = 'released'): ElementJson => ({
  facetName: 'processes',
  id: 'e',
  versionId: 'v',
  type: 'process',
  state,
  attributes,
  related: {},
})

describe('parseFilter', () => {
  it('binds AND tighter than OR', () => {
    expect(parseFilter("a -eq '1' OR b -eq '2' AND c -eq '3'")).toEqual({
      kind: 'or',
      items: [
        { kind: 'compare', op: 'eq', field: 'a', value: '1' },
        {
          kind: 'and',
          items: [
            { kind: 'compare', op: 'eq', field: 'b', value: '2' },
            { kind: 'compare', op: 'eq', field: 'c', value: '3' },
          ],
        },
      ],
    })
  })

  it('keeps a long AND chain flat, so evaluating 20,000 terms needs no deep recursion', () => {
    const source = Array.from({ length: 20_000 }, (_, i) => `n${i} -ne 'x'`).join(' AND ')
    const tree = parseFilter(source)
    expect(tree).toMatchObject({ kind: 'and' })
    expect(matchesFilter(tree, record({}))).toBe(true)
  })

  it('parentheses nest up to 256 levels; deeper is a FilterError naming the limit', () => {
    const nested = (n: number): string => `${'('.repeat(n)}a -eq '1'${')'.repeat(n)}`
    expect(parseFilter(nested(256))).toEqual({ kind: 'compare', op: 'eq', field: 'a', value: '1' })
    expect(() => parseFilter(nested(257))).toThrow(/nest deeper than 256 levels \(the limit\)/)
    expect(() => parseFilter(nested(3000))).toThrow(FilterError)
  })

  it("reads '' inside a text as one quote", () => {
    expect(parseFilter("name -eq 'O''Brien'")).toEqual({ kind: 'compare', op: 'eq', field: 'name', value: "O'Brien" })
  })

  it.each([
    ['', 'Invalid $filter: the expression is empty.'],
    ['name -eq', 'Invalid $filter: -eq needs a quoted text, a number, true, false or null at the end.'],
    ["name 'x'", 'Invalid $filter: expected an operator such as -eq after "name" at position 6.'],
    ["name -eq 'x' 'y'", `Invalid $filter: unexpected "'y'" at position 14.`],
    ["name -eq 'x", 'Invalid $filter: the text starting at position 10 has no closing quote.'],
    ["name -lt 'x'", 'The operator -lt is currently not supported'],
    ["name ~ 'x'", 'The operator ~ is currently not supported'],
  ])('%s -> %s', (source, message) => {
    expect(() => parseFilter(source)).toThrow(FilterError)
    expect(() => parseFilter(source)).toThrow(message)
  })
})

describe('matchesFilter', () => {
  const r = record({ name: { '1031': 'Rechnung prüfen', '1033': 'Check invoice' }, isReleased: { '127': true }, version: { '127': '2.0' }, empty: { '127': '  ' } })

  it.each([
    ["name -eq 'Check invoice'", true],
    ["name -eq 'Rechnung prüfen'", true],
    ["name -eq 'check invoice'", false],
    ["name -ne 'Check invoice'", false],
    ["missing -ne 'x'", true],
    ["missing -eq 'x'", false],
    ['isReleased -eq true', true],
    ['isReleased -eq false', false],
    ['version -eq 2', true],
    ["contains(attributes,'prüfen')", true],
    ["contains(name,'voice')", true],
    ["startswith(name,'Check')", true],
    ["ENDSWITH(name,'Check')", false],
    ['IsNull(empty)', true],
    ['IsNull(missing)', true],
    ['IsNull(name)', false],
    ["state -eq 'released' AND (version -eq '1.0' OR version -eq '2.0')", true],
    ["type -eq 'process' AND id -eq 'e' AND versionId -eq 'v'", true],
  ])('%s is %s', (source, expected) => {
    expect(matchesFilter(parseFilter(source), r)).toBe(expected)
  })
})
