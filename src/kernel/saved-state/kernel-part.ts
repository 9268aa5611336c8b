/**
 * The kernel's own part of a saved state: the run's id stream (its draws since the seed), the
 * clock (a manual clock is set to the saved time; a real clock keeps the lead it had over the wall
 * clock, never falling behind it), and the scenarios on for the run, each with the requests it
 * has left, its draws and its counts. Loading checks every scenario against the catalogue and
 * its aim against what the loaded state will hold, before anything changes.
 */
import type * as z from 'zod'
import type { Clock } from '../clock.js'
import { ScenarioError, UnknownScenarioError } from '../errors.js'
import type { SeededIds } from '../ids.js'
import type { RouteRef } from '../route.js'
import { routeSelected } from '../route.js'
import { type SavedKernelPart, SavedStateError } from '../saved.js'
import type { ScenarioEngine } from '../scenarios/engine.js'
import type { KernelPart } from './document.js'

export interface KernelServicesSaved {
  readonly clock: Clock
  readonly ids: SeededIds
  readonly scenarios: ScenarioEngine
}

/** What scenarios may be aimed at once the state is loaded. */
export interface AimsAfter {
  readonly routes: readonly RouteRef[]
  /** A target's values by its name; undefined for a name no domain declares. */
  values(target: string): readonly string[] | undefined
}

export function saveKernelPart(kernel: KernelServicesSaved): SavedKernelPart {
  const { clock } = kernel
  return {
    ids: kernel.ids.drawn,
    clock: { mode: clock.mode, now: clock.date().toISOString(), timeScale: clock.timeScale },
    scenarios: kernel.scenarios.saved(),
  }
}

/**
 * Checks the kernel's part; returns what applies it (synchronously) and the scenarios a reset
 * switches on again. `exportedAt`: the wall time the document was written, which gives a real
 * clock's lead.
 */
export function prepareKernelPart(part: z.output<typeof KernelPart>, exportedAt: string, kernel: KernelServicesSaved, aims: AimsAfter): () => void {
  part.scenarios.forEach((saved, index) => checkAim(saved.target, aims, `kernel.scenarios[${index}].target`))
  let active: ReturnType<ScenarioEngine['restorable']>
  try {
    active = kernel.scenarios.restorable(part.scenarios)
  } catch (error) {
    if (error instanceof UnknownScenarioError) {
      const index = part.scenarios.findIndex((s) => s.name === error.scenario)
      throw new SavedStateError(`kernel.scenarios[${index}].name`, error.message)
    }
    if (error instanceof ScenarioError) {
      const index = part.scenarios.findIndex((s) => s.name === error.file)
      throw new SavedStateError(`kernel.scenarios[${index}]${error.path === '' ? '' : `.${error.path}`}`, error.rule)
    }
    throw error
  }
  const now = Date.parse(part.clock.now)
  const lead = now - Date.parse(exportedAt)
  return () => {
    kernel.clock.restore(kernel.clock.mode === 'manual' ? now : Date.now() + lead)
    kernel.scenarios.replaceRun(active)
    kernel.ids.restore(part.ids)
  }
}

function checkAim(target: Readonly<Record<string, string>>, aims: AimsAfter, path: string): void {
  for (const [name, value] of Object.entries(target)) {
    if (name === 'route') {
      if (!aims.routes.some((route) => routeSelected(value, route))) throw new SavedStateError(`${path}.route`, `no route "${value}" exists in this emulator once the state is loaded`)
      continue
    }
    const values = aims.values(name)
    if (values === undefined) throw new SavedStateError(`${path}.${name}`, 'is not something a scenario can be aimed at')
    if (!values.includes(value)) throw new SavedStateError(`${path}.${name}`, `no ${name} "${value}" exists in the saved state or the fixtures`)
  }
}
