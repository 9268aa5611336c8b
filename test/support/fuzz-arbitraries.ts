/**
 * Generators shared by the fuzz suite: hostile text (non-ASCII, control characters, percent
 * signs, prototype keys), Latin-1 header values, JSON of any shape including pathological
 * nesting and numbers, and `$filter` expressions (as trees, printed in any style, as token soup,
 * as deep parentheses or long chains). Deep or long inputs are generated as small descriptions
 * (`{depth: 3000}`) and built in the property, so a failure prints a readable counterexample.
 */
import fc from 'fast-check'

/** Text that has broken emulators before. */
export const NASTY = [
  '€',
  '日本',
  'é€',
  'é',
  '😀',
  'ß',
  '\u0000',
  '\u0007',
  '\r\n',
  '\n',
  '\t',
  ' ',
  '%',
  '%E2%82',
  '%zz',
  '%2F',
  '%00',
  '..',
  '.',
  '/',
  '\\',
  '\u2028',
  '\uFEFF',
  '\uD800',
  '\uDFFF',
  '"',
  "'",
  "''",
  '<script>',
  '${x}',
  '+',
  '&',
  '=',
  '?',
  '#',
  ';',
  ',',
  ':',
  'null',
  'undefined',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
] as const

/** Any text, weighted towards the nasty. */
export function weirdText(maxLength = 24): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 3, arbitrary: fc.string({ maxLength }) },
    { weight: 3, arbitrary: fc.string({ unit: 'grapheme', maxLength }) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength }) },
    { weight: 3, arbitrary: fc.constantFrom(...NASTY) },
    { weight: 2, arbitrary: fc.array(fc.constantFrom(...NASTY, 'a', 'b', '1'), { maxLength: 5 }).map((parts) => parts.join('')) },
  )
}

/** `arbitrary`'s value one time in `oneIn`, else undefined (fc.option's `freq` is the other way round). */
export function sometimes<T>(arbitrary: fc.Arbitrary<T>, oneIn: number): fc.Arbitrary<T | undefined> {
  return fc.oneof({ weight: oneIn - 1, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary })
}

/** A value from `known`, or hostile text. */
export function knownOr(known: readonly string[], weightKnown = 4, maxLength = 24): fc.Arbitrary<string> {
  return fc.oneof({ weight: weightKnown, arbitrary: fc.constantFrom(...known) }, { weight: 1, arbitrary: weirdText(maxLength) })
}

const latin1Char = fc.oneof(fc.integer({ min: 0x20, max: 0x7e }), fc.integer({ min: 0xa0, max: 0xff })).map((c) => String.fromCharCode(c))

/** Text a header value can carry on both transports (fetch and node:http): printable Latin-1. */
export function latin1Text(maxLength = 24): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 3, arbitrary: fc.string({ unit: latin1Char, maxLength }) },
    { weight: 1, arbitrary: fc.constantFrom('é', 'ÿ', 'Ã©', 'â\u0082¬', '\u00a0x') },
  )
}

/** UTF-8 text as the Latin-1 string node:http would read its bytes as (raw header bytes). */
export function utf8AsLatin1(text: string): string {
  return Buffer.from(text, 'utf8').toString('latin1')
}

/** encodeURIComponent that never throws: a lone surrogate becomes U+FFFD, as the URL parser makes it. */
export function encodeText(text: string): string {
  return encodeURIComponent(wellFormed(text))
}

export function wellFormed(text: string): string {
  return text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD')
}

/** Numbers that break date and size arithmetic, as JSON text (some are not representable). */
export const HUGE_NUMBER_TEXT = [
  '1e16',
  '8.64e15',
  '8640000000000001',
  '1e308',
  '1.7976931348623157e308',
  '-1e308',
  '1e400',
  '-1e400',
  '9007199254740993',
  '123456789012345678901234567890',
  '5e-324',
  '-0',
  '0.1',
  '-1',
  '2147483648',
  '4294967296',
] as const

export function hugeNumber(): fc.Arbitrary<number> {
  return fc.oneof(
    fc.constantFrom(...HUGE_NUMBER_TEXT.map(Number).filter(Number.isFinite)),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.integer(),
    fc.maxSafeInteger(),
  )
}

