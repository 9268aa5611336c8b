/**
 * The user's resources: each an `@msw/data` collection (through the kernel's `IndexedCollection`,
 * which indexes it by id and resets it to its seed records), with the operations its routes and
 * the control plane share: list, read, create (an id made when absent), replace, upsert, delete.
 * `emu.resources.get('pools')` and a resolver's `context.resources` hand out the same objects.
 */
import { NotFoundError } from '../kernel/errors.js'
import { suggestion } from '../kernel/closest.js'
import type { JsonObject, JsonValue } from '../kernel/json.js'
import { IndexedCollection } from '../kernel/store.js'
import { RecordSchema } from './record.js'
import { RecordBodyError, RecordConflictError, RecordNotFoundError } from './wire.js'

/** One resource's records, as tests and resolvers use them. Ids are compared as strings (`1` and `"1"` are one record). */
export interface ResourceCollection {
  readonly name: string
  /** The collection's path; a record lives at `path/{id}`. */
  readonly path: string
  readonly idField: string
  /** Every record, in the order they were added. */
  list(): JsonObject[]
  get(id: string | number): JsonObject | undefined
  /** Records whose fields equal these values. */
  findMany(where: Readonly<Record<string, string | number | boolean>>): JsonObject[]
  /** Adds a record; its id is made (a seeded UUID) when absent. A record with that id already: 409. */
  create(record: JsonObject): Promise<JsonObject>
  /** Replaces the record with this id (the id field is set from `id`); none: 404. */
  replace(id: string | number, record: JsonObject): Promise<JsonObject>
  /** Adds the record, or replaces the one with its id. */
  put(record: JsonObject): Promise<{ record: JsonObject; created: boolean }>
  /** Whether there was such a record. */
  delete(id: string | number): boolean
}

/** The resources, by name. */
export interface ResourcesApi {
  /** Each resource: name, path, id field and how many records it holds. */
  list(): Array<{ name: string; path: string; idField: string; count: number }>
  /** A resource by name; an unknown name throws (NotFoundError), naming the closest. */
  get(name: string): ResourceCollection
}

export interface ResourceSpec {
  readonly name: string
  readonly path: string
  readonly idField: string
}

export class Resource implements ResourceCollection {
  readonly name: string
  readonly path: string
  readonly idField: string
  readonly #store: IndexedCollection<typeof RecordSchema>
  readonly #newId: () => string

  constructor(spec: ResourceSpec, newId: () => string) {
    this.name = spec.name
    this.path = spec.path
    this.idField = spec.idField
    this.#newId = newId
    this.#store = new IndexedCollection(RecordSchema, (record) => idOf(record[spec.idField]) ?? '')
  }

  /** The records it starts with and returns to on reset. */
  seed(records: readonly JsonObject[]): Promise<void> {
    return this.#store.seed(records)
  }

  reset(): Promise<void> {
    return this.#store.reset()
  }

  list(): JsonObject[] {
    return this.#store.all()
  }

  get(id: string | number): JsonObject | undefined {
    return this.#store.get(String(id))
  }

  findMany(where: Readonly<Record<string, string | number | boolean>>): JsonObject[] {
    return this.#store.findMany(where as never)
  }

  async create(record: JsonObject): Promise<JsonObject> {
    const body = this.#object(record)
    const given = body[this.idField]
    const id = given === undefined ? this.#newId() : this.#id(given)
    if (this.#store.has(id)) throw new RecordConflictError(`A ${this.name} record with ${this.idField} "${id}" exists already.`)
    return await this.#store.insert(given === undefined ? { [this.idField]: id, ...body } : body)
  }

  async replace(id: string | number, record: JsonObject): Promise<JsonObject> {
    const body = this.#object(record)
    const key = String(id)
    const problem = segmentProblem(key)
    if (problem) throw new RecordBodyError(`The ${this.name} record's ${this.idField} "${key}" ${problem}.`)
    const existing = this.#store.get(key)
    if (!existing) throw new RecordNotFoundError(`No ${this.name} record with ${this.idField} "${key}".`)
    const given = body[this.idField]
    if (given !== undefined && this.#id(given) !== key) throw new RecordBodyError(`The body's ${this.idField} "${String(given)}" is not the ${this.idField} in the path, "${key}".`)
    // The id keeps the form the record had (a number stays a number).
    return await this.#store.insert({ ...body, [this.idField]: existing[this.idField] ?? key })
  }

  async put(record: JsonObject): Promise<{ record: JsonObject; created: boolean }> {
    const body = this.#object(record)
    const given = body[this.idField]
    if (given === undefined) return { record: await this.create(body), created: true }
    const created = !this.#store.has(this.#id(given))
    return { record: await this.#store.insert(body), created }
  }

  delete(id: string | number): boolean {
    return this.#store.delete(String(id))
  }

  #object(value: unknown): JsonObject {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw new RecordBodyError(`A ${this.name} record is a JSON object; the body is ${describe(value)}.`)
    }
    return value as JsonObject
  }

  #id(value: JsonValue): string {
    const id = idOf(value)
    if (id === undefined && value !== '') throw new RecordBodyError(`A ${this.name} record's ${this.idField} is a string or a number; the body has ${describe(value)}.`)
    const key = id ?? ''
    const problem = segmentProblem(key)
    if (problem) throw new RecordBodyError(`The ${this.name} record's ${this.idField} "${key}" ${problem}.`)
    return key
  }
}

/**
 * Why an id cannot key a record, or undefined: a record lives at `path/{id}`, so its id is one
 * path segment, and a URL's path never carries an empty segment, "." or ".." as one.
 */
export function segmentProblem(id: string): string | undefined {
  if (id === '' || id === '.' || id === '..' || id.includes('/')) return 'is not one path segment (a record lives at path/{id}): an id may not be empty, "." or "..", nor hold "/"'
  return undefined
}

/** A record's id as its key: a non-empty string, or a finite number. */
export function idOf(value: JsonValue | undefined): string | undefined {
  if (typeof value === 'string' && value !== '') return value
  if (typeof value === 'number' && Number.isFinite(value)) return String(value)
  return undefined
}

function describe(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  if (typeof value === 'string') return value === '' ? 'an empty string' : 'a string'
  return `a ${typeof value}`
}

/** The in-process twin of the control plane's resource operations. */
export function resourcesApi(all: () => ReadonlyMap<string, Resource>): ResourcesApi {
  return {
    list: () => [...all().values()].map((r) => ({ name: r.name, path: r.path, idField: r.idField, count: r.list().length })),
    get: (name) => {
      const resource = all().get(name)
      if (!resource) throw new NotFoundError(`No resource "${name}" ${suggestion(name, [...all().keys()], 'resource')}.`, 'name')
      return resource
    },
  }
}
