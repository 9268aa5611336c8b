/**
 * The user's routes and resources of one emulator: those the run's options declare (route files,
 * documents given in code), declared at start in order, each document checked against everything
 * before it; and those added at run time (`emu.userRoutes.add()`, `POST /__svc-mock/routes`),
 * which a reset takes away again. A document added at run time replaces the user's routes of the
 * same ids and resources of the same names (as WireMock replaces a stub posted again with its id),
 * whether a file or an earlier addition declared them, until the next reset brings the run's own
 * back; a built-in route is never replaced. A document is declared whole before any of it is
 * served. After each change the kernel builds its route table again. What declares a document (its
 * checks, templates, placeholders and resources on `@msw/data`) loads with the first document.
 */
import type { KernelServices } from '../kernel/domain.js'
import type { Logger } from '../kernel/logger.js'
import type { RouteInfo } from '../kernel/kernel.js'
import type { RouteDefinition, RouteDoc } from '../kernel/route.js'
import type { Declaration, DeclareKit, Replaced, UserRouteEntry } from './declare.js'
import type { Resource } from './resources.js'
import type { RoutesDocument, RoutesDocumentInput } from './schema.js'
import { type RoutesInput, type RoutesSource, routeSources } from './sources.js'

const NOTHING: Replaced = { ids: new Set(), resources: new Set() }

export class RouteRegistry {
  readonly #kernel: KernelServices
  readonly #kit: Omit<DeclareKit, 'replaces'>
  readonly #logger: Logger
  #started: Declaration[] = []
  #added: Declaration[] = []
  /** The routes served now, in the order they were declared (a replacement goes last). */
  #entries: readonly UserRouteEntry[] = []
  #routes: readonly RouteDefinition[] = []
  #resources = new Map<string, Resource>()
  #ids = new Set<string>()
  /** Documents given in code or over the control plane so far (they are named `inline routes #N`). */
  #inline = 0

  constructor(kernel: KernelServices, kit: Omit<DeclareKit, 'taken' | 'isUsers' | 'resourceNames' | 'replaces'>) {
    this.#kernel = kernel
    this.#logger = kit.logger
    this.#kit = { ...kit, taken: () => kernel.routes(), isUsers: (id) => this.#ids.has(id), resourceNames: () => new Set(this.#resources.keys()) }
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
    if (sources.length === 0) return
    const { declare } = await import('./declare.js')
    for (const source of sources) {
      const declaration = declare(source, { ...this.#kit, replaces: () => NOTHING })
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
    const declaration = declare(source, { ...this.#kit, replaces: (parsed) => (replaced = this.#replacedBy(parsed)) })
    await seed(declaration)
    this.#added.push(declaration)
    this.#changed()
    if (replaced.ids.size > 0) this.#logger.info(`${source.name} replaced your routes ${[...replaced.ids].join(', ')} until the next reset`)
    return declaration.routes.map(({ definition: { id, method, path, origin, summary } }) => ({ id, method, path, origin, summary }))
  }

  /** Every route's documentation, by id. */
  docs(): Record<string, RouteDoc> {
    return Object.fromEntries(this.#entries.map((r) => [r.definition.id, r.doc()]))
  }

  /** Back to the run's own: routes and resources added at run time go, the others' records return to their seed. */
  async reset(): Promise<void> {
    const hadAdded = this.#added.length > 0
    this.#added = []
    if (hadAdded) this.#changed()
    await Promise.all([...this.#resources.values()].map((r) => r.reset()))
  }

  /** The user's routes (its plain routes by id, its resources by name, with their five routes) a document declares again. */
  #replacedBy(document: RoutesDocument): Replaced {
    const plain = new Set(this.#entries.filter((e) => e.resource === undefined).map((e) => e.definition.id))
    const ids = new Set((document.routes ?? []).map((r) => r.id).filter((id) => plain.has(id)))
    const resources = new Set((document.resources ?? []).map((r) => r.name).filter((name) => this.#resources.has(name)))
    for (const entry of this.#entries) if (entry.resource !== undefined && resources.has(entry.resource)) ids.add(entry.definition.id)
    return { ids, resources }
  }

  #changed(): void {
    let entries: UserRouteEntry[] = []
    const resources = new Map<string, Resource>()
    for (const declaration of [...this.#started, ...this.#added]) {
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
    this.#entries = entries
    this.#routes = entries.map((e) => e.definition)
    this.#ids = new Set(this.#routes.map((r) => r.id))
    this.#resources = resources
    this.#kernel.routesChanged()
    this.#kernel.changed()
  }
}

async function seed(declaration: Declaration): Promise<void> {
  await Promise.all(declaration.resources.map(({ resource, records }) => resource.seed(records)))
}
