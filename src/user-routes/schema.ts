/**
 * The route document, one zod schema for a route file (`--routes PATH`), a document given in code
 * (`createEmulator({ routes })`) and the body of `POST /__svc-mock/routes`:
 * `{"routes": [ … ], "resources": [ … ]}`. A route answers with a `response` (status, headers,
 * a JSON `body` or a `bodyFile`), or, in-process, with a `resolve` function; `auth` is the gate
 * (default: a valid credential), `"none"`, or scopes and a permission. docs/routes.schema.json is
 * generated from it (without `resolve`, which JSON cannot hold).
 */
import * as z from 'zod'
import { SCOPE_DESCRIPTIONS, permissionSchema } from '../auth/index.js'
import { closest } from '../kernel/closest.js'
import { documentAs } from '../kernel/docs.js'
import { JsonValue } from '../kernel/json.js'
import { FRAMING_HEADERS } from './constants.js'
import type { UserRouteResolver } from './context.js'
import { RecordSchema } from './record.js'
import { once } from '../kernel/once.js'

export const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const
export const ADDRESSES = ['base', 'auth', 'webhook'] as const

const RESOLVE_JSON = { not: {}, description: 'In-process only (createEmulator({ routes })): a function (request, context) => Response, instead of `response`. A file cannot hold one.' }

const SCOPES = Object.keys(SCOPE_DESCRIPTIONS)

/** `" (did you mean "x"?)"`, or nothing. */
export function didYouMean(word: string, candidates: readonly string[]): string {
  const near = closest(word, candidates)
  return near === undefined ? '' : ` (did you mean "${near}"?)`
}

/**
 * One of `values`; a wrong one is named with the closest (a zod enum would only list them). The
 * JSON Schema shows the enum.
 */
const oneOf = <T extends string>(values: readonly [T, ...T[]], what: string, description?: string): z.ZodType<T, T> => {
  const schema = z.string().refine((value) => (values as readonly string[]).includes(value), {
    error: (issue) => {
      const given = typeof issue.input === 'string' ? issue.input : JSON.stringify(issue.input)
      return `"${given}" is not ${what}${typeof issue.input === 'string' ? didYouMean(issue.input, values) : ''}; one of ${values.join(', ')}`
    },
  })
  const shown = { type: 'string', enum: [...values], ...(description === undefined ? {} : { description }) }
  return documentAs(schema, { input: shown, output: shown }) as unknown as z.ZodType<T, T>
}

/**
 * The schemas of a route document, made on the first call: only a run with routes or resources of
 * its own (or one that writes the JSON Schema) pays for them.
 */
export const routeSchemas: () => RouteSchemas = once(makeSchemas)
type RouteSchemas = ReturnType<typeof makeSchemas>