// --- JSON ----------------------------------------------------------------------------------------

/** A JSON body, described: a value, a value nested `depth` levels deep, or text that is not JSON. */
export type JsonSpec =
  | { kind: 'value'; value: unknown }
  | { kind: 'deep'; depth: number; shape: 'array' | 'object' | 'mixed'; key: string; leaf: string }
  | { kind: 'text'; text: string }

export const DEPTH_LIMIT = 256

/** Depth that must pass (well under the limit) or must be refused (well over it). */
export function nestingDepth(): fc.Arbitrary<number> {
  return fc.oneof(
    { weight: 2, arbitrary: fc.integer({ min: 1, max: 200 }) },
    // Unbiased: fast-check favours small integers in its first runs, and the deep ones matter here.
    { weight: 2, arbitrary: fc.noBias(fc.integer({ min: 300, max: 6000 })) },
    { weight: 1, arbitrary: fc.constantFrom(300, 1000, 3000, 6000) },
  )
}

export function jsonSpec(): fc.Arbitrary<JsonSpec> {
  return fc.oneof(
    { weight: 5, arbitrary: fc.jsonValue({ maxDepth: 4 }).map((value) => ({ kind: 'value' as const, value })) },
    {
      weight: 2,
      arbitrary: fc.record({
        kind: fc.constant('deep' as const),
        depth: nestingDepth(),
        shape: fc.constantFrom('array' as const, 'object' as const, 'mixed' as const),
        key: knownOr(['a', 'orderId', 'value', '__proto__'], 3, 8),
        leaf: fc.constantFrom('1', '"x"', 'null', '{}', '[]', 'true', '1e400'),
      }),
    },
    {
      weight: 1,
      arbitrary: fc.oneof(
        fc.constantFrom(...HUGE_NUMBER_TEXT),
        fc.constantFrom('{', '[', '{"a":', '{"a":1,}', "{'a':1}", 'NaN', '\uFEFF{}', '{"a":1}{"b":2}', '', ' ', 'nul', '"\\ud800"', '{"__proto__":{"polluted":1}}'),
        weirdText(40),
      ).map((text) => ({ kind: 'text' as const, text })),
    },
  )
}

/** The JSON text of a spec (deep ones built without recursion). */
export function jsonText(spec: JsonSpec): string {
  if (spec.kind === 'text') return spec.text
  if (spec.kind === 'value') return JSON.stringify(spec.value) ?? 'null'
  return deepJson(spec.depth, spec.shape, spec.key, spec.leaf)
}

export function deepJson(depth: number, shape: 'array' | 'object' | 'mixed', key = 'a', leaf = '1'): string {
  const k = JSON.stringify(key)
  let open = ''
  let close = ''
  for (let i = 0; i < depth; i++) {
    const array = shape === 'array' || (shape === 'mixed' && i % 2 === 1)
    open += array ? '[' : `{${k}:`
    close = (array ? ']' : '}') + close
  }
  return `${open}${leaf}${close}`
}

/** The nesting depth of JSON text (containers), without recursion; undefined when it is not JSON. */
export function jsonDepth(text: string): number | undefined {
  try {
    JSON.parse(text)
  } catch {
    return undefined
  }
  let depth = 0
  let max = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text[i]
    if (inString) {
      if (c === '\\') i++
      else if (c === '"') inString = false
    } else if (c === '"') inString = true
    else if (c === '{' || c === '[') max = Math.max(max, ++depth)
    else if (c === '}' || c === ']') depth--
  }
  return max
}

// --- $filter -------------------------------------------------------------------------------------

export type Literal = string | number | boolean | null

/**
 * A `$filter` tree. Generated trees are binary (`left`, `right`); the parser's own tree
 * (src/versions/filter.ts `FilterNode`) may be binary or keep AND/OR chains as flat `items`
 * lists, so everything here reads both, and compares trees in `canonical` form.
 */
export type FilterTree =
  | { kind: 'and' | 'or'; left: FilterTree; right: FilterTree }
  | { kind: 'and' | 'or'; items: FilterTree[] }
  | { kind: 'compare'; op: 'eq' | 'ne'; field: string; value: Literal }
  | { kind: 'function'; name: 'contains' | 'startswith' | 'endswith'; field: string; value: string }
  | { kind: 'isnull'; field: string }

