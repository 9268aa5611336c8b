/**
 * Reading and writing control-plane bodies: JSON in (an empty body is `{}`), JSON out with bytes
 * (file parts, buffer fields) as base64 strings, and query parameters; a bad one answers 400
 * naming the field at fault. Bodies are checked with `parseBody` (kernel/validation).
 */
import { InvalidInputError } from '../kernel/errors.js'
import { NESTING_RULE, nestsDeeperThan } from '../kernel/nesting.js'
import { type Reply, reply } from '../kernel/reply.js'
import type { RequestContext } from '../kernel/route.js'

export async function readJson(ctx: RequestContext): Promise<unknown> {
  const raw = (await ctx.body?.text()) ?? ''
  if (raw.trim() === '') return {}
  let value: unknown
  try {
    value = JSON.parse(raw)
  } catch (error) {
    throw new InvalidInputError(`The body is not valid JSON: ${error instanceof Error ? error.message : String(error)}`)
  }
  if (nestsDeeperThan(value)) throw new InvalidInputError(`The body ${NESTING_RULE}.`)
  return value
}

/**
 * The JSON body, typed as the input of the emulator method it is handed to. Not checked here: that
 * method checks it with its zod schema at run time (a bad body is a 400 naming the field), exactly
 * as it checks an in-process caller's argument.
 */
export async function readInput<T>(ctx: RequestContext): Promise<T> {
  return (await readJson(ctx)) as T
}

/** JSON with every byte array as a base64 string (what JSON can carry of a file). */
export function jsonWithBytes(value: unknown): Reply {
  return reply(JSON.stringify(value, bytesAsBase64), { headers: { 'content-type': 'application/json; charset=utf-8' } })
}

function bytesAsBase64(this: unknown, key: string, value: unknown): unknown {
  const original = (this as Record<string, unknown>)[key]
  if (original instanceof Uint8Array) return Buffer.from(original.buffer, original.byteOffset, original.byteLength).toString('base64')
  return value
}

export function optionalInt(url: URL, name: string, min = 0): number | undefined {
  const raw = url.searchParams.get(name)
  if (raw === null || raw === '') return undefined
  const n = Number(raw)
  if (!Number.isInteger(n) || n < min) throw new InvalidInputError(`Query parameter ${name} must be a whole number >= ${min}, got "${raw}".`, name)
  return n
}

export function optionalString(url: URL, name: string): string | undefined {
  const raw = url.searchParams.get(name)
  return raw === null || raw === '' ? undefined : raw
}
