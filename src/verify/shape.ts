/**
 * The JSON shape of a success body: which kinds of value stand at each place (null among them:
 * nullability), the members an object has, the shape of an array's items (merged over the items),
 * and, for an object keyed by the team's own data (attribute names), the shape of its values
 * instead of its keys. Values themselves are not part of it: that is what makes two teams' answers
 * comparable. Paths read `$.elements[].attributes{}`: `[]` an array's items, `{}` a map's values.
 */
import type { JsonValue as Json } from '../kernel/json.js'

export const KINDS = ['null', 'boolean', 'number', 'string', 'array', 'object'] as const
export type Kind = (typeof KINDS)[number]

export interface Shape {
  /** The kinds of value seen here, in the order of KINDS. */
  readonly kinds: readonly Kind[]
  /** The members seen in objects here (an object with no prototype, so any name is a member). */
  readonly members?: Readonly<Record<string, Shape>>
  /** The items of the arrays here, merged; absent when every array was empty. */
  readonly items?: Shape
  /** For a map: its values, merged. */
  readonly values?: Shape
}


const IDENTIFIER = /^[A-Za-z_$][\w$]*$/

/** The path of a member: `$.name`, or `$["odd name"]`. */
export function memberPath(path: string, name: string): string {
  return IDENTIFIER.test(name) ? `${path}.${name}` : `${path}[${JSON.stringify(name)}]`
}

export function kindOf(value: Json): Kind {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'array'
  return typeof value === 'object' ? 'object' : (typeof value as 'boolean' | 'number' | 'string')
}

function record<T>(): Record<string, T> {
  return Object.create(null) as Record<string, T>
}

/** The shape of a value; `maps` are the paths of objects keyed by data. */
export function shapeOf(value: Json, maps: ReadonlySet<string>, path = '$'): Shape {
  if (Array.isArray(value)) {
    const items = value.map((item) => shapeOf(item, maps, `${path}[]`)).reduce<Shape | undefined>((merged, item) => (merged === undefined ? item : mergeShapes(merged, item)), undefined)
    return items === undefined ? { kinds: ['array'] } : { kinds: ['array'], items }
  }
  if (value === null || typeof value !== 'object') return { kinds: [kindOf(value)] }
  const entries = Object.entries(value)
  if (maps.has(path)) {
    const values = entries.map(([, member]) => shapeOf(member, maps, `${path}{}`)).reduce<Shape | undefined>((merged, item) => (merged === undefined ? item : mergeShapes(merged, item)), undefined)
    return values === undefined ? { kinds: ['object'] } : { kinds: ['object'], values }
  }
  const members = record<Shape>()
  for (const [name, member] of entries) members[name] = shapeOf(member, maps, memberPath(path, name))
  return { kinds: ['object'], members }
}

/** The shape of two samples of one place. */
export function mergeShapes(a: Shape, b: Shape): Shape {
  const kinds = KINDS.filter((kind) => a.kinds.includes(kind) || b.kinds.includes(kind))
  let members: Record<string, Shape> | undefined
  if (a.members !== undefined || b.members !== undefined) {
    members = record<Shape>()
    for (const source of [a.members, b.members]) {
      for (const [name, shape] of Object.entries(source ?? {})) {
        const seen = members[name]
        members[name] = seen === undefined ? shape : mergeShapes(seen, shape)
      }
    }
  }
  const items = a.items === undefined ? b.items : b.items === undefined ? a.items : mergeShapes(a.items, b.items)
  const values = a.values === undefined ? b.values : b.values === undefined ? a.values : mergeShapes(a.values, b.values)
  return { kinds, ...(members === undefined ? {} : { members }), ...(items === undefined ? {} : { items }), ...(values === undefined ? {} : { values }) }
}

/** `string or null`. */
export function describeKinds(kinds: readonly Kind[]): string {
  return kinds.length === 0 ? 'nothing' : kinds.join(' or ')
}