export const FILTER_FIELDS = ['state', 'type', 'stereotype', 'id', 'versionId', 'name', 'version', 'isReleased', 'attributes', 'authorNote', 'validFrom'] as const

/** A field name the tokenizer reads as one identifier, and not the keyword NOT. */
export const filterField: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...FILTER_FIELDS) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom(...'abcxyzABC_$'), fc.string({ unit: fc.constantFrom(...'abz09_.$AZ'), maxLength: 8 }))
      .map(([head, tail]) => head + tail)
      .filter((name) => name.toUpperCase() !== 'NOT'),
  },
)

/** Numbers the tokenizer reads back exactly: digits with an optional fraction, no exponent. */
const filterNumber: fc.Arbitrary<number> = fc.oneof(
  fc.integer({ min: -1_000_000, max: 1_000_000 }),
  fc.tuple(fc.integer({ min: -9999, max: 9999 }), fc.integer({ min: 1, max: 999 })).map(([i, f]) => Number(`${i}.${f}`)),
).filter((n) => !Object.is(n, -0) && /^-?\d+(\.\d+)?$/.test(String(n)))

const filterLiteral: fc.Arbitrary<Literal> = fc.oneof(weirdText(16), filterNumber, fc.boolean(), fc.constant(null))

export const filterTree: fc.Arbitrary<FilterTree> = fc.letrec<{ node: FilterTree }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.record({ kind: fc.constant('compare' as const), op: fc.constantFrom('eq' as const, 'ne' as const), field: filterField, value: filterLiteral }),
    fc.record({ kind: fc.constant('function' as const), name: fc.constantFrom('contains' as const, 'startswith' as const, 'endswith' as const), field: filterField, value: weirdText(16) }),
    fc.record({ kind: fc.constant('isnull' as const), field: filterField }),
    fc.record({ kind: fc.constantFrom('and' as const, 'or' as const), left: tie('node'), right: tie('node') }),
  ),
})).node

/** How a tree is written: keyword case, spacing, quote character, redundant parentheses. */
export interface FilterStyle {
  upper: boolean
  space: string
  quote: "'" | '"'
  extraParens: boolean
}

export const filterStyle: fc.Arbitrary<FilterStyle> = fc.record({
  upper: fc.boolean(),
  space: fc.constantFrom(' ', '  ', '\t', ' \n '),
  quote: fc.constantFrom("'" as const, '"' as const),
  extraParens: fc.boolean(),
})

const FUNCTION_SPELLING = { contains: 'contains', startswith: 'StartsWith', endswith: 'EndsWith' } as const

/** The operands of an AND or OR node, binary or flat. */
export function operands(node: Extract<FilterTree, { kind: 'and' | 'or' }>): FilterTree[] {
  return 'items' in node ? node.items : [node.left, node.right]
}

/**
 * The tree with AND and OR chains flattened into `items` lists (both associate, so
 * `a AND (b AND c)` and `(a AND b) AND c` mean the same): the form two trees are compared in.
 */
export function canonical(node: FilterTree): FilterTree {
  if (node.kind !== 'and' && node.kind !== 'or') return node
  const items: FilterTree[] = []
  for (const operand of operands(node).map(canonical)) {
    if (operand.kind === node.kind && 'items' in operand) items.push(...operand.items)
    else items.push(operand)
  }
  return { kind: node.kind, items }
}

/**
 * Prints a tree in the platform's `$filter` syntax so that parsing the text gives an equivalent
 * tree back (equal in `canonical` form). AND binds tighter than OR and both associate to the
 * left, so an OR under an AND, and a later operand of the same operator, are parenthesized.
 */
