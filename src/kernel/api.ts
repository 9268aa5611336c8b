/**
 * The kernel's part of the emulator object: `emu.clock`, `emu.scenarios` and `emu.journal`, thin
 * facades over the clock, the scenario engine and the journal (the control plane translates them
 * one for one). Scenario activations name their targets flat (`{ webhook: 'orders' }`), by the
 * names the domains declare.
 */
import type { Clock, ClockState } from './clock.js'
import { suggestion } from './closest.js'
import { InvalidInputError, ScenarioError } from './errors.js'
import { routeMatches } from './route.js'
import { type Har, toHar } from './har.js'
import type { Journal, JournalEntry, JournalFilter, JournalWaitOptions } from './journal.js'
import type { Activation, ScenarioEngine, ScenarioListing } from './scenarios/engine.js'
import { type ParamValue, SCENARIO_NAME, type ScenarioFile } from './scenarios/schema.js'
import { parseActivations } from './scenarios/syntax.js'

/** The name of a snapshot of what is on, unless one is given. */
export const DEFAULT_SNAPSHOT_NAME = 'saved-scenarios'

export interface ClockApi {
  now(): Date
  state(): ClockState
  /** Moves the emulator clock; timers that fall due fire in order. Resolves with the new state. */
  advance(ms: number): Promise<ClockState>
  /** Lets in-flight work run until it is finished or waiting on the clock. */
  settle(): Promise<void>
  /** Resolves once at least `count` in-flight requests wait on the clock (e.g. a delayed answer). */
  waitForParked(count?: number): Promise<void>
  /** How many in-flight requests (and flow runs) wait on the clock right now. */
  parked(): number
}

/** How a scenario is switched on: for how many requests, with which parameters, aimed at what. */
export interface ScenarioSwitch {
  /** On for the next N requests it touches, then off. Default: until switched off. */
  times?: number
  /** Parameters declared by the scenario (`ms` for `latency`). */
  params?: Record<string, ParamValue>
  /** Only requests to this route (id or `prefix.*`). */
  route?: string
}

/** A scenario's name, or its text form with parameters and aim (`latency:ms=2000`). */
export type ScenarioSpec<Name extends string> = Name | `${Name}:${string}`

/** `Name`: the scenario names it takes (the emulator's public type narrows them to the catalogue's). */
export interface ScenariosApi<Targets extends object = object, Name extends string = string> {
  list(): ScenarioListing[]
  /** On for the run, or, inside `boundary()`, for that boundary only. Accepts `name:key=value`. */
  use(name: ScenarioSpec<Name>, activation?: ScenarioSwitch & Targets): void
  off(name: Name): boolean
  /** Wraps a test so the scenarios it switches on apply to its own requests only. */
  boundary<Args extends unknown[], R>(fn: (...args: Args) => R): (...args: Args) => R
  /**
   * What is on now as one scenario file (a part per scenario on, in rank order, parameters filled
   * in, with its aim and the requests it has left): save it in a folder, then
   * `--scenarios DIR --scenario NAME` switches the same set on. Default name `saved-scenarios`.
   */
  snapshot(options?: { name?: string; description?: string }): ScenarioFile
}

export interface JournalApi {
  list(filter?: JournalFilter): JournalEntry[]
  wait(filter?: JournalFilter, options?: JournalWaitOptions): Promise<JournalEntry | undefined>
  /** Empties the journal (sequence numbers keep counting); watchers get `journal-cleared`. */
  clear(): void
  /** The entries (as `list()` filters them) as an HTTP Archive, HAR 1.2, redacted as the journal is. */
  har(filter?: JournalFilter): Har
}

export function clockApi(clock: Clock, changed: () => void): ClockApi {
  return {
    now: () => clock.date(),
    state: () => clock.state(),
    advance: async (ms) => {
      await clock.advance(ms)
      changed()
      return clock.state()
    },
    settle: () => clock.settle(),
    parked: () => clock.parked(),
    waitForParked: async (count = 1) => {
      while (clock.parked() < count) await new Promise((resolve) => setImmediate(resolve))
    },
  }
}

/** `routes` lists the route ids a journal entry can have; a filter on a route that matches none is refused. */
export function journalApi(journal: Journal, clock: Clock, routes: () => readonly string[], creator: { name: string; version: string }): JournalApi {
  const check = (filter: JournalFilter | undefined): void => {
    const route = filter?.route
    if (route === undefined) return
    const known = [...routes(), 'unmatched']
    if (!known.some((id) => routeMatches(route, id))) throw new InvalidInputError(`No route "${route}" exists ${suggestion(route, known, 'route')}.`, 'route')
  }
  return {
    list: (filter) => {
      check(filter)
      return journal.list(filter)
    },
    // Tracked, so a test can see the wait parked on the clock (waitForParked) before advancing.
    wait: async (filter, options) => {
      check(filter)
      return await clock.track((task) => journal.wait(filter, options, (ms, signal) => task.sleep(ms, signal)))
    },
    clear: () => journal.clear(),
    har: (filter) => {
      check(filter)
      return toHar(journal.list(filter), creator)
    },
  }
}

export function scenariosApi<Targets extends object>(engine: ScenarioEngine, targetNames: ReadonlySet<string>): ScenariosApi<Targets> {
  return {
    list: () => engine.list(),
    use: (name, activation = {} as ScenarioSwitch & Targets) => {
      const parsed = name.includes(':') || name.includes(',') ? parseOne(name, targetNames) : { name, activation: {} }
      const given = kernelActivation(parsed.name, activation, targetNames)
      engine.use(parsed.name, {
        ...parsed.activation,
        ...given,
        ...(parsed.activation.targets || given.targets ? { targets: { ...parsed.activation.targets, ...given.targets } } : {}),
      })
    },
    off: (name) => engine.off(name),
    boundary: (fn) => engine.boundary(fn),
    snapshot: (options = {}) => {
      const name = options.name ?? DEFAULT_SNAPSHOT_NAME
      if (!SCENARIO_NAME.test(name)) throw new InvalidInputError(`A scenario name is lower-case letters, digits and dashes; got "${name}".`, 'name')
      return engine.snapshot(name, options.description)
    },
  }
}

/** The text form of one scenario (`latency:ms=2000`). */
export function parseOne(text: string, targetNames: ReadonlySet<string>): { name: string; activation: Activation } {
  const [first, ...rest] = parseActivations(text, text, targetNames)
  if (!first || rest.length > 0) throw new ScenarioError(text, '', 'give one scenario here')
  return first
}

/** The engine's activation from the flat form (`{ times, params, route, webhook: 'orders' }`). */
export function kernelActivation(name: string, flat: object, targetNames: ReadonlySet<string>): Activation {
  const out: Activation = {}
  const targets: Record<string, string> = {}
  for (const [key, value] of Object.entries(flat)) {
    if (value === undefined) continue
    if (key === 'times') out.times = value as number
    else if (key === 'params') out.params = value as Record<string, ParamValue>
    else if (key === 'route') out.route = String(value)
    else if (targetNames.has(key)) targets[key] = String(value)
    else throw new ScenarioError(name, key, `unknown option; an activation takes times, params, route${[...targetNames].map((t) => `, ${t}`).join('')}`)
  }
  if (Object.keys(targets).length > 0) out.targets = targets
  return out
}
