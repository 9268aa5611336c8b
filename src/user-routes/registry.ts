/**
 * The user's routes and resources of one emulator: those the run's options declare (route files,
 * documents given in code), declared at start in order, each document checked against everything
 * before it; and those added at run time (`emu.userRoutes.add()`, `POST /__svc-mock/routes`),
 * which a reset takes away again. A document added at run time replaces the user's routes of the
 * same ids and resources of the same names (as WireMock replaces a stub posted again with its id),
 * whether a file or an earlier addition declared them, until the next reset brings the run's own
 * back; a built-in route is never replaced. A document is declared whole before any of it is
 * served. After each change the kernel builds its route table again. What declares a document (its
 * checks, templates, placeholders and resources on `@msw/data`) loads with the first document. A
 * saved state holds the documents added at run time (as given) and the records of every resource
 * that changed; loaded, they are declared again as `add()` would, aside, and served in one step
 * (`imported`), until the next state is loaded: a reset returns to them.
 */
import type { KernelServices } from '../kernel/domain.js'
import type { Logger } from '../kernel/logger.js'
import type { RouteInfo } from '../kernel/kernel.js'
import type { RouteDefinition, RouteDoc } from '../kernel/route.js'
import { RouteFileError } from './errors.js'
import type { Declaration, DeclarationDeps, Replaced, UserRouteEntry } from './declare.js'
import type { Resource } from './resources.js'
import type { RoutesDocument, RoutesDocumentInput } from './schema.js'
import { type RoutesInput, type RoutesSource, routeSources } from './sources.js'

const NOTHING: Replaced = { ids: new Set(), resources: new Set() }

/** A document added at run time: its declaration, and the document as given (what a saved state holds). */
export interface Added {
  readonly declaration: Declaration
  readonly document: RoutesDocumentInput
}

/** The routes and resources served, from declarations in order (a later one replaces the user's routes and resources it declares again). */
export interface Merged {
  readonly entries: readonly UserRouteEntry[]
  readonly resources: ReadonlyMap<string, Resource>
}

export class RouteRegistry {
  readonly #kernel: KernelServices
  readonly #deps: Omit<DeclarationDeps, 'replaces'>
  readonly #logger: Logger
  #started: Declaration[] = []
  /** Added by the saved state loaded last: a reset keeps them. */
  #imported: Added[] = []
  #added: Added[] = []
  /** The routes served now, in the order they were declared (a replacement goes last). */
  #entries: readonly UserRouteEntry[] = []
  #routes: readonly RouteDefinition[] = []
  #resources: ReadonlyMap<string, Resource> = new Map<string, Resource>()
  #ids = new Set<string>()
  /** Documents given in code or over the control plane so far (they are named `inline routes #N`). */
  #inline = 0
  /** Those the run's options gave. */
  #startInline = 0

  constructor(kernel: KernelServices, deps: Omit<DeclarationDeps, 'taken' | 'isUsers' | 'resourceNames' | 'replaces'>) {
    this.#kernel = kernel
    this.#logger = deps.logger
    this.#deps = { ...deps, taken: () => kernel.routes(), isUsers: (id) => this.#ids.has(id), resourceNames: () => new Set(this.#resources.keys()) }
  }

  /** The routes served now, in the order they were declared. */
  get routes(): readonly RouteDefinition[] {
    return this.#routes
  }

  get resources(): ReadonlyMap<string, Resource> {
    return this.#resources
  }

