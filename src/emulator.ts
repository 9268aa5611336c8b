/**
 * The composition root: it builds the kernel's services, defines each domain (auth, versions,
 * webhooks, the control plane), merges their records (routes, api, fixtures, settings, scenario
 * targets, secret fields, state) and orders their resets. It holds no domain logic and knows no
 * transport: the adapters call `serve()`.
 */
import * as z from 'zod'
import { authSchemas, defineAuthDomain } from './auth/index.js'
import { CONTROL_PREFIX, defineControlDomain } from './control/index.js'
import type { EmulatorCore, EmulatorKernelApi, EmulatorOptions, EmulatorState, ScenarioTargets } from './emulator-api.js'
import { resolveOptions } from './emulator-options.js'
import { clockApi, journalApi, kernelActivation, scenariosApi } from './kernel/api.js'
import { ChangeFeed } from './kernel/changes.js'
import type { Domain, DomainSchemas, FixtureRecords, KernelServices } from './kernel/domain.js'
import { ConfigError } from './kernel/errors.js'
import { EventHub } from './kernel/events.js'
import { DEFAULT_FIXTURES_DIR, addBuiltInScenarios, defaultDocuments } from './defaults.js'
import { type FixtureSection, fixtureDocuments, loadSections, recordsOf } from './kernel/fixtures.js'
import { SeededIds } from './kernel/ids.js'
import { Journal } from './kernel/journal.js'
import { precompiled } from './kernel/precompiled.js'
import { Redactor } from './kernel/redact.js'
import { isNetworkFault, toFetchResponse } from './kernel/reply.js'
import { incomingOf } from './kernel/request.js'
import { ScenarioCatalogue } from './kernel/scenarios/catalogue.js'
import { type Activation, ScenarioEngine } from './kernel/scenarios/engine.js'
import { parseActivations } from './kernel/scenarios/syntax.js'
import { Pipeline } from './kernel/serve.js'
import { type SettingsTree, mergeSettings, parseSections, primeSections } from './kernel/settings.js'
import { allProblems } from './kernel/validation.js'
import { VERSION } from './version.js'
import { defineVersionsDomain, versionsSchemas } from './versions/index.js'
import { defineWebhooksDomain, webhooksSchemas } from './webhooks/index.js'

export { DEFAULT_ORIGIN } from './emulator-options.js'
export { VERSION }

export { BUILT_IN_SCENARIOS_DIR, DEFAULT_FIXTURES_DIR } from './defaults.js'

/** The domains' schemas, known without building an emulator. */
const SCHEMAS: readonly DomainSchemas[] = [authSchemas, versionsSchemas, webhooksSchemas]

/** Every section a fixture document may have. */
export const FIXTURE_SECTIONS: readonly FixtureSection<unknown>[] = SCHEMAS.flatMap((s) => s.fixtures)

let settings: z.ZodType | undefined

/**
 * The domains' settings sections, each partial and strict: what a scenario's `settings` may hold.
 * Built once per process (zod compiles a schema on its first parse; every emulator shares it).
 */
export function settingsSchema(): z.ZodType {
  settings ??= z.strictObject(
    Object.fromEntries(SCHEMAS.flatMap((s) => (s.settings ? [s.settings] : [])).map((s) => [s.name, s.schema.partial().strict().optional()])),
  )
  return settings
}

