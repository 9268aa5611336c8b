/**
 * Declaring a route document: every check a route or resource must pass before anything of the
 * document is served (the schema; a path template that can match; an id that is free; no clash
 * with a route that would answer every request it could; placeholders that exist; a `bodyFile`
 * inside the routes folder), then the route definitions the kernel serves, their documentation,
 * and the resources' collections. The first problem refuses the whole document. The routes and
 * resources it replaces (at run time, those of the user's it declares again) are left out of the
 * checks, as they will be out of the route table.
 */
import { readFileSync, realpathSync, statSync } from 'node:fs'
import { extname, isAbsolute, relative, resolve } from 'node:path'
import type { AccessGate } from '../auth/index.js'
import type { JsonObject, JsonValue } from '../kernel/json.js'
import { NESTING_RULE, nestsDeeperThan } from '../kernel/nesting.js'
import type { RouteDefinition, RouteDoc } from '../kernel/route.js'
import { type Access, withAccess } from './access.js'
import { type AnswerDeps, type CompiledResponse, bodyOf, resolveWith, respond } from './answer.js'
import { DEFAULT_ID_FIELD, RESERVED_IDS, RESERVED_PREFIX } from './constants.js'
import { userRouteDoc } from './docs.js'
import { RouteFileError } from './errors.js'
import { PlaceholderError, type PlaceholderScope, compileJson, compileString } from './placeholders.js'
import { itemName, schemaProblem } from './problems.js'
import { resourceRoutes } from './resource-routes.js'
import { Resource, idOf, segmentProblem } from './resources.js'
import { type ResourceDeclaration, type RoutesDocument, type UserRoute, routeSchemas } from './schema.js'
import type { RoutesSource } from './sources.js'
import { ClashIndex, parseTemplate, placed, templateOf } from './template.js'
import { once } from '../kernel/once.js'

/** A route of the user's, as the kernel serves it and the OpenAPI document shows it. */
export interface UserRouteEntry {
  readonly definition: RouteDefinition
  /** Its documentation, made when a document is asked for (most runs never ask). */
  readonly doc: () => RouteDoc
  /** The resource it serves, for one of a resource's five routes. */
  readonly resource?: string
}

export interface Declaration {
  readonly routes: readonly UserRouteEntry[]
  readonly resources: ReadonlyArray<{ readonly resource: Resource; readonly records: readonly JsonObject[] }>
}

/** What declaring a route document needs: what its routes answer with, the gate, and the routes there are. */
export interface DeclarationDeps extends AnswerDeps {
  readonly gate: AccessGate
  /** Every route there is now (the built-in ones, the control plane's, the user's). */
  readonly taken: () => readonly RouteDefinition[]
  /** Whether a route id is one of the user's (for messages). */
  readonly isUsers: (id: string) => boolean
  readonly resourceNames: () => ReadonlySet<string>
  /** The ids of the user's routes and the names of the user's resources this document takes the place of. */
  readonly replaces: (document: RoutesDocument) => Replaced
}

export interface Replaced {
  readonly ids: ReadonlySet<string>
  readonly resources: ReadonlySet<string>
}

type Problem = (field: string, rule: string) => RouteFileError

export function declare(source: RoutesSource, deps: DeclarationDeps): Declaration {
  const { data } = source
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    throw new RouteFileError(source.name, '', '', 'must be a JSON object: {"routes": [ … ], "resources": [ … ]}')
  }
  if (nestsDeeperThan(data)) throw new RouteFileError(source.name, '', '', NESTING_RULE)
  const parsed = routeSchemas().RoutesDocumentSchema.safeParse(data)
  if (!parsed.success) throw schemaProblem(source.name, parsed.error, data)
  const document = parsed.data
  const raw = data as Record<string, unknown>
  const replaced = deps.replaces(document)
  const taken = new TakenRoutes(deps, replaced.ids)
  const routes: UserRouteEntry[] = []
  for (const [index, route] of (document.routes ?? []).entries()) {
    const problem: Problem = (field, rule) => new RouteFileError(source.name, itemName('routes', index, raw.routes), field, rule)
    const template = parseTemplate(route.path)
    if ('problem' in template) throw problem('path', template.problem)
    const entry = userRoute(route, template, source, deps, problem)
    taken.take(entry, problem, 'path')
    routes.push(entry)
  }
  const resources: Array<{ resource: Resource; records: JsonObject[] }> = []
  const names = new Set([...deps.resourceNames()].filter((name) => !replaced.resources.has(name)))
  for (const [index, declaration] of (document.resources ?? []).entries()) {
    const problem: Problem = (field, rule) => new RouteFileError(source.name, itemName('resources', index, raw.resources), field, rule)
    if (names.has(declaration.name)) throw problem('name', `a resource named "${declaration.name}" exists already`)
    names.add(declaration.name)
    const { resource, records, access } = resourceOf(declaration, deps, problem)
    for (const { operation, definition, doc } of resourceRoutes(resource, declaration.address ?? 'base', deps.gate, access)) {
      const entry = { definition, doc, resource: declaration.name }
      taken.take(entry, (field, rule) => problem(field, `its ${operation} route ${definition.id} (${definition.method} ${templateOf(definition.path)}): ${rule}`), 'path')
      routes.push(entry)
    }
    resources.push({ resource, records })
  }
  return { routes, resources }
}

