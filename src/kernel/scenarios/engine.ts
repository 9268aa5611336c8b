/**
 * The scenario engine: which scenarios are on, at which level, and what they do to one request.
 *
 * A scenario is switched on at one of three levels: for the run (flag, environment, control
 * plane, `emu.scenarios.use()`), for one test (`use()` inside `emu.scenarios.boundary(fn)`, kept in
 * an async context so concurrent tests never see each other's), or for one request (header
 * `x-svc-mock-scenario`). Precedence rises run < test < request, and within a level the later
 * activation wins: its settings are applied last, and its terminal rule (fault, error, respond)
 * is the one that answers (decide.ts). The delays of every matching rule add up.
 */
import { AsyncLocalStorage } from 'node:async_hooks'
import type { SettingsTree } from '../settings.js'
import type { RouteRef } from '../route.js'
import { ScenarioError } from '../errors.js'
import { type ActiveScenario, type AimSources, type ScenarioLevel, activeScenarios } from './active.js'
import type { ScenarioCatalogue } from './catalogue.js'
import { type ScenarioDecision, SettingsOverlay, applyRules, namesOf, touches, untouched } from './decide.js'
import { type ScenarioListing, listScenarios } from './listing.js'
import type { Activation, ParamValue, ScenarioFile } from './schema.js'
import { snapshotFile } from './snapshot.js'
import type { RequestTargets } from './targets.js'

export type { Activation, ScenarioListing }

const NO_TARGET_NAMES: ReadonlySet<string> = new Set()

interface BoundaryStore {
  active: ActiveScenario[]
  hidden: Set<string>
}

export type ScenarioChangeListener = (event: { name: string; on: boolean; level: ScenarioLevel }) => void

/** A run-level activation as a saved state holds it: which scenario and part, aimed at what, with what it has used. */
export interface SavedActivation {
  readonly name: string
  /** Which part of the scenario (0 for a scenario without parts). */
  readonly part: number
  readonly params: Readonly<Record<string, ParamValue>>
  /** Its aim: `route` and the domains' targets, by name. */
  readonly target: Readonly<Record<string, string>>
  /** Requests left; null for no limit. */
  readonly remaining: number | null
  /** Draws its rules with `probability` made so far. */
  readonly drawn: number
  /** Matching requests seen so far, per rule (for `every`). */
  readonly seen: readonly number[]
}

export class ScenarioEngine {
  readonly catalogue: ScenarioCatalogue
  /** Set by the kernel once the domains have given their routes and targets. */
  aims: AimSources | undefined
  #run: ActiveScenario[] = []
  #nextId = 1
  #als = new AsyncLocalStorage<BoundaryStore>()
  #listeners = new Set<ScenarioChangeListener>()
  #base: () => SettingsTree
  #overlay = new SettingsOverlay()

  constructor(catalogue: ScenarioCatalogue, baseSettings: () => SettingsTree) {
    this.catalogue = catalogue
    this.#base = baseSettings
  }

  /**
   * Switches a scenario on: inside a `boundary()` for that boundary only, otherwise for the run.
   * Switching on a scenario that is already on replaces its activation.
   */
  use(name: string, activation: Activation = {}): ActiveScenario[] {
    const store = this.#als.getStore()
    const level: ScenarioLevel = store ? 'test' : 'run'
    const active = this.activate(name, activation, level)
    if (store) {
      store.active = store.active.filter((s) => s.name !== name)
      store.active.push(...active)
      store.hidden.delete(name)
    } else {
      this.#run = this.#run.filter((s) => s.name !== name)
      this.#run.push(...active)
      this.#emit({ name, on: true, level })
    }
    return active
  }

  /** Switches a scenario off (inside a boundary: hides it there, even if the run has it on). */
  off(name: string): boolean {
    this.catalogue.get(name)
    const store = this.#als.getStore()
    if (store) {
      const had = store.active.some((s) => s.name === name) || this.#run.some((s) => s.name === name)
      store.active = store.active.filter((s) => s.name !== name)
      store.hidden.add(name)
      return had
    }
    const before = this.#run.length
    this.#run = this.#run.filter((s) => s.name !== name)
    const changed = this.#run.length !== before
    if (changed) this.#emit({ name, on: false, level: 'run' })
    return changed
  }

  /** Switches every run-level scenario off (a boundary's own are dropped with the boundary). */
  reset(): void {
    const names = this.#run.map((s) => s.name)
    this.#run = []
    for (const name of names) this.#emit({ name, on: false, level: 'run' })
  }

