/**
 * The JSON shape of a success body: which kinds of value stand at each place (null among them:
 * nullability), the members objects there have, and the shape of an array's items (merged over
 * the items). Values themselves are not part of it: that is what makes two teams' answers
 * comparable. Paths read `$.elements[].attributes.name`: `[]` stands for an array's items.
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

/** The shape of a value. */
export function shapeOf(value: Json): Shape {
  if (Array.isArray(value)) {
    const items = value.map(shapeOf).reduce<Shape | undefined>((merged, item) => (merged === undefined ? item : mergeShapes(merged, item)), undefined)
    return items === undefined ? { kinds: ['array'] } : { kinds: ['array'], items }
  }
  if (value === null || typeof value !== 'object') return { kinds: [kindOf(value)] }
  const members = record<Shape>()
  for (const [name, member] of Object.entries(value)) members[name] = shapeOf(member)
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
  return { kinds, ...(members === undefined ? {} : { members }), ...(items === undefined ? {} : { items }) }
}

/** `string or null`. */
export function describeKinds(kinds: readonly Kind[]): string {
  return kinds.length === 0 ? 'nothing' : kinds.join(' or ')
}