export function printFilter(node: FilterTree, style: FilterStyle = { upper: true, space: ' ', quote: "'", extraParens: false }): string {
  const s = style.space
  const kw = (word: string): string => (style.upper ? word.toUpperCase() : word.toLowerCase())
  const text = (value: string): string => `${style.quote}${value.split(style.quote).join(style.quote + style.quote)}${style.quote}`
  const literal = (value: Literal): string => {
    if (typeof value === 'string') return text(value)
    if (value === null) return kw('null')
    return String(value)
  }
  const paren = (inner: string): string => `(${s}${inner}${s})`
  const print = (n: FilterTree): string => {
    switch (n.kind) {
      case 'compare':
        return `${n.field}${s}-${style.upper ? n.op.toUpperCase() : n.op}${s}${literal(n.value)}`
      case 'function':
        return `${FUNCTION_SPELLING[n.name]}(${n.field},${s}${text(n.value)})`
      case 'isnull':
        return `IsNull(${s}${n.field}${s})`
      case 'and':
      case 'or': {
        const parts = operands(n).map((operand, i) => {
          const nested = operand.kind === 'and' || operand.kind === 'or'
          const needs = nested && ((n.kind === 'and' && operand.kind === 'or') || (operand.kind === n.kind && i > 0))
          return needs ? paren(print(operand)) : print(operand)
        })
        const joined = parts.join(`${s}${kw(n.kind)}${s}`)
        return style.extraParens ? paren(joined) : joined
      }
    }
  }
  return print(node)
}

/** The depth of a tree, without recursion. */
export function treeDepth(root: FilterTree): number {
  let max = 0
  const stack: Array<[FilterTree, number]> = [[root, 1]]
  while (stack.length > 0) {
    const [node, depth] = stack.pop() as [FilterTree, number]
    max = Math.max(max, depth)
    if (node.kind === 'and' || node.kind === 'or') for (const operand of operands(node)) stack.push([operand, depth + 1])
  }
  return max
}

/** A `$filter` value, described. */
export type FilterSpec =
  | { kind: 'tree'; tree: FilterTree; style: FilterStyle }
  | { kind: 'tokens'; tokens: string[] }
  | { kind: 'parens'; depth: number; inner: string }
  | { kind: 'chain'; clauses: number; op: 'AND' | 'OR' }
  | { kind: 'text'; text: string }

const FILTER_TOKENS = ['(', ')', ',', 'AND', 'OR', 'NOT', 'and', '-eq', '-ne', '-lt', '-EQ', '-', "'x'", "'", '"', "'O''Brien'", '1', '-1', '1.5', '1e5', 'true', 'null', 'contains', 'StartsWith', 'EndsWith', 'IsNull', 'eq', 'name', 'state', 'attributes', '€', '日本', '~', '$', '.', ' ']

export function filterSpec(): fc.Arbitrary<FilterSpec> {
  return fc.oneof(
    { weight: 4, arbitrary: fc.record({ kind: fc.constant('tree' as const), tree: filterTree, style: filterStyle }) },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('tokens' as const), tokens: fc.array(fc.oneof(fc.constantFrom(...FILTER_TOKENS), weirdText(6)), { maxLength: 12 }) }) },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('parens' as const), depth: nestingDepth(), inner: fc.constantFrom("name -eq 'Order to Cash'", "state -ne 'expired'", 'IsNull(x)', '') }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('chain' as const), clauses: fc.oneof(fc.integer({ min: 2, max: 300 }), fc.noBias(fc.integer({ min: 1000, max: 20_000 }))), op: fc.constantFrom('AND' as const, 'OR' as const) }) },
    { weight: 1, arbitrary: weirdText(40).map((text) => ({ kind: 'text' as const, text })) },
  )
}

export function filterText(spec: FilterSpec): string {
  switch (spec.kind) {
    case 'tree':
      return printFilter(spec.tree, spec.style)
    case 'tokens':
      return spec.tokens.join(' ')
    case 'parens':
      return `${'('.repeat(spec.depth)}${spec.inner}${')'.repeat(spec.depth)}`
    case 'chain':
      return Array.from({ length: spec.clauses }, (_, i) => `state -ne 'x${i}'`).join(` ${spec.op} `)
    case 'text':
      return spec.text
  }
}

/** Parenthesis nesting of a filter text (outside quotes), without recursion. */
export function parenDepth(text: string): number {
  let depth = 0
  let max = 0
  let quote: string | undefined
  for (const c of text) {
    if (quote) {
      if (c === quote) quote = undefined
    } else if (c === "'" || c === '"') quote = c
    else if (c === '(') max = Math.max(max, ++depth)
    else if (c === ')') depth = Math.max(0, depth - 1)
  }
  return max
}
