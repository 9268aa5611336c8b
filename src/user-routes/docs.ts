/**
 * The user's routes as the OpenAPI document shows them: under the tag "Your routes", each with its
 * path parameters, its answer with the route file's body as the example, the gate's 401 and 403
 * when it is not public, and the security it takes.
 */
import * as z from 'zod'
import type { JsonValue } from '../kernel/json.js'
import type { ResponseDoc, RouteDoc } from '../kernel/route.js'
import { type Access, securityOf } from './access.js'

export const USER_ROUTES_TAG = 'Your routes'

/** The platform's error body (its 403, 429, and the resources' 400, 404 and 409). */
export const PlatformErrorSchema = z.object({ title: z.string(), status: z.number().int(), detail: z.string(), errorCode: z.string() })

/** The gate's refusals, as on every protected platform route. */
export const ACCESS_RESPONSES: Readonly<Record<string, ResponseDoc>> = {
  '401': {
    description: 'No, an unknown or an expired credential: `{"error":"Unauthorized"}` (a malformed header: the platform\'s text).',
    content: { 'application/json': z.object({ error: z.literal('Unauthorized'), message: z.string().optional() }), 'text/plain': z.string() },
    headers: { 'WWW-Authenticate': 'Bearer, with the error.' },
  },
  '403': { description: 'A missing scope or permission: `ADMIN_ACCESS_ERROR`.', content: { 'application/json': PlatformErrorSchema } },
}

export interface RouteDocInput {
  readonly source: string
  readonly params: readonly string[]
  readonly access: Access | undefined
  /** The answer's status, content type and body, for a route that gives a `response`. */
  readonly answer?: { readonly status: number; readonly type: string | undefined; readonly example: JsonValue | undefined }
}

export function userRouteDoc(input: RouteDocInput): RouteDoc {
  const { answer } = input
  const response: ResponseDoc = answer
    ? {
        description: 'The answer the route file gives (placeholders filled in per request).',
        ...(answer.type === undefined
          ? {}
          : { content: { [answer.type.split(';')[0] ?? answer.type]: answer.example === undefined ? z.unknown() : z.unknown().meta({ examples: [answer.example] }) } }),
      }
    : { description: 'What the route\'s resolve() answers.' }
  return {
    description: `Your route, from ${input.source}.`,
    tags: [USER_ROUTES_TAG],
    ...(input.params.length === 0 ? {} : { params: Object.fromEntries(input.params.map((name) => [name, 'A path parameter.'])) }),
    responses: { [answer ? String(answer.status) : 'default']: response, ...(input.access === 'none' ? {} : ACCESS_RESPONSES) },
    security: securityOf(input.access),
  }
}
