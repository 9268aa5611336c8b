/**
 * The OpenAPI 3.1 document of everything the emulator serves, generated from the route registry:
 * each route's method, path, address and summary, and the zod schemas of its `doc` (query,
 * headers, body, answers), converted with zod's `z.toJSONSchema` (JSON Schema 2020-12, OpenAPI
 * 3.1's dialect). Nothing here is written per route, so a route added anywhere appears at once.
 * Loaded only when asked for (`emu.openapi()`, `GET /__svc-mock/openapi.json`,
 * `npm run openapi`, which writes docs/openapi.json).
 */
import { createHash } from 'node:crypto'
import type { z } from 'zod'
import { SCOPE_DESCRIPTIONS } from './auth/index.js'
import type { EmulatorUrls } from './emulator-api.js'
import { type SchemaIo, convertSchema } from './kernel/docs.js'
import type { JsonObject, JsonValue } from './kernel/json.js'
import type { ResponseDoc, RouteDefinition, RouteDoc } from './kernel/route.js'

export interface OpenApiInput {
  readonly routes: readonly RouteDefinition[]
  /** Each route's documentation, by route id (the domains' `docs()`). */
  readonly docs: Readonly<Record<string, RouteDoc>>
  readonly urls: EmulatorUrls
  readonly version: string
}

const TAGS: Readonly<Record<string, { name: string; description: string }>> = {
  auth: { name: 'OAuth and API access', description: 'The authorization server: token, authorize, device grant, discovery, JWKS; and the who-am-I probe.' },
  versions: { name: 'Element versions', description: 'The REST API: the versions of a process-management element.' },
  webhooks: { name: 'Inbound webhooks', description: "Webhook addresses of the platform's automation flows." },
  control: { name: 'Control plane', description: "svc-mock's own API under /__svc-mock/: reset, scenarios, clock, journal, fixtures at run time. Needs no credential." },
}

/** Methods a route with method `*` answers (besides OPTIONS, which routes declare themselves). */
const ANY_METHOD = ['get', 'post', 'put', 'patch', 'delete', 'head'] as const

/** Generates the document. */
export function openApiDocument(input: OpenApiInput): JsonObject {
  const components = new Components()
  const paths: Record<string, Record<string, JsonValue>> = {}
  const origins: Readonly<Record<string, string>> = { auth: input.urls.auth, base: input.urls.base, webhook: input.urls.webhook }
  const usedTags = new Set<string>()
  for (const route of input.routes) {
    const path = route.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}')
    const item = (paths[path] ??= {})
    const origin = origins[route.origin] ?? input.urls.base
    if (origin !== input.urls.base) item.servers = [{ url: origin, description: `{${route.origin}_url}` }]
    const methods = route.method === '*' ? ANY_METHOD : [route.method.toLowerCase()]
    for (const method of methods) {
      if (item[method] !== undefined) throw new Error(`Two routes answer ${method.toUpperCase()} ${route.path}: ${route.id} and another`)
      item[method] = operation(route, input.docs[route.id], method, route.method === '*', components)
    }
    usedTags.add(tagOf(route))
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'svc-mock',
      version: input.version,
      summary: "A local emulator of the platform's OAuth, REST and inbound-webhook APIs, for integration tests.",
      description:
        'Every route svc-mock serves: the emulated platform surface (OAuth 2.0 authorization server, the element-versions operation, inbound webhooks) ' +
        'and the emulator\'s own control plane under `/__svc-mock/`. Generated from the route registry and the zod schemas that check each input. ' +
        'Each operation carries its route id in `x-svc-mock-route` (the id the journal, scenarios and `route=` filters use).',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: input.urls.base, description: 'the emulator ({base_url})' }],
    tags: Object.entries(TAGS)
      .filter(([, tag]) => usedTags.has(tag.name))
      .map(([, tag]) => ({ name: tag.name, description: tag.description })),
    paths,
    components: {
      schemas: components.schemas,
      responses: components.responses,
      securitySchemes: securitySchemes(input.urls),
    },
  }
}

function tagOf(route: RouteDefinition): string {
  const prefix = route.id.split('.')[0] ?? route.id
  return TAGS[prefix]?.name ?? prefix
}

