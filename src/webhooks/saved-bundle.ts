/**
 * A bundle (what a flow received for one call) as a saved state holds it: JSON, with the values
 * JSON cannot carry written as text and listed by their JSON Pointer (RFC 6901): a file's bytes as
 * base64 (`bytes`), a number JSON has no form for (`Infinity`, `NaN`, `-0`) as its text
 * (`number`). Read back, the bundle is the one the flow received, byte for byte. Neither way
 * changes the value it is given.
 */
import * as z from 'zod'
import { JsonValue } from '../kernel/json.js'
import type { Bundle } from './model.js'

const SPECIAL_KINDS = ['bytes', 'number'] as const
type SpecialKind = (typeof SPECIAL_KINDS)[number]

export const SavedBundle = z.strictObject({
  value: z.record(z.string(), JsonValue),
  special: z
    .array(z.tuple([z.string().meta({ description: 'A JSON Pointer into `value`.' }), z.enum(SPECIAL_KINDS)]))
    .optional()
    .meta({ description: 'Values written as text: `bytes` (base64) and `number` (Infinity, -Infinity, NaN, -0).' }),
})
export type SavedBundle = z.output<typeof SavedBundle>

/** The bundle as a saved state writes it. */
export function saveBundle(bundle: Bundle): z.input<typeof SavedBundle> {
  const special: Array<[string, SpecialKind]> = []
  find(bundle, '', special)
  if (special.length === 0) return { value: bundle as Record<string, JsonValue> }
  let value: unknown = bundle
  for (const [pointer, kind] of special) value = replaceAt(value, tokens(pointer), (v) => (kind === 'bytes' ? base64(v as Uint8Array) : numberText(v as number)))
  return { value: value as Record<string, JsonValue>, special }
}

/** The bundle a saved state holds; a pointer that leads nowhere, or to a value of the wrong kind, throws with the problem. */
export function readBundle(saved: SavedBundle): Bundle {
  let value: unknown = saved.value
  for (const [pointer, kind] of saved.special ?? []) {
    value = replaceAt(value, tokens(pointer), (text) => {
      if (typeof text !== 'string') throw new Error(`${pointer} is not text`)
      if (kind === 'bytes') return Buffer.from(text, 'base64')
      const number = Number(text)
      if (text === '-0') return -0
      if (!Number.isNaN(number) || text === 'NaN') return number
      throw new Error(`${pointer} is not a number`)
    })
  }
  return value as Bundle
}

function find(value: unknown, pointer: string, out: Array<[string, SpecialKind]>): void {
  if (value instanceof Uint8Array) out.push([pointer, 'bytes'])
  else if (typeof value === 'number' && (!Number.isFinite(value) || Object.is(value, -0))) out.push([pointer, 'number'])
  else if (Array.isArray(value)) value.forEach((item, index) => find(item, `${pointer}/${index}`, out))
  else if (typeof value === 'object' && value !== null) for (const key of Object.keys(value)) find((value as Record<string, unknown>)[key], `${pointer}/${escape(key)}`, out)
}

/** A copy of `value` with the value at the path replaced (only the objects on the way are copied). */
function replaceAt(value: unknown, path: readonly string[], replace: (found: unknown) => unknown): unknown {
  const [head, ...rest] = path
  if (head === undefined) return replace(value)
  if (Array.isArray(value)) {
    const index = Number(head)
    if (!Number.isInteger(index) || index < 0 || index >= value.length) throw new Error(`no item ${head}`)
    const copy = [...value]
    copy[index] = replaceAt(value[index], rest, replace)
    return copy
  }
  if (typeof value !== 'object' || value === null || !Object.hasOwn(value, head)) throw new Error(`no member "${head}"`)
  // A spread defines every member as its own, `__proto__` included; so is the one replaced.
  const copy: Record<string, unknown> = { ...(value as Record<string, unknown>) }
  Object.defineProperty(copy, head, { value: replaceAt((value as Record<string, unknown>)[head], rest, replace), writable: true, enumerable: true, configurable: true })
  return copy
}

function tokens(pointer: string): string[] {
  if (pointer === '') return []
  if (!pointer.startsWith('/')) throw new Error(`"${pointer}" is not a JSON Pointer`)
  return pointer
    .slice(1)
    .split('/')
    .map((token) => token.replaceAll('~1', '/').replaceAll('~0', '~'))
}

function escape(key: string): string {
  return key.replaceAll('~', '~0').replaceAll('/', '~1')
}

function base64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64')
}

function numberText(n: number): string {
  return Object.is(n, -0) ? '-0' : String(n)
}