/** Builds an emulator without msw (the server uses this; `createEmulator()` adds msw handlers). */
export async function buildEmulator(options: EmulatorOptions = {}, build: BuildHooks = {}): Promise<EmulatorCore> {
  const { urls, seed, clock, logger, journalSize } = resolveOptions(options)
  const catalogue = new ScenarioCatalogue((tree) => {
    const parsed = settingsSchema().safeParse(tree)
    return parsed.success ? undefined : allProblems(parsed.error)[0]
  })
  let baseSettings: SettingsTree = {}
  const engine = new ScenarioEngine(catalogue, () => baseSettings)
  const changes = new ChangeFeed()
  const changed = (): void => changes.notify()
  engine.onChange(changed)
  // Ids the emulator makes up (version ids, keys) come from a seeded generator, restarted on reset.
  const ids = new SeededIds(seed)
  const redact = new Redactor()
  const kernel: KernelServices = { clock, ids, seed, logger, redact, baseSettings: () => baseSettings, changed, scenarios: engine, precompiled }

  const auth = defineAuthDomain({ kernel, authUrl: urls.auth, baseUrl: urls.base, options })
  const versions = defineVersionsDomain({ kernel, gate: auth.gate, baseUrl: urls.base, options })
  const webhooks = defineWebhooksDomain({ kernel, gate: auth.gate, webhookUrl: urls.webhook })
  const domains: readonly Domain[] = [auth, versions, webhooks]

  baseSettings = mergeSettings(
    Object.fromEntries(domains.flatMap((d) => (d.schemas.settings ? [[d.schemas.settings.name, d.baseSettings]] : []))),
    options.settings ?? {},
  )
  // The build validated the settings an emulator has without options: the same tree is not parsed
  // again (zod compiling this schema on its first parse costs a fresh process 1-2 ms).
  const treeText = JSON.stringify(baseSettings)
  if (precompiled(DEFAULT_SETTINGS_KEY) === treeText) {
    // ... and its sections, parsed at build: no settings schema is built or run for them.
    const sections = precompiled(DEFAULT_SECTIONS_KEY)
    if (typeof sections === 'string') primeSections(baseSettings, JSON.parse(sections) as Record<string, unknown>)
  } else {
    const problem = settingsSchema().safeParse(baseSettings)
    if (!problem.success) {
      const [first] = allProblems(problem.error)
      throw new ConfigError(`settings${first?.path ? `.${first.path}` : ''}`, first?.rule ?? 'is not valid')
    }
  }
  build.validSettings?.(treeText)
  for (const domain of domains) redact.add(domain.secretFields)
  const targets = domains.flatMap((d) => d.targets)
  const targetNames = new Set(targets.map((t) => t.name))
  addBuiltInScenarios(catalogue)
  for (const dir of options.scenarioDirs ?? []) catalogue.addDir(dir)
  for (const definition of options.scenarioDefinitions ?? []) catalogue.add(definition)

  const inputs = options.fixtures === undefined ? [] : Array.isArray(options.fixtures) ? options.fixtures : [options.fixtures]
  const defaults = options.defaultFixtures === false ? [] : defaultDocuments(DEFAULT_FIXTURES_DIR)
  const defaultFiles = new Set(defaults.map((d) => d.file))
  const loaded = loadSections([...defaults, ...fixtureDocuments(inputs)], FIXTURE_SECTIONS)
  const records: FixtureRecords = {
    of: <T>(section: FixtureSection<T>) => recordsOf(loaded, section),
    defaultsOnly: (sections) => defaults.length > 0 && sections.every((section) => recordsOf(loaded, section).every((r) => defaultFiles.has(r.file))),
  }
  for (const domain of domains) await domain.load(records)
  await build.loaded?.(domains, records)
  ids.reset()
  // Scenarios may be aimed only at routes and targets that exist (the control plane's never count).
  const scenarioRoutes = domains.flatMap((d) => d.routes.map((r) => r.id))
  engine.aims = { routes: () => scenarioRoutes, targets: () => targets }

  const startup: Array<{ name: string; activation: Activation }> = (options.scenarios ?? []).flatMap((item) => {
    if (typeof item === 'string') return parseActivations(item, item, targetNames)
    const { name, ...flat } = item
    return [{ name, activation: kernelActivation(name, flat, targetNames) }]
  })
  const applyStartup = (): void => {
    for (const { name, activation } of startup) engine.use(name, activation)
  }
  applyStartup()

  const journal = new Journal(clock, redact, journalSize)
  const state = (): EmulatorState => ({
    version: VERSION,
    clock: clock.state(),
    journalCapacity: journal.capacity,
    scenarios: engine.list(),
    ...auth.state(),
    ...webhooks.state(),
  })
  const hub = new EventHub({ journal, changes, state })
  const kernelApi: EmulatorKernelApi & Omit<EmulatorCore, keyof EmulatorKernelApi | 'apiKeys' | 'oauth' | 'users' | 'elements' | 'storages' | 'webhooks'> = {
    urls,
    seed,
    logger,
    clock: clockApi(clock, changed),
    scenarios: scenariosApi<ScenarioTargets>(engine, targetNames),
    journal: journalApi(journal, clock, () => pipeline.routes.map((r) => r.definition.id), { name: 'svc-mock', version: VERSION }),
    state,
    subscribe: (listener, subscribeOptions) => hub.subscribe(listener, subscribeOptions),
    disconnect: () => hub.close(),
    serve: (request, transport) => pipeline.serve(request, transport),
    origins: () => pipeline.origins(),
    handle: async (request) => {
      const reply = await pipeline.serve(incomingOf(request), 'in-process')
      // Like fetch: a connection that failed on purpose is a rejection, not a response.
      if (isNetworkFault(reply)) {
        throw new TypeError('fetch failed', { cause: new Error(`svc-mock closed the connection without answering (fault "${reply.fault ?? ''}")`) })
      }
      return toFetchResponse(reply, request.method)
    },
    health: () => ({ status: 'ok', version: VERSION }),
    routes: () => pipeline.routes.map(({ definition: { id, method, path, origin, summary } }) => ({ id, method, path, origin, summary })),
    // The generator (and zod's JSON Schema conversion) and the routes' documentation load only when
    // a document is asked for.
    openapi: async () => {
      const [{ openApiDocument }, ...docs] = await Promise.all([import('./openapi.js'), ...[...domains, control].map(async (d) => (await d.docs?.()) ?? {})])
      return openApiDocument({ routes: pipeline.routes.map((r) => r.definition), docs: Object.assign({}, ...docs), urls, version: VERSION })
    },
    credentials: () => domains.flatMap((d) => d.credentials()),
    reset: async () => {
      clock.reset()
      journal.clear()
      // Each domain's reset starts at once (a flow's queue empties synchronously), before the
      // scenarios go off: a scenario going off lets flows take up their queues again.
      const resets = domains.map((d) => d.reset())
      engine.reset()
      applyStartup()
      ids.reset()
      await Promise.all(resets)
      changed()
    },
    close: async () => {
      hub.close()
      clock.close()
    },
  }
  const emulator: EmulatorCore = Object.assign(kernelApi, auth.api, versions.api, webhooks.api)
  const control = defineControlDomain({ emulator, targetNames: [...targetNames] })
  const routes = [...domains, control].flatMap((d) => d.routes)
  catalogue.checkErrors(routes)
  const pipeline = new Pipeline(
    {
      clock,
      journal,
      scenarios: engine,
      logger,
      settings: () => baseSettings,
      origins: { auth: urls.auth, base: urls.base, webhook: urls.webhook },
      targets,
      routeList: `GET ${urls.base}${CONTROL_PREFIX}/routes`,
    },
    routes,
  )
  return emulator
}

/** What the build hooks into (the snapshot of the defaults, src/precompile.ts). */
export interface BuildHooks {
  /** Called once the domains have loaded their fixtures. */
  loaded?(domains: readonly Domain[], fixtures: FixtureRecords): Promise<void>
  /** Called with the base settings (as JSON) once they are known to be valid. */
  validSettings?(treeText: string): void
}

/** The snapshot's entry for the base settings of an emulator made without options, validated at build. */
export const DEFAULT_SETTINGS_KEY = 'settings:default-base'
/** The snapshot's entry for those settings' sections as the domains' schemas parse them (JSON). */
export const DEFAULT_SECTIONS_KEY = 'settings:default-sections'

/** The sections of a settings tree (as JSON), parsed by the domains' schemas: what the snapshot keeps for the default tree. */
export function parsedSectionsText(treeText: string): string {
  return JSON.stringify(parseSections(JSON.parse(treeText) as SettingsTree, SCHEMAS.flatMap((s) => (s.settings ? [s.settings] : []))))
}
