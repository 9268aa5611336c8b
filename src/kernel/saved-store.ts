/**
 * A KeyedStore's part of a saved state: its changes against the fixtures, as records the fixtures
 * have that were replaced, records added, and keys of the fixtures' records deleted. Loading
 * checks them against this emulator's fixtures, so a document made over other fixtures is caught
 * where it does not fit: an added record whose key is a fixture's (not deleted first), a
 * replacement or a deletion of a record the fixtures do not have, a key given twice. Loaded only
 * by the domains' saved-state modules.
 */
import * as z from 'zod'
import type { StoreChanges } from './keyed-store.js'
import type { ImportContext } from './saved.js'

/** The schema of a store's part, for records of `record`. */
export function storePart<S extends z.ZodType<object>>(record: S): z.ZodType<{ replaced: z.output<S>[]; added: z.output<S>[]; deleted: string[] }, { replaced?: z.input<S>[]; added?: z.input<S>[]; deleted?: string[] }> {
  return z.strictObject({
    replaced: z.array(record).default([]).meta({ description: "The fixtures' records that were replaced (in their place)." }),
    added: z.array(record).default([]).meta({ description: 'Records added, in order (after the fixtures).' }),
    deleted: z.array(z.string()).default([]).meta({ description: "Keys of the fixtures' records deleted." }),
  }) as never
}

/** What loading a store's part asks of the store: its seed's keys. */
export interface SeededKeys {
  seeded(key: string): boolean
  seededKeys(): string[]
}

export interface StorePart<T> {
  replaced: T[]
  added: T[]
  deleted: string[]
}

/** What writing a store's part asks of the store: what changed against its seed. */
export interface SavedChanges<T> {
  saved(): StoreChanges<T>
  seeded(key: string): boolean
}

/** What changed in the store against the fixtures. */
export function saveStore<T>(store: SavedChanges<T>, key: (record: T) => string): StorePart<T> {
  const { put, deleted } = store.saved()
  const gone = new Set(deleted)
  const replaced: T[] = []
  const added: T[] = []
  for (const record of put) {
    const k = key(record)
    if (store.seeded(k) && !gone.has(k)) replaced.push(record)
    else added.push(record)
  }
  return { replaced, added, deleted: [...deleted] }
}

/**
 * The part as changes to restore, checked against the store's fixtures; `path` is the part's
 * member (`oauthClients`). `keys`: the keys the store holds once restored.
 */
export function checkStore<T>(
  store: SeededKeys,
  part: StorePart<T>,
  key: (record: T) => string,
  context: ImportContext,
  path: string,
  /** The member of a record that holds its key, for messages (`clientId`); none when the key is made of several. */
  keyField?: string,
): { changes: StoreChanges<T>; keys: Set<string> } {
  const deleted = new Set<string>()
  part.deleted.forEach((k, index) => {
    if (!store.seeded(k)) throw context.problem(`${path}.deleted[${index}]`, `deletes "${k}", which the fixtures of this emulator do not have (the document was made over other fixtures)`)
    if (deleted.has(k)) throw context.problem(`${path}.deleted[${index}]`, `deletes "${k}" twice`)
    deleted.add(k)
  })
  const at = (list: string, index: number): string => `${path}.${list}[${index}]${keyField === undefined ? '' : `.${keyField}`}`
  const seen = new Set<string>()
  part.replaced.forEach((record, index) => {
    const k = key(record)
    if (!store.seeded(k) || deleted.has(k)) throw context.problem(at('replaced', index), `replaces "${k}", which the fixtures of this emulator do not have (the document was made over other fixtures)`)
    if (seen.has(k)) throw context.problem(at('replaced', index), `"${k}" is given twice`)
    seen.add(k)
  })
  part.added.forEach((record, index) => {
    const k = key(record)
    if (store.seeded(k) && !deleted.has(k)) throw context.problem(at('added', index), `"${k}" collides with a record of the fixtures: change it in "replaced", or delete it first`)
    if (seen.has(k)) throw context.problem(at('added', index), `"${k}" is given twice`)
    seen.add(k)
  })
  return {
    changes: { put: [...part.replaced, ...part.added], deleted: [...deleted] },
    keys: new Set([...store.seededKeys().filter((k) => !deleted.has(k)), ...seen]),
  }
}
