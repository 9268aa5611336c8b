/**
 * The resources as tests and the control plane see them (`emu.resources`): apart from the
 * collections themselves (resources.ts, on `@msw/data`), which load with the first route
 * document that declares a resource.
 */
import { suggestion } from '../kernel/closest.js'
import { NotFoundError } from '../kernel/errors.js'
import type { JsonObject } from '../kernel/json.js'

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

/** The in-process twin of the control plane's resource operations. */
export function resourcesApi(all: () => ReadonlyMap<string, ResourceCollection>): ResourcesApi {
  return {
    list: () => [...all().values()].map((r) => ({ name: r.name, path: r.path, idField: r.idField, count: r.list().length })),
    get: (name) => {
      const resource = all().get(name)
      if (!resource) throw new NotFoundError(`No resource "${name}" ${suggestion(name, [...all().keys()], 'resource')}.`, 'name')
      return resource
    },
  }
}
