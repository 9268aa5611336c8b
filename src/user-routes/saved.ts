/**
 * The user's routes' part of a saved state: the route documents added at run time, as they were
 * given (in order; a route answered by a function given in code cannot be written, and the export
 * says which), how many documents were given in code or over the control plane (they name the
 * next one), and the records of every resource whose records are not the ones its declaration
 * gave. Loading declares the documents again over the run's own routes, aside, fills the
 * resources' collections aside, then serves them in one step. Recordings (`--record`) are files,
 * not state. Loaded with import() by the domain's `saved()`.
 */
import * as z from 'zod'
import { JsonValue } from '../kernel/json.js'
import type { ImportContext, PreparedPart, SavedPart } from '../kernel/saved.js'
import { StateNotSavableError } from '../kernel/saved.js'
import { RecordSchema } from './record.js'
import type { RouteRegistry } from './registry.js'
import { idOf, segmentProblem } from './resources.js'
import type { RoutesDocumentInput } from './schema.js'

export const SavedUserRoutes = z.strictObject({
  added: z.array(z.record(z.string(), JsonValue)).default([]).meta({ description: 'Route documents added at run time (POST /__svc-mock/routes), as given, in order.' }),
  inline: z.number().int().min(0).default(0).meta({ description: 'Route documents given in code or over the control plane so far.' }),
  resources: z
    .array(z.strictObject({ name: z.string().min(1), records: z.array(RecordSchema) }))
    .default([])
    .meta({ description: 'The records of each resource whose records are not the ones its declaration gave.' }),
})
export type SavedUserRoutes = z.output<typeof SavedUserRoutes>
/** The user's routes' part of a saved state, as the document holds it. */
export type SavedUserRoutesInput = z.input<typeof SavedUserRoutes>

export function savedUserRoutes(registry: RouteRegistry): SavedPart<typeof SavedUserRoutes> {
  return {
    save: () => {
      const { added, inline } = registry.saved()
      const documents = added.map(({ document }) => writable(document))
      const resources = [...registry.resources.values()].flatMap((resource) => {
        const records = resource.savedRecords()
        return records === undefined ? [] : [{ name: resource.name, records }]
      })
      return { added: documents, inline, resources }
    },
    prepare: async (part, context) => prepareUserRoutes(registry, part, context),
  }
}

async function prepareUserRoutes(registry: RouteRegistry, part: SavedUserRoutes, context: ImportContext): Promise<PreparedPart> {
  const declared = await registry.declared(part.added as RoutesDocumentInput[], part.inline, (index, error) => context.problem(`added[${index}]${error.path === '' ? '' : `.${error.path}`}`, error.rule))
  const swaps: Array<() => void> = []
  const named = new Set<string>()
  for (const [i, { name, records }] of part.resources.entries()) {
    const resource = declared.merged.resources.get(name)
    if (!resource) throw context.problem(`resources[${i}].name`, `no resource "${name}" in the run's route files or the document's`)
    if (named.has(name)) throw context.problem(`resources[${i}].name`, `resource "${name}" is given twice`)
    named.add(name)
    const ids = new Set<string>()
    records.forEach((record, j) => {
      const id = idOf(record[resource.idField])
      const problem = id === undefined ? `a record needs its id field "${resource.idField}", a non-empty string or a number` : segmentProblem(id)
      if (problem !== undefined) throw context.problem(`resources[${i}].records[${j}].${resource.idField}`, problem)
      if (id !== undefined && ids.has(id)) throw context.problem(`resources[${i}].records[${j}].${resource.idField}`, `the id "${id}" is used twice`)
      if (id !== undefined) ids.add(id)
    })
    swaps.push(await resource.restorable(records))
  }
  return {
    routes: declared.merged.entries.map(({ definition: { id, tags } }) => ({ id, tags })),
    apply: () => {
      registry.restore(declared.added, declared.inline)
      for (const swap of swaps) swap()
    },
  }
}

/** A document as JSON; a route answered by a function given in code cannot be written. */
function writable(document: RoutesDocumentInput): Record<string, JsonValue> {
  const routes = (document as { routes?: unknown }).routes
  if (Array.isArray(routes)) {
    for (const route of routes) {
      if (typeof route === 'object' && route !== null && typeof (route as { resolve?: unknown }).resolve === 'function') {
        const id = (route as { id?: unknown }).id
        throw new StateNotSavableError(`The route ${typeof id === 'string' ? `"${id}" ` : ''}added at run time answers with a function (resolve), which a saved state cannot hold: add it with a response instead, or add it again after loading the state.`, 'userRoutes')
      }
    }
  }
  return JSON.parse(JSON.stringify(document)) as Record<string, JsonValue>
}