  /** Declares the run's route files and documents, in order; an id or name declared twice is refused. */
  async start(inputs: readonly RoutesInput[]): Promise<void> {
    const sources = routeSources(inputs)
    this.#inline = sources.filter((s) => s.dir === undefined).length
    this.#startInline = this.#inline
    if (sources.length === 0) return
    const { declare } = await import('./declare.js')
    for (const source of sources) {
      const declaration = declare(source, { ...this.#deps, replaces: () => NOTHING })
      await seed(declaration)
      this.#started.push(declaration)
      this.#changed()
    }
  }

  /**
   * Adds a document's routes and resources until the next reset, in place of the user's routes and
   * resources it declares again; returns the routes it added.
   */
  async add(document: RoutesDocumentInput): Promise<RouteInfo[]> {
    const source: RoutesSource = { name: `inline routes #${++this.#inline}`, dir: undefined, data: document }
    const { declare } = await import('./declare.js')
    let replaced = NOTHING
    const declaration = declare(source, { ...this.#deps, replaces: (parsed) => (replaced = replacedBy(parsed, { entries: this.#entries, resources: this.#resources })) })
    await seed(declaration)
    this.#added.push({ declaration, document })
    this.#changed()
    if (replaced.ids.size > 0) this.#logger.info(`${source.name} replaced your routes ${[...replaced.ids].join(', ')} until the next reset`)
    return declaration.routes.map(({ definition: { id, method, path, origin, summary } }) => ({ id, method, path, origin, summary }))
  }

  /** Every route's documentation, by id. */
  docs(): Record<string, RouteDoc> {
    return Object.fromEntries(this.#entries.map((r) => [r.definition.id, r.doc()]))
  }

  /** The documents added at run time (those of the state loaded last first), and how many were given in code or over the control plane. */
  saved(): { added: Added[]; inline: number } {
    return { added: [...this.#imported, ...this.#added], inline: this.#inline }
  }

  /**
   * Declares documents as `add()` would, one after the other, over the run's own routes and
   * resources, without serving any of them (a document with a problem throws RouteFileError).
   */
  async declared(documents: readonly RoutesDocumentInput[], saidInline: number, refused: (index: number, error: RouteFileError) => Error): Promise<{ added: Added[]; merged: Merged; inline: number }> {
    const inline = Math.max(saidInline, this.#startInline + documents.length)
    const { declare } = await import('./declare.js')
    const builtIn = new Set(this.#kernel.routes())
    for (const route of this.#routes) builtIn.delete(route)
    const added: Added[] = []
    let merged = merge(this.#started)
    for (const [index, document] of documents.entries()) {
      const now = merged
      const source: RoutesSource = { name: `inline routes #${inline - documents.length + index + 1}`, dir: undefined, data: document }
      let declaration: Declaration
      try {
        declaration = declare(source, {
          ...this.#deps,
          taken: () => [...builtIn, ...now.entries.map((e) => e.definition)],
          isUsers: (id) => now.entries.some((e) => e.definition.id === id),
          resourceNames: () => new Set(now.resources.keys()),
          replaces: (parsed) => replacedBy(parsed, now),
        })
      } catch (error) {
        throw error instanceof RouteFileError ? refused(index, error) : error
      }
      await seed(declaration)
      added.push({ declaration, document })
      merged = merge([...this.#started, ...added.map((a) => a.declaration)])
    }
    return { added, merged, inline }
  }

  /** Serves these documents (declared already) in place of every one added at run time, and a reset keeps them. */
  restore(added: readonly Added[], inline: number): void {
    this.#imported = [...added]
    this.#added = []
    this.#inline = inline
    this.#changed()
  }

  /** Back to the run's own (and the state loaded last): routes and resources added since go, the others' records return to their seed. */
  async reset(): Promise<void> {
    const hadAdded = this.#added.length > 0
    this.#added = []
    if (hadAdded) this.#changed()
    await Promise.all([...this.#resources.values()].map((r) => r.reset()))
  }

  #changed(): void {
    const { entries, resources } = merge([...this.#started, ...this.#imported.map((a) => a.declaration), ...this.#added.map((a) => a.declaration)])
    this.#entries = entries
    this.#routes = entries.map((e) => e.definition)
    this.#ids = new Set(this.#routes.map((r) => r.id))
    this.#resources = resources
    this.#kernel.routesChanged()
    this.#kernel.changed()
  }
}

/** The routes and resources these declarations serve, in order. */
function merge(declarations: readonly Declaration[]): Merged {
  let entries: UserRouteEntry[] = []
  const resources = new Map<string, Resource>()
  for (const declaration of declarations) {
    const ids = new Set(declaration.routes.filter((r) => r.resource === undefined).map((r) => r.definition.id))
    const names = new Set(declaration.resources.map(({ resource }) => resource.name))
    entries = entries.filter((e) => (e.resource === undefined ? !ids.has(e.definition.id) : !names.has(e.resource)))
    entries.push(...declaration.routes)
    for (const { resource } of declaration.resources) {
      // A resource replaced goes last, as its routes do.
      resources.delete(resource.name)
      resources.set(resource.name, resource)
    }
  }
  return { entries, resources }
}

/** The user's routes (its plain routes by id, its resources by name, with their five routes) a document declares again. */
function replacedBy(document: RoutesDocument, now: Merged): Replaced {
  const plain = new Set(now.entries.filter((e) => e.resource === undefined).map((e) => e.definition.id))
  const ids = new Set((document.routes ?? []).map((r) => r.id).filter((id) => plain.has(id)))
  const resources = new Set((document.resources ?? []).map((r) => r.name).filter((name) => now.resources.has(name)))
  for (const entry of now.entries) if (entry.resource !== undefined && resources.has(entry.resource)) ids.add(entry.definition.id)
  return { ids, resources }
}

async function seed(declaration: Declaration): Promise<void> {
  await Promise.all(declaration.resources.map(({ resource, records }) => resource.seed(records)))
}