/**
 * The routes a document's routes are checked against: those there are (but the ones it replaces)
 * and the document's earlier ones. `take()` adds a route, or refuses it (an id in use, the control
 * plane's prefix, a clash with a route that answers every request it could).
 */
class TakenRoutes {
  readonly #deps: DeclarationDeps
  readonly #byPlace = new ClashIndex<RouteDefinition>()
  readonly #byId = new Map<string, RouteDefinition>()
  /** The ids this document declared so far. */
  readonly #own = new Set<string>()

  /** `replaced`: ids of routes there are now that this document takes the place of. */
  constructor(deps: DeclarationDeps, replaced: ReadonlySet<string>) {
    this.#deps = deps
    for (const definition of deps.taken()) if (!replaced.has(definition.id)) this.#add(definition)
  }

  #add(definition: RouteDefinition): void {
    this.#byPlace.add(placed(definition), definition)
    this.#byId.set(definition.id, definition)
  }

  take(entry: UserRouteEntry, problem: Problem, pathField: string): void {
    const { definition } = entry
    const { id } = definition
    if (RESERVED_IDS.includes(id)) throw problem('id', `"${id}" is the journal's name for requests no route served; choose another id`)
    const other = this.#byId.get(id)
    if (other) throw problem('id', `the id "${id}" is taken by ${this.#describe(other)}`)
    if (definition.path.split('/')[1] === RESERVED_PREFIX.slice(1)) throw problem(pathField, `${RESERVED_PREFIX}/ is the control plane's own prefix; a route of yours lives elsewhere`)
    const earlier = this.#byPlace.shadowing(placed(definition))
    if (earlier) {
      throw problem(pathField, `clashes with ${this.#describe(earlier)}, which answers every ${definition.method} request this route could match, so it would never be served`)
    }
    this.#add(definition)
    this.#own.add(id)
  }

  #describe(route: RouteDefinition): string {
    const line = `${route.method === '*' ? 'any method' : route.method} ${templateOf(route.path)}`
    return this.#own.has(route.id) || this.#deps.isUsers(route.id) ? `your route ${route.id} (${line})` : `the built-in route ${route.id} (${line})`
  }
}

function userRoute(route: UserRoute, template: { pattern: string; params: readonly string[] }, source: RoutesSource, deps: DeclarationDeps, problem: Problem): UserRouteEntry {
  const access: Access | undefined = route.auth
  const base = {
    id: route.id,
    method: route.method,
    path: template.pattern,
    origin: route.address ?? 'base',
    summary: route.summary ?? `${route.method} ${route.path} (your route)`,
  }
  const { resolve: resolver } = route
  if (resolver) {
    return {
      definition: withAccess(deps.gate, access, { ...base, resolve: (ctx, caller) => resolveWith(resolver, route.id, ctx, caller, deps) }),
      doc: once(() => userRouteDoc({ source: source.name, params: template.params, access })),
    }
  }
  const scope: PlaceholderScope = { params: template.params, identity: access !== 'none' }
  const compiled = compileResponse(route.response ?? {}, scope, source, problem)
  return {
    definition: withAccess(deps.gate, access, { ...base, resolve: (ctx, caller) => respond(compiled.response, ctx, caller, deps) }),
    doc: once(() => userRouteDoc({ source: source.name, params: template.params, access, answer: compiled.example })),
  }
}

const NO_BODY_STATUS = new Set([204, 205, 304])

