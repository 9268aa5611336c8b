/**
 * `$filter` in the platform's syntax:
 *
 *   name -eq 'Order to Cash' AND (state -ne 'expired' OR contains(attributes,'cash'))
 *
 * Comparisons `-eq` and `-ne`; functions `contains`, `StartsWith`, `EndsWith` (field, text) and
 * `IsNull` (field), names case-insensitive; `AND`, `OR` and parentheses. A field is `state`,
 * `type`, `stereotype`, `id`, `versionId`, an attribute name (matches when any of its language
 * values does), or `attributes` (any value of any attribute). Text comparisons are exact.
 * Any other operator or function answers 400 `The operator X is currently not supported`.
 * `AND` and `OR` chains are flat lists, so only parentheses nest, and no deeper than the one
 * nesting limit: a `$filter` of 3,000 nested parentheses is a 400 naming the limit, never a stack
 * overflow.
 */
import { MAX_NESTING } from '../kernel/constants.js'
import type { ElementJson } from './render.js'

export class FilterError extends Error {}

type Literal = string | number | boolean | null

export type FilterNode =
  | { kind: 'and' | 'or'; items: FilterNode[] }
  | { kind: 'compare'; op: 'eq' | 'ne'; field: string; value: Literal }
  | { kind: 'function'; name: 'contains' | 'startswith' | 'endswith'; field: string; value: string }
  | { kind: 'isnull'; field: string }

type Token =
  | { type: 'ident'; value: string; pos: number }
  | { type: 'op'; value: string; pos: number }
  | { type: 'string'; value: string; pos: number }
  | { type: 'number'; value: number; pos: number }
  | { type: 'punct'; value: '(' | ')' | ','; pos: number }

const FUNCTIONS = new Set(['contains', 'startswith', 'endswith', 'isnull'])
const ELEMENT_FIELDS = new Set(['state', 'type', 'stereotype', 'id', 'versionId'])

export function parseFilter(source: string): FilterNode {
  const tokens = tokenize(source)
  let i = 0
  const peek = (): Token | undefined => tokens[i]
  const next = (): Token | undefined => tokens[i++]
  const where = (t: Token | undefined): string => (t ? `at position ${t.pos + 1}` : 'at the end')

  const expectPunct = (value: '(' | ')' | ','): void => {
    const t = next()
    if (t?.type !== 'punct' || t.value !== value) throw new FilterError(`Invalid $filter: expected "${value}" ${where(t)}.`)
  }

  const parseOr = (depth: number): FilterNode => {
    const items = [parseAnd(depth)]
    for (let t = peek(); t?.type === 'ident' && t.value.toUpperCase() === 'OR'; t = peek()) {
      next()
      items.push(parseAnd(depth))
    }
    return items.length === 1 && items[0] ? items[0] : { kind: 'or', items }
  }

  const parseAnd = (depth: number): FilterNode => {
    const items = [parsePrimary(depth)]
    for (let t = peek(); t?.type === 'ident' && t.value.toUpperCase() === 'AND'; t = peek()) {
      next()
      items.push(parsePrimary(depth))
    }
    return items.length === 1 && items[0] ? items[0] : { kind: 'and', items }
  }

  const parsePrimary = (depth: number): FilterNode => {
    const t = next()
    if (!t) throw new FilterError('Invalid $filter: expected a condition at the end.')
    if (t.type === 'punct' && t.value === '(') {
      if (depth >= MAX_NESTING) throw new FilterError(`Invalid $filter: parentheses nest deeper than ${MAX_NESTING} levels (the limit) ${where(t)}.`)
      const inner = parseOr(depth + 1)
      expectPunct(')')
      return inner
    }
    if (t.type !== 'ident') throw new FilterError(`Invalid $filter: expected a field or function ${where(t)}.`)
    if (t.value.toUpperCase() === 'NOT') throw new FilterError('The operator NOT is currently not supported')
    const after = peek()
    if (after?.type === 'punct' && after.value === '(') {
      const name = t.value.toLowerCase()
      if (!FUNCTIONS.has(name)) throw new FilterError(`The operator ${t.value} is currently not supported`)
      next()
      const field = next()
      if (field?.type !== 'ident') throw new FilterError(`Invalid $filter: ${t.value}() needs a field name ${where(field)}.`)
      if (name === 'isnull') {
        expectPunct(')')
        return { kind: 'isnull', field: field.value }
      }
      expectPunct(',')
      const value = next()
      if (value?.type !== 'string') throw new FilterError(`Invalid $filter: ${t.value}() needs a quoted text as its second argument ${where(value)}.`)
      expectPunct(')')
      return { kind: 'function', name: name as 'contains' | 'startswith' | 'endswith', field: field.value, value: value.value }
    }
    const op = next()
    if (!op) throw new FilterError(`Invalid $filter: expected an operator after "${t.value}" at the end.`)
    if (op.type === 'op') {
      const name = op.value.toLowerCase()
      if (name !== '-eq' && name !== '-ne') throw new FilterError(`The operator ${op.value} is currently not supported`)
      return { kind: 'compare', op: name === '-eq' ? 'eq' : 'ne', field: t.value, value: literal(next(), op) }
    }
    if (op.type === 'ident' && !['AND', 'OR'].includes(op.value.toUpperCase())) {
      throw new FilterError(`The operator ${op.value} is currently not supported`)
    }
    throw new FilterError(`Invalid $filter: expected an operator such as -eq after "${t.value}" ${where(op)}.`)
  }

  const literal = (t: Token | undefined, op: Token): Literal => {
    if (t?.type === 'string') return t.value
    if (t?.type === 'number') return t.value
    if (t?.type === 'ident') {
      const word = t.value.toLowerCase()
      if (word === 'true') return true
      if (word === 'false') return false
      if (word === 'null') return null
    }
    throw new FilterError(`Invalid $filter: ${op.value} needs a quoted text, a number, true, false or null ${where(t)}.`)
  }

  if (source.trim() === '') throw new FilterError('Invalid $filter: the expression is empty.')
  const tree = parseOr(0)
  const rest = peek()
  if (rest) throw new FilterError(`Invalid $filter: unexpected "${tokenText(rest)}" ${where(rest)}.`)
  return tree
}