function operation(route: RouteDefinition, doc: RouteDoc | undefined, method: string, anyMethod: boolean, components: Components): JsonObject {
  const parameters: JsonValue[] = []
  for (const [, name] of route.path.matchAll(/:([A-Za-z0-9_]+)/g)) {
    parameters.push({ name: name ?? '', in: 'path', required: true, schema: { type: 'string' }, ...(doc?.params?.[name ?? ''] ? { description: doc.params[name ?? ''] ?? '' } : {}) })
  }
  for (const [where, object] of [
    ['query', doc?.query],
    ['header', doc?.headers],
  ] as const) {
    if (!object) continue
    for (const [name, schema] of Object.entries(object.shape as Record<string, z.ZodType>)) {
      const json = components.schema(schema, 'input')
      const { description, ...rest } = json
      parameters.push({
        name,
        in: where,
        required: !schema.safeParse(undefined).success,
        schema: rest,
        ...(typeof description === 'string' ? { description } : {}),
      })
    }
  }
  const body = doc?.body
  const sendsBody = body !== undefined && method !== 'get' && method !== 'head'
  return {
    operationId: anyMethod ? `${route.id}.${method}` : route.id,
    'x-svc-mock-route': route.id,
    summary: route.summary,
    ...(doc?.description ? { description: doc.description } : {}),
    tags: [...(doc?.tags ?? [tagOf(route)])],
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(sendsBody
      ? {
          requestBody: {
            required: doc?.bodyRequired ?? false,
            content: Object.fromEntries(Object.entries(body).map(([type, schema]) => [type, { schema: components.schema(schema, 'input') }])),
          },
        }
      : {}),
    responses: responses(doc?.responses, components),
    ...(doc?.security === undefined ? {} : { security: doc.security.map((name) => ({ [name]: [] })) }),
    ...(route.bodyLimit === undefined ? {} : { 'x-svc-mock-body-limit': route.bodyLimit }),
  }
}

function responses(docs: Readonly<Record<string, ResponseDoc>> | undefined, components: Components): JsonObject {
  if (!docs) return { default: { description: 'The answer (this route has no further documentation).' } }
  return Object.fromEntries(Object.entries(docs).map(([status, response]) => [status, components.response(response, () => responseObject(response, components))]))
}

function responseObject(response: ResponseDoc, components: Components): JsonObject {
  return {
    description: response.description,
    ...(response.headers
      ? { headers: Object.fromEntries(Object.entries(response.headers).map(([name, description]) => [name, { description, schema: { type: 'string' } }])) }
      : {}),
    ...(response.content
      ? { content: Object.fromEntries(Object.entries(response.content).map(([type, schema]) => [type, { schema: components.schema(schema, 'output') }])) }
      : {}),
  }
}

/**
 * JSON Schemas of zod schemas, with the definitions zod puts in `$defs` (recursive shapes) moved
 * to `components.schemas`: a `$ref` inside an OpenAPI document resolves against the document, not
 * against the schema it sits in. The same shape always gets the same name.
 */
class Components {
  readonly schemas: Record<string, JsonValue> = {}
  readonly responses: Record<string, JsonValue> = {}

  /** A response object, or a reference to the shared one of its name. */
  response(response: ResponseDoc, build: () => JsonObject): JsonObject {
    if (response.name === undefined) return build()
    const built = build()
    const existing = this.responses[response.name]
    if (existing !== undefined && JSON.stringify(existing) !== JSON.stringify(built)) throw new Error(`Two different responses are named ${response.name}`)
    this.responses[response.name] = built
    return { $ref: `#/components/responses/${response.name}` }
  }

  schema(schema: z.ZodType, io: SchemaIo): JsonObject {
    const converted = convertSchema(schema, io, '#/components/schemas/', (key, definition) => this.#name(key, definition, io))
    Object.assign(this.schemas, converted.definitions)
    return converted.schema
  }

  /** A shape's id (`WebhookView`), or a name from its content; the same shape always gets the same name. */
  #name(key: string, definition: JsonValue, io: SchemaIo): string {
    const text = JSON.stringify(definition)
    const known = this.#byContent.get(text)
    if (known !== undefined) return known
    const candidates = key.startsWith('__') ? [] : [key, `${key}_${io}`]
    const name = candidates.find((candidate) => !this.#taken.has(candidate)) ?? shapeName(text)
    this.#taken.add(name)
    this.#byContent.set(text, name)
    return name
  }

  readonly #byContent = new Map<string, string>()
  readonly #taken = new Set<string>()
}

/** A stable name for a shape, from its content. */
function shapeName(text: string): string {
  return `Shape_${createHash('sha256').update(text).digest('hex').slice(0, 10)}`
}

function securitySchemes(urls: EmulatorUrls): JsonObject {
  const scopes = Object.fromEntries(Object.entries(SCOPE_DESCRIPTIONS))
  return {
    bearer: {
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'JWT access token, or a user API key',
      description: '`Authorization: Bearer <access token>` (from the token endpoint) or `Bearer <USER_API_KEY>`.',
    },
    appKey: {
      type: 'apiKey',
      in: 'header',
      name: 'Authorization',
      description: '`Authorization: AppKey <APP_KEY>`: an application key.',
    },
    clientSecretBasic: {
      type: 'http',
      scheme: 'basic',
      description: 'Client secret basic: the client id and secret of an OAuth client, at the token endpoint.',
    },
    oauth2: {
      type: 'oauth2',
      description: 'The authorization server svc-mock emulates (the device grant is at /oauth2/device_authorization, RFC 8628).',
      flows: {
        clientCredentials: { tokenUrl: `${urls.auth}/oauth2/token`, scopes },
        authorizationCode: { authorizationUrl: `${urls.auth}/oauth2/authorize`, tokenUrl: `${urls.auth}/oauth2/token`, refreshUrl: `${urls.auth}/oauth2/token`, scopes },
      },
    },
  }
}
