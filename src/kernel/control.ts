/**
 * What a control-plane operation is, for the domains that declare theirs (`/__svc-mock/webhooks`)
 * and for the control plane, which mounts every one under its prefix behind its guard: an id
 * without the `control.` every control route's id starts with, a path under the prefix, a
 * resolver; and reading and writing their bodies: JSON in (an empty body is `{}`), JSON out with
 * bytes (file parts) as base64 strings, query parameters. A bad one answers 400 naming the field.
 */
import { InvalidInputError } from './errors.js'
import { NESTING_RULE, nestsDeeperThan } from './nesting.js'
import { empty, type Reply, reply } from './reply.js'
import type { HttpMethod, RequestContext, RouteDefinition, RouteDoc } from './route.js'

/** Where the control plane lives on `{base_url}`; the kernel matches its routes first and gives no other route a path under it. */
export const CONTROL_PREFIX = '/__svc-mock'

/** One operation of the control plane: `webhooks.list`, `GET /webhooks`, served as `control.webhooks.list` at `GET /__svc-mock/webhooks`. */
export interface ControlRoute {
  readonly id: string
  readonly method: HttpMethod
  /** Its path under the control plane's prefix (`/webhooks/:id`; `''` is the prefix itself). */
  readonly path: string
  readonly summary: string
  /** Not recorded in the journal (the journal's own routes, health, the dashboard's files). */
  readonly unjournaled?: boolean
  /** The largest body it takes, when not the default. */
  readonly bodyLimit?: number
  /** Renders its refusals its own way (the body limit's). */
  renderError?: RouteDefinition['renderError']
  resolve(ctx: RequestContext): Promise<Reply> | Reply
}

/** A domain's part of the control plane: its operations, and their OpenAPI documentation by id (loaded when a document is asked for). */
export interface ControlPart {
  readonly routes: readonly ControlRoute[]
  docs?(): Promise<Readonly<Record<string, RouteDoc>>>
}

export function controlRoute(
  id: string,
  method: HttpMethod,
  path: string,
  summary: string,
  resolve: ControlRoute['resolve'],
  extra: Pick<ControlRoute, 'unjournaled' | 'bodyLimit' | 'renderError'> = {},
): ControlRoute {
  return { id, method, path, summary, resolve, ...extra }
}

export const noContent = (): Reply => empty(204)

/** A part's documentation is built when a document is first asked for, and once (its schemas carry ids a document must meet once each). */
export { once } from './once.js'

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