function compileResponse(
  response: NonNullable<UserRoute['response']>,
  scope: PlaceholderScope,
  source: RoutesSource,
  problem: Problem,
): { response: CompiledResponse; example: { status: number; type: string | undefined; example: JsonValue | undefined } } {
  const status = response.status ?? 200
  if (NO_BODY_STATUS.has(status) && (response.body !== undefined || response.bodyFile !== undefined)) {
    throw problem(response.body === undefined ? 'response.bodyFile' : 'response.body', `a ${status} answer has no body`)
  }
  const headers = Object.entries(response.headers ?? {}).map(([name, value]) => {
    try {
      return [name.toLowerCase(), compileString(value, scope)] as const
    } catch (error) {
      throw problem(`response.headers.${name}`, error instanceof Error ? error.message : String(error))
    }
  })
  const declaredType = headers.find(([name]) => name === 'content-type')?.[1]
  const typeText = declaredType && declaredType.length === 1 && typeof declaredType[0] === 'string' ? declaredType[0] : undefined
  let body: CompiledResponse['body']
  let type: string | undefined
  if (response.bodyFile !== undefined) {
    const bytes = readBodyFile(response.bodyFile, source, problem)
    type = typeText ?? typeOfFile(response.bodyFile)
    body = { kind: 'fixed', bytes, type }
  } else if (response.body !== undefined) {
    let value
    try {
      value = compileJson(response.body, scope)
    } catch (error) {
      if (error instanceof PlaceholderError) throw problem(error.at === '' ? 'response.body' : `response.body.${error.at}`, error.message)
      throw error
    }
    const fixed = bodyOf(response.body)
    type = typeText ?? fixed.type
    body = value.plain ? { kind: 'fixed', ...fixed } : { kind: 'json', value }
  }
  const example = response.bodyFile === undefined ? response.body : undefined
  return { response: { status, headers, body }, example: { status, type, example } }
}

function readBodyFile(file: string, source: RoutesSource, problem: Problem): Uint8Array {
  const field = 'response.bodyFile'
  if (source.dir === undefined) {
    throw problem(field, 'a document with no file (given in code or over the control plane) has no folder to read a bodyFile from: give "body" instead')
  }
  const full = resolve(source.dir, file)
  let real: string
  try {
    real = realpathSync(full)
  } catch {
    throw problem(field, `the file "${file}" does not exist (looked for ${full})`)
  }
  const rel = relative(realpathSync(source.dir), real)
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) throw problem(field, `"${file}" is outside the routes folder ${source.dir}`)
  if (!statSync(real).isFile()) throw problem(field, `"${file}" is not a file`)
  return readFileSync(real)
}

const TYPES: Readonly<Record<string, string>> = {
  '.json': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.htm': 'text/html; charset=utf-8',
  '.xml': 'application/xml',
  '.csv': 'text/csv; charset=utf-8',
  '.yaml': 'application/yaml',
  '.yml': 'application/yaml',
}

function typeOfFile(file: string): string {
  return TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream'
}

function resourceOf(declaration: ResourceDeclaration, deps: DeclarationDeps, problem: Problem): { resource: Resource; records: JsonObject[]; access: Access | undefined } {
  const template = parseTemplate(declaration.path)
  if ('problem' in template) throw problem('path', template.problem)
  if (template.params.length > 0) throw problem('path', `a resource's path has no parameters (its records live at ${declaration.path}/{id})`)
  if (template.pattern.endsWith('/')) throw problem('path', `"${declaration.path}" must not end with "/" (its records live at path/{id})`)
  const idField = declaration.idField ?? DEFAULT_ID_FIELD
  const seen = new Map<string, number>()
  const records = declaration.records ?? []
  records.forEach((record, index) => {
    const id = idOf(record[idField])
    if (id === undefined) throw problem(`records[${index}].${idField}`, `a record needs its id field "${idField}", a non-empty string or a number`)
    const segment = segmentProblem(id)
    if (segment) throw problem(`records[${index}].${idField}`, `the id "${id}" ${segment}`)
    const twin = seen.get(id)
    if (twin !== undefined) throw problem(`records[${index}].${idField}`, `the id "${id}" is used twice (also records[${twin}])`)
    seen.set(id, index)
  })
  const resource = new Resource({ name: declaration.name, path: template.pattern, idField }, deps.uuid)
  return { resource, records, access: declaration.auth }
}