function makeSchemas() {
  const Method = oneOf(METHODS, 'an HTTP method a route can take', 'The method; a GET route also answers HEAD.')
  const Address = oneOf(ADDRESSES, 'an address of the emulator', 'Which of the emulator\'s addresses serves it: `base` ({base_url}, the default), `auth` or `webhook`.')

  const Scope = oneOf(SCOPES as [string, ...string[]], 'a platform scope')

  const RouteId = z
    .string()
    .min(1)
    .max(100)
    .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'an id is letters, digits, ".", "_" and "-", starting with a letter or digit (e.g. "pools.list")')

  const HeaderName = z.string().regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, 'a header name is an HTTP token (letters, digits and !#$%&\'*+.^_`|~-)')

  /** Who may call: `"none"` (a public route), or a valid credential holding these scopes (all of them) and this permission. */
  const RouteAuth = z
    .union([
      z.literal('none'),
      z.strictObject({
        scopes: z.array(Scope).optional().meta({ description: 'OAuth scopes a token must hold, all of them (static keys are not bound by scopes).' }),
        permission: permissionSchema().optional().meta({ description: 'The platform permission the caller needs, e.g. {"action": "read", "resource": "data-pool/*"}.' }),
      }),
    ])
    .meta({ description: 'Default: any valid credential, through the same gate as the platform\'s own API (401 and 403 as the platform answers them). "none": a public route.' })

  const RouteResponse = z
    .strictObject({
      status: z.number().int().min(200).max(599).optional().meta({ description: 'Default 200.' }),
      headers: z
        .record(HeaderName, z.string())
        .refine((headers) => !Object.keys(headers).some((name) => FRAMING_HEADERS.has(name.toLowerCase())), {
          error: `headers may not set ${[...FRAMING_HEADERS].join(', ')}: the transport frames the body itself`,
        })
        .optional()
        .meta({ description: 'String values may hold placeholders.' }),
      body: JsonValue.optional().meta({ description: 'Any JSON value, sent as JSON; a string is sent as text. String values may hold placeholders.' }),
      bodyFile: z.string().min(1).optional().meta({ description: 'A file beside the route file (inside its folder), sent as it is; instead of `body`.' }),
    })
    .refine((response) => response.body === undefined || response.bodyFile === undefined, { error: 'give "body" or "bodyFile", not both' })

  const UserRouteSchema = z
    .strictObject({
      id: RouteId.meta({ description: 'Stable id: the journal, scenario rules (`route`) and filters name the route by it.' }),
      method: Method,
      path: z.string().min(1).meta({ description: 'A path template with `{name}` parameters, e.g. /integration/api/pools/{poolId}.' }),
      address: Address.optional(),
      summary: z.string().max(200).optional().meta({ description: 'Shown in the route list and the OpenAPI document.' }),
      auth: RouteAuth.optional(),
      response: RouteResponse.optional().meta({ description: 'The answer; string values may hold {{path.NAME}}, {{query.NAME}}, {{identity.id}}, {{now}}, {{uuid}}. Default: 200 with no body.' }),
      resolve: documentAs(
        z.custom<UserRouteResolver>((value) => typeof value === 'function', 'must be a function (request, context) => Response'),
        // JSON cannot hold a function: in a file or a control-plane body the field is never valid.
        { input: RESOLVE_JSON, output: RESOLVE_JSON },
      ).optional(),
    })
    .refine((route) => route.response === undefined || route.resolve === undefined, { error: 'give "response" or "resolve", not both' })

  const ResourceSchema = z.strictObject({
    name: z
      .string()
      .regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/, 'a resource name is letters, digits, "_" and "-" (e.g. "pools")')
      .meta({ description: 'Names the resource (`emu.resources.get(name)`, /__svc-mock/resources/{name}) and its routes (`pools.list`, `pools.read`, `pools.create`, `pools.replace`, `pools.delete`).' }),
    path: z.string().min(1).meta({ description: 'The collection\'s path, without parameters, e.g. /integration/api/pools; a record lives at `path/{id}`.' }),
    idField: z.string().min(1).optional().meta({ description: 'The field holding a record\'s id (default "id").' }),
    address: Address.optional(),
    auth: RouteAuth.optional(),
    records: z.array(RecordSchema).optional().meta({ description: 'The records it starts with (and returns to on reset); each has its id field.' }),
  })

  const RoutesDocumentSchema = z.strictObject({
    $schema: z.string().optional(),
    $comment: z.string().optional(),
    routes: z.array(UserRouteSchema).optional(),
    resources: z.array(ResourceSchema).optional(),
  })

  return { RouteAuth, RouteResponse, UserRouteSchema, ResourceSchema, RoutesDocumentSchema }
}

/** A route as a file or code gives it. */
export type UserRouteInput = z.input<RouteSchemas['UserRouteSchema']>
export type UserRoute = z.output<RouteSchemas['UserRouteSchema']>
/** A resource as a file or code gives it. */
export type ResourceInput = z.input<RouteSchemas['ResourceSchema']>
export type ResourceDeclaration = z.output<RouteSchemas['ResourceSchema']>
/** A route document: the content of a route file, or what `createEmulator({ routes })` and `POST /__svc-mock/routes` take. */
export type RoutesDocumentInput = z.input<RouteSchemas['RoutesDocumentSchema']>
export type RoutesDocument = z.output<RouteSchemas['RoutesDocumentSchema']>
export type RouteAuthInput = z.input<RouteSchemas['RouteAuth']>

/** The fields each kind of object of the document has, for "did you mean" on an unknown one. */
export const FIELDS: Readonly<Record<'document' | 'route' | 'response' | 'auth' | 'permission' | 'resource', readonly string[]>> = {
  document: ['$schema', '$comment', 'routes', 'resources'],
  route: ['id', 'method', 'path', 'address', 'summary', 'auth', 'response', 'resolve'],
  response: ['status', 'headers', 'body', 'bodyFile'],
  auth: ['scopes', 'permission'],
  permission: ['action', 'resource'],
  resource: ['name', 'path', 'idField', 'address', 'auth', 'records'],
}
