/**
 * The user's routes and resources of one emulator: those the run's options declare (route files,
 * documents given in code), declared at start in order, each document checked against everything
 * before it; and those added at run time (`emu.userRoutes.add()`, `POST /__svc-mock/routes`),
 * which a reset takes away again. A document is declared whole before any of it is served. After
 * each change the kernel builds its route table again.
 */
import type { KernelServices } from '../kernel/domain.js'
import type { RouteInfo } from '../kernel/kernel.js'
import type { RouteDefinition, RouteDoc } from '../kernel/route.js'
import { type Declaration, type DeclareKit, declare } from './declare.js'
import type { Resource } from './resources.js'
import type { RoutesDocumentInput } from './schema.js'
import { type RoutesInput, type RoutesSource, routeSources } from './sources.js'

export class RouteRegistry {
  readonly #kernel: KernelServices
  readonly #kit: DeclareKit
  #started: Declaration[] = []
  #added: Declaration[] = []
  #routes: readonly RouteDefinition[] = []
  #resources = new Map<string, Resource>()
  #ids = new Set<string>()
  /** Documents given in code or over the control plane so far (they are named `inline routes #N`). */
  #inline = 0

  constructor(kernel: KernelServices, kit: Omit<DeclareKit, 'taken' | 'isUsers' | 'resourceNames'>) {
    this.#kernel = kernel
    this.#kit = { ...kit, taken: () => kernel.routes(), isUsers: (id) => this.#ids.has(id), resourceNames: () => new Set(this.#resources.keys()) }
  }

  /** The routes served now, in the order they were declared. */
  get routes(): readonly RouteDefinition[] {
    return this.#routes
  }

  get resources(): ReadonlyMap<string, Resource> {
    return this.#resources
  }

  /** Declares the run's route files and documents, in order. */
  async start(inputs: readonly RoutesInput[]): Promise<void> {
    const sources = routeSources(inputs)
    this.#inline = sources.filter((s) => s.dir === undefined).length
    for (const source of sources) {
      const declaration = declare(source, this.#kit)
      await seed(declaration)
      this.#started.push(declaration)
      this.#changed()
    }
  }

  /** Adds a document's routes and resources until the next reset; returns the routes it added. */
  async add(document: RoutesDocumentInput): Promise<RouteInfo[]> {
    const source: RoutesSource = { name: `inline routes #${++this.#inline}`, dir: undefined, data: document }
    const declaration = declare(source, this.#kit)
    await seed(declaration)
    this.#added.push(declaration)
    this.#changed()
    return declaration.routes.map(({ definition: { id, method, path, origin, summary } }) => ({ id, method, path, origin, summary }))
  }

  /** Every route's documentation, by id. */
  docs(): Record<string, RouteDoc> {
    return Object.fromEntries([...this.#started, ...this.#added].flatMap((d) => d.routes.map((r) => [r.definition.id, r.doc()])))
  }

  /** Back to the run's own: routes and resources added at run time go, the others' records return to their seed. */
  async reset(): Promise<void> {
    const hadAdded = this.#added.length > 0
    this.#added = []
    if (hadAdded) this.#changed()
    await Promise.all([...this.#resources.values()].map((r) => r.reset()))
  }

  #changed(): void {
    const all = [...this.#started, ...this.#added]
    this.#routes = all.flatMap((d) => d.routes.map((r) => r.definition))
    this.#ids = new Set(this.#routes.map((r) => r.id))
    this.#resources = new Map(all.flatMap((d) => d.resources.map(({ resource }) => [resource.name, resource] as const)))
    this.#kernel.routesChanged()
    this.#kernel.changed()
  }
}

async function seed(declaration: Declaration): Promise<void> {
  await Promise.all(declaration.resources.map(({ resource, records }) => resource.seed(records)))
}