function tokenText(t: Token): string {
  return t.type === 'string' ? `'${t.value}'` : String(t.value)
}

function tokenize(source: string): Token[] {
  const tokens: Token[] = []
  let i = 0
  while (i < source.length) {
    const c = source[i] ?? ''
    if (/\s/.test(c)) {
      i++
      continue
    }
    const pos = i
    if (c === '(' || c === ')' || c === ',') {
      tokens.push({ type: 'punct', value: c, pos })
      i++
    } else if (c === "'" || c === '"') {
      let value = ''
      i++
      for (;;) {
        if (i >= source.length) throw new FilterError(`Invalid $filter: the text starting at position ${pos + 1} has no closing quote.`)
        const ch = source[i] ?? ''
        if (ch === c) {
          if (source[i + 1] === c) {
            value += c
            i += 2
            continue
          }
          i++
          break
        }
        value += ch
        i++
      }
      tokens.push({ type: 'string', value, pos })
    } else if (c === '-' && /[A-Za-z]/.test(source[i + 1] ?? '')) {
      const m = /^-[A-Za-z]+/.exec(source.slice(i))?.[0] ?? '-'
      tokens.push({ type: 'op', value: m, pos })
      i += m.length
    } else if (/[-0-9]/.test(c)) {
      const m = /^-?\d+(\.\d+)?/.exec(source.slice(i))?.[0]
      if (!m) throw new FilterError(`Invalid $filter: unexpected "${c}" at position ${pos + 1}.`)
      tokens.push({ type: 'number', value: Number(m), pos })
      i += m.length
    } else if (/[A-Za-z_$]/.test(c)) {
      const m = /^[A-Za-z_$][A-Za-z0-9_.$]*/.exec(source.slice(i))?.[0] ?? c
      tokens.push({ type: 'ident', value: m, pos })
      i += m.length
    } else {
      throw new FilterError(`The operator ${/^\S+/.exec(source.slice(i))?.[0] ?? c} is currently not supported`)
    }
  }
  return tokens
}

type Attributes = Record<string, Record<string, unknown>>

/** The values a field has on one version: one for element fields, one per language for attributes. */
function valuesOf(element: ElementJson, field: string): unknown[] {
  if (ELEMENT_FIELDS.has(field)) {
    const value = element[field]
    return value === undefined ? [] : [value]
  }
  const attributes = (element.attributes ?? {}) as Attributes
  if (field === 'attributes') return Object.values(attributes).flatMap((byLanguage) => Object.values(byLanguage))
  const attribute = attributes[field]
  return attribute === undefined ? [] : Object.values(attribute)
}

function equals(value: unknown, literal: Literal): boolean {
  if (literal === null) return value === null || value === undefined
  if (typeof literal === 'boolean') return value === literal || (typeof value === 'string' && value.toLowerCase() === String(literal))
  if (typeof literal === 'number') return value === literal || (typeof value === 'string' && value.trim() !== '' && Number(value) === literal)
  return typeof value === 'string' ? value === literal : value !== null && value !== undefined && String(value) === literal
}

export function matchesFilter(node: FilterNode, record: ElementJson): boolean {
  switch (node.kind) {
    case 'and':
      return node.items.every((item) => matchesFilter(item, record))
    case 'or':
      return node.items.some((item) => matchesFilter(item, record))
    case 'compare': {
      const values = valuesOf(record, node.field)
      const any = node.value === null ? values.length === 0 || values.some((v) => equals(v, null)) : values.some((v) => equals(v, node.value))
      return node.op === 'eq' ? any : !any
    }
    case 'function': {
      const texts = valuesOf(record, node.field).filter((v): v is string => typeof v === 'string')
      if (node.name === 'contains') return texts.some((t) => t.includes(node.value))
      if (node.name === 'startswith') return texts.some((t) => t.startsWith(node.value))
      return texts.some((t) => t.endsWith(node.value))
    }
    case 'isnull':
      return valuesOf(record, node.field).every((v) => v === null || v === undefined || (typeof v === 'string' && v.trim() === ''))
  }
}
