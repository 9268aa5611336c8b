/**
 * Saved states, written and read (loaded with import() by `emu.exportState()` and
 * `emu.importState()`, never at start-up). Writing is one synchronous snapshot of the kernel's
 * part and every domain's, taken between two requests. Reading is all or nothing: the document is
 * checked whole (JSON, format, schema, seed), then every part is prepared (checked against the
 * emulator, with what takes time made aside), and only then applied, synchronously, in one step:
 * the clock, the scenarios and the ids first, then each domain, each making what it holds what a
 * reset returns to. Imports run one at a time.
 */
import type * as z from 'zod'
import type { AssembledPart, Assembly } from '../assembly.js'
import type { Clock } from '../clock.js'
import type { SeededIds } from '../ids.js'
import type { Journal } from '../journal.js'
import type { RouteDefinition } from '../route.js'
import { type ImportContext, type ImportSummary, type PreparedPart, SAVED_STATE_FORMAT, type SavedAt, type SavedStateDocument, SavedStateError } from '../saved.js'
import type { ScenarioEngine } from '../scenarios/engine.js'
import { SECRETS_NOTE, checked, documentSchema, readDocument } from './document.js'
import { type AimsAfter, prepareKernelPart, saveKernelPart } from './kernel-part.js'

/** What the kernel hands the reader and writer. */
export interface StateHost {
  readonly version: string
  readonly seed: number
  readonly urls: SavedAt
  readonly clock: Clock
  readonly ids: SeededIds
  readonly scenarios: ScenarioEngine
  readonly journal: Journal
  readonly domains: Assembly
  /** Every route served now, the fallback's included. */
  routes(): readonly RouteDefinition[]
  /** Makes the scenarios on now the ones a reset switches on again. */
  scenarioBaseline(): void
  changed(): void
}

const schemas = new WeakMap<readonly AssembledPart[], z.ZodType>()

function schemaOf(parts: readonly AssembledPart[]): z.ZodType {
  let schema = schemas.get(parts)
  if (!schema) {
    schema = documentSchema(parts)
    schemas.set(parts, schema)
  }
  return schema
}

export async function exportState(host: StateHost): Promise<SavedStateDocument> {
  return (await snapshotter(host))()
}

/** Loads what writing a document needs, and answers what writes one, synchronously: one snapshot, between two requests. */
export async function snapshotter(host: StateHost): Promise<() => SavedStateDocument> {
  const parts = await host.domains.savedParts()
  await Promise.all(parts.map(({ part }) => part.ready?.()))
  return () => snapshot(host, parts)
}

function snapshot(host: StateHost, parts: readonly AssembledPart[]): SavedStateDocument {
  const document: SavedStateDocument = {
    svcMockState: SAVED_STATE_FORMAT,
    version: host.version,
    exportedAt: new Date().toISOString(),
    note: SECRETS_NOTE,
    seed: host.seed,
    fixtures: host.domains.fixturesDigest(),
    urls: { ...host.urls },
    kernel: saveKernelPart(host),
  }
  for (const { name, part } of parts) (document as Record<string, unknown>)[name] = part.save()
  return document
}

const queues = new WeakMap<StateHost, Promise<unknown>>()

/** Loads a saved state (a document or its JSON text); one import at a time per emulator. */
export function importState(host: StateHost, input: unknown): Promise<ImportSummary> {
  const run = (queues.get(host) ?? Promise.resolve()).then(() => importNow(host, input))
  queues.set(host, run.catch(() => undefined))
  return run
}

async function importNow(host: StateHost, input: unknown): Promise<ImportSummary> {
  const raw = readDocument(input, host.version)
  const parts = await host.domains.savedParts()
  const document = checked(schemaOf(parts), raw) as Record<string, unknown> & { seed: number; exportedAt: string; version: string; fixtures: string; urls: Record<string, string>; kernel: unknown }
  if (document.seed !== host.seed) {
    throw new SavedStateError('seed', `the state was saved by an emulator of seed ${document.seed}; this one runs seed ${host.seed}: start it with --seed ${document.seed} (seed: ${document.seed} in code)`)
  }
  const prepared: PreparedPart[] = []
  let applyKernel: () => void
  try {
    for (const { name, schema, part } of parts) {
      const context: ImportContext = {
        problem: (path, rule) => new SavedStateError(`${name}${path === '' ? '' : path.startsWith('[') ? path : `.${path}`}`, rule),
        savedAt: document.urls,
      }
      const given = document[name] ?? checked(schema, {})
      prepared.push(await part.prepare(given, context))
    }
    applyKernel = prepareKernelPart(document.kernel as Parameters<typeof prepareKernelPart>[0], document.exportedAt, host, aimsAfter(host, parts, prepared))
  } catch (error) {
    await Promise.all(prepared.map((p) => p.discard?.()))
    throw error
  }
  // From here on synchronous: the state is replaced in one step.
  host.journal.clear()
  applyKernel()
  for (const part of prepared) part.apply()
  host.scenarioBaseline()
  host.changed()
  return { status: 'imported', savedBy: document.version, fixtures: document.fixtures === host.domains.fixturesDigest() ? 'same' : 'other', clock: host.clock.state() }
}

/** The routes and target values scenarios may be aimed at once the prepared parts are applied. */
function aimsAfter(host: StateHost, parts: readonly AssembledPart[], prepared: readonly PreparedPart[]): AimsAfter {
  const replaced = new Set<RouteDefinition>()
  const added: Array<{ id: string; tags?: readonly string[] | undefined }> = []
  parts.forEach((part, index) => {
    const routes = prepared[index]?.routes
    if (routes === undefined) return
    for (const route of part.routes()) replaced.add(route)
    added.push(...routes)
  })
  const routes = [...host.routes().filter((route) => !route.control && !replaced.has(route)).map(({ id, tags }) => ({ id, tags })), ...added]
  return {
    routes,
    values: (name) => {
      for (const [index, part] of parts.entries()) {
        const target = part.targets.find((t) => t.name === name)
        if (target) return prepared[index]?.targets?.[name] ?? target.values()
      }
      return host.domains.targets.find((t) => t.name === name)?.values()
    },
  }
}