  /** The run-level scenarios on now, as a saved state holds them, in rank order. */
  saved(): SavedActivation[] {
    return this.#run.map((s) => ({
      name: s.name,
      part: s.part,
      params: s.params,
      target: s.target,
      remaining: Number.isFinite(s.remaining) ? s.remaining : null,
      drawn: s.random.drawn,
      seen: [...s.seen],
    }))
  }

  /**
   * The run-level scenarios a saved state holds, made again without switching them on (a scenario
   * or part the catalogue lacks, or bad parameters, throw). Their aims are not checked here: the
   * saved state's own targets are what they must name, and its reader checks them.
   */
  restorable(saved: readonly SavedActivation[]): ActiveScenario[] {
    return saved.map((item) => {
      const definition = this.catalogue.get(item.name)
      const params = this.catalogue.fillDefaults(definition, item.params)
      const { route, ...targets } = item.target
      const activation: Activation = { ...(route === undefined ? {} : { route }), ...(Object.keys(targets).length === 0 ? {} : { targets }) }
      const made = activeScenarios(definition, params, activation, 'run', () => this.#nextId++, undefined)[item.part]
      if (!made) throw new ScenarioError(item.name, 'part', `the scenario has no part ${item.part}`)
      made.remaining = item.remaining ?? Number.POSITIVE_INFINITY
      made.random.restore(item.drawn)
      item.seen.forEach((count, index) => {
        if (index < made.seen.length) made.seen[index] = count
      })
      return made
    })
  }

  /** Replaces the run-level scenarios with these (made by `restorable()`), telling listeners what went off and on. */
  replaceRun(active: readonly ActiveScenario[]): void {
    const before = new Set(this.#run.map((s) => s.name))
    this.#run = [...active]
    const after = new Set(active.map((s) => s.name))
    for (const name of before) if (!after.has(name)) this.#emit({ name, on: false, level: 'run' })
    for (const name of after) this.#emit({ name, on: true, level: 'run' })
  }

  /**
   * Wraps a function so that scenarios switched on inside it (with `use()`) apply only to the
   * requests it makes, however many tests run at the same time. Like msw's `server.boundary()`.
   */
  boundary<Args extends unknown[], R>(fn: (...args: Args) => R): (...args: Args) => R {
    return (...args: Args): R => {
      const parent = this.#als.getStore()
      const store: BoundaryStore = {
        active: parent ? [...parent.active] : [],
        hidden: new Set(parent?.hidden ?? []),
      }
      return this.#als.run(store, () => fn(...args))
    }
  }

  /** The scenarios on where this is called from (run-level, plus the boundary's own inside one). */
  active(): ActiveScenario[] {
    const store = this.#als.getStore()
    if (!store) return [...this.#run]
    return [...this.#run.filter((s) => !store.hidden.has(s.name)), ...store.active]
  }

  list(): ScenarioListing[] {
    return listScenarios(this.catalogue.list(), this.active())
  }

  /** What is on here, as one scenario file that reproduces it (snapshot.ts). */
  snapshot(name: string, description?: string): ScenarioFile {
    return snapshotFile(this.active(), name, description)
  }

  onChange(listener: ScenarioChangeListener): () => void {
    this.#listeners.add(listener)
    return () => this.#listeners.delete(listener)
  }

  /**
   * Builds an activation without switching it on (used for per-request scenarios): one active
   * scenario, or one per part of a scenario made of parts.
   */
  activate(name: string, activation: Activation, level: ScenarioLevel): ActiveScenario[] {
    const definition = this.catalogue.get(name)
    const params = this.catalogue.fillDefaults(definition, activation.params ?? {})
    return activeScenarios(definition, params, activation, level, () => this.#nextId++, this.aims)
  }

  /** The target names the scenarios on here are aimed at (the pipeline reads only those from a request). */
  targetNames(perRequest: readonly ActiveScenario[]): ReadonlySet<string> {
    let names: Set<string> | undefined
    for (const list of [this.active(), perRequest]) {
      for (const scenario of list) {
        for (const name of Object.keys(scenario.target)) if (name !== 'route') (names ??= new Set()).add(name)
      }
    }
    return names ?? NO_TARGET_NAMES
  }

  /**
   * What the active scenarios do to one request. Counts the request against each scenario's
   * `times` (a scenario with none left switches itself off).
   */
  decide(route: RouteRef, method: string, targets: RequestTargets, perRequest: readonly ActiveScenario[]): ScenarioDecision {
    const base = this.#base()
    const candidates = perRequest.length === 0 ? this.active() : [...this.active(), ...perRequest]
    if (candidates.length === 0) return untouched(base)

    const touching = candidates.filter((s) => touches(s, route, targets))
    if (touching.length === 0) return untouched(base)

    const { delayMs, outcome } = applyRules(touching, route, method)
    const usedUp = touching.filter((scenario) => this.#consume(scenario)).map((s) => s.name)
    return {
      scenarios: namesOf(touching),
      settings: this.#overlay.settings(base, touching),
      delayMs,
      outcome,
      usedUp,
    }
  }

  /** Tells listeners about run-level scenarios a request used up, once it is answered. */
  announce(usedUp: readonly string[]): void {
    for (const name of usedUp) this.#emit({ name, on: false, level: 'run' })
  }

  /**
   * The settings the scenarios on where this is called from give a route and target, without
   * counting a request against their `times`: for work outside a request (a flow taking up its
   * queue) that must see what a request to the same route would see.
   */
  settingsAt(routeId: string, targets: RequestTargets): SettingsTree {
    const base = this.#base()
    const route = this.#route(routeId)
    const touching = this.active().filter((s) => touches(s, route, targets))
    return touching.length === 0 ? base : this.#overlay.settings(base, touching)
  }

  /** Names of the scenarios on here that touch a route and target, without counting a request. */
  touchingAt(routeId: string, targets: RequestTargets): string[] {
    const route = this.#route(routeId)
    return namesOf(this.active().filter((s) => touches(s, route, targets)))
  }

  /** A route by its id, with its tags when the emulator serves it. */
  #route(routeId: string): RouteRef {
    return this.aims?.routes().find((r) => r.id === routeId) ?? { id: routeId }
  }

  /** Counts a request against `times`; true when that switched a run-level scenario off. */
  #consume(scenario: ActiveScenario): boolean {
    if (!Number.isFinite(scenario.remaining)) return false
    scenario.remaining--
    if (scenario.remaining > 0) return false
    if (scenario.level === 'run') {
      const before = this.#run.length
      this.#run = this.#run.filter((s) => s.id !== scenario.id)
      return this.#run.length !== before
    }
    if (scenario.level === 'test') {
      const store = this.#als.getStore()
      if (store) store.active = store.active.filter((s) => s.id !== scenario.id)
    }
    return false
  }

  #emit(event: { name: string; on: boolean; level: ScenarioLevel }): void {
    for (const listener of this.#listeners) listener(event)
  }
}
