/**
 * The user's resources: each an `@msw/data` collection used as its documentation shows (`create`,
 * `findFirst`, `findMany` with `where`, `update`, `delete`), with the operations its routes and
 * the control plane share: list, read, create (an id made when absent), replace, upsert, delete.
 * `emu.resources.get('pools')` and a resolver's `context.resources` hand out the same objects.
 *
 * The collection holds entries `{ key, record }`: the key is the record's id as a string (`1` and
 * `"1"` are one record), and the record is held whole as a member's value, since `update` drafts
 * a record and a draft cannot take a member named `__proto__`. The collection writes
 * asynchronously, so a resource runs its writes one after another, in the order they were made:
 * each checks the records as the writes before it left them.
 */
import { Collection } from '@msw/data'
import * as z from 'zod'
import type { JsonObject, JsonValue } from '../kernel/json.js'
import { RecordSchema } from './record.js'
import type { ResourceCollection } from './resources-api.js'
import { RecordBodyError, RecordConflictError, RecordNotFoundError } from './wire.js'

export interface ResourceSpec {
  readonly name: string
  readonly path: string
  readonly idField: string
}

/** A record in the collection, under its id as a string. */
const Entry = z.object({ key: z.string(), record: RecordSchema })

export class Resource implements ResourceCollection {
  readonly name: string
  readonly path: string
  readonly idField: string
  readonly #newId: () => string
  #records = new Collection({ schema: Entry })
  /** The records it starts with and returns to on reset. */
  #seed: readonly JsonObject[] = []
  /** The records its declaration gave (a saved state holds the records when they are not these). */
  #declared: readonly JsonObject[] = []
  /** Whether the records changed since the seed. */
  #changed = false
  /** The writes made so far; each runs once the one before it is done. */
  #writes: Promise<unknown> = Promise.resolve()

  constructor(spec: ResourceSpec, newId: () => string) {
    this.name = spec.name
    this.path = spec.path
    this.idField = spec.idField
    this.#newId = newId
  }

  /** The records its declaration gives: it starts with them and returns to them on reset. */
  seed(records: readonly JsonObject[]): Promise<void> {
    return this.#write(async () => {
      this.#seed = records
      this.#declared = records
      await this.#fill()
    })
  }

  /** Its records, when they are not the ones its declaration gave (what a saved state holds). */
  savedRecords(): JsonObject[] | undefined {
    return this.#changed || this.#seed !== this.#declared ? this.list() : undefined
  }

  /**
   * A collection filled with these records aside; what is returned puts it in place at once and
   * makes the records what a reset returns to (a saved state's).
   */
  async restorable(records: readonly JsonObject[]): Promise<() => void> {
    const collection = new Collection({ schema: Entry })
    for (const record of records) await collection.create({ key: idOf(record[this.idField]) ?? '', record })
    return () => {
      this.#records = collection
      this.#seed = records
      this.#changed = false
    }
  }

  reset(): Promise<void> {
    return this.#write(async () => {
      if (this.#changed) await this.#fill()
    })
  }

  list(): JsonObject[] {
    return this.#records.findMany().map((entry) => entry.record)
  }

  get(id: string | number): JsonObject | undefined {
    const key = String(id)
    return this.#records.findFirst((q) => q.where((entry) => entry.key === key))?.record
  }

  findMany(where: Readonly<Record<string, string | number | boolean>>): JsonObject[] {
    return this.#records.findMany((q) => q.where({ record: where })).map((entry) => entry.record)
  }

  create(record: JsonObject): Promise<JsonObject> {
    return this.#write(() => this.#create(record))
  }

  replace(id: string | number, record: JsonObject): Promise<JsonObject> {
    return this.#write(async () => {
      const body = this.#object(record)
      const key = String(id)
      const problem = segmentProblem(key)
      if (problem) throw new RecordBodyError(`The ${this.name} record's ${this.idField} "${key}" ${problem}.`)
      const existing = this.get(key)
      if (!existing) throw new RecordNotFoundError(`No ${this.name} record with ${this.idField} "${key}".`)
      const given = body[this.idField]
      if (given !== undefined && this.#id(given) !== key) throw new RecordBodyError(`The body's ${this.idField} "${String(given)}" is not the ${this.idField} in the path, "${key}".`)
      // The id keeps the form the record had (a number stays a number).
      return await this.#update(key, { ...body, [this.idField]: existing[this.idField] ?? key })
    })
  }

  put(record: JsonObject): Promise<{ record: JsonObject; created: boolean }> {
    return this.#write(async () => {
      const body = this.#object(record)
      const given = body[this.idField]
      if (given === undefined) return { record: await this.#create(body), created: true }
      const key = this.#id(given)
      if (this.get(key)) return { record: await this.#update(key, body), created: false }
      return { record: await this.#add(key, body), created: true }
    })
  }

  delete(id: string | number): boolean {
    const key = String(id)
    const deleted = this.#records.delete((q) => q.where((entry) => entry.key === key)) !== undefined
    if (deleted) this.#changed = true
    return deleted
  }

  async #create(record: JsonObject): Promise<JsonObject> {
    const body = this.#object(record)
    const given = body[this.idField]
    const id = given === undefined ? this.#newId() : this.#id(given)
    if (this.get(id)) throw new RecordConflictError(`A ${this.name} record with ${this.idField} "${id}" exists already.`)
    return await this.#add(id, given === undefined ? { [this.idField]: id, ...body } : body)
  }

  async #add(key: string, record: JsonObject): Promise<JsonObject> {
    this.#changed = true
    return (await this.#records.create({ key, record })).record
  }

  /** Replaces the record under this key, in its place. */
  async #update(key: string, record: JsonObject): Promise<JsonObject> {
    this.#changed = true
    const entry = await this.#records.update((q) => q.where((entry) => entry.key === key), {
      strict: true,
      data: (draft) => {
        // The compiler cannot expand a draft of JSON's recursive type; the value is the record as it is.
        draft.record = record as never
      },
    })
    return entry.record
  }

  async #fill(): Promise<void> {
    this.#records.clear()
    for (const record of this.#seed) await this.#records.create({ key: idOf(record[this.idField]) ?? '', record })
    this.#changed = false
  }

  #write<T>(write: () => Promise<T>): Promise<T> {
    const done = this.#writes.then(write)
    this.#writes = done.catch(() => undefined)
    return done
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
