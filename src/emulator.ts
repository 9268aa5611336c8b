/**
 * The composition root: builds the clock, journal, scenario engine, the domains and the route
 * registry from the options and fixtures, and exposes the emulator object that tests, the control
 * plane and both transports drive. It knows no transport: the msw handlers and the node:http
 * server are derived from `emulator.dispatcher` by the adapters.
 */
import { fileURLToPath } from 'node:url'
import { z } from 'zod'
import { type ApiKey, Directory, apiKeysSection, describeApiKey, usersSection } from './auth/directory.js'
import { AccessGate, AuthSettings } from './auth/gate.js'
import { oauthApi } from './auth/oauth/api.js'
import { oauthClientsSection } from './auth/oauth/clients.js'
import { OAuthDomain } from './auth/oauth/domain.js'
import { signingKeysSection } from './auth/oauth/keys.js'
import { requestClientId } from './auth/oauth/request-client.js'
import { dashboardRoutes } from './control/dashboard.js'
import { eventRoutes } from './control/events.js'
import { oauthControlRoutes } from './control/oauth.js'
import { controlRoutes } from './control/routes.js'
import { webhookControlRoutes } from './control/webhooks.js'
import type { CreatedApiKey, CredentialInfo, EmulatorCore, EmulatorOptions, EmulatorUrls } from './emulator-api.js'
import { EventHub } from './events.js'
import { ChangeFeed } from './kernel/changes.js'
import { Clock, type ClockOptions } from './kernel/clock.js'
import { Dispatcher } from './kernel/dispatch.js'
import { ConfigError, ScenarioError } from './kernel/errors.js'
import { type FixtureSection, fixtureDocuments, loadSections, recordsOf } from './kernel/fixtures.js'
import { faultOf, materialize } from './kernel/http.js'
import { SeededIds } from './kernel/ids.js'
import { DEFAULT_JOURNAL_CAPACITY, Journal, routeMatches } from './kernel/journal.js'
import { createLogger } from './kernel/logger.js'
import type { RouteDefinition } from './kernel/route.js'
import { ScenarioCatalogue } from './kernel/scenarios/catalogue.js'
import { type ScenarioActivation, ScenarioEngine } from './kernel/scenarios/engine.js'
import { parseActivations } from './kernel/scenarios/syntax.js'
import { mergeSettings, readSection } from './kernel/settings.js'
import { allProblems } from './kernel/validation.js'
import { type UserInfo, type WebhookEffect, buildState } from './state.js'
import { VERSION } from './version.js'
import { VersionsDomain, VersionsSettings, elementsSection, generateSection, storagesSection } from './versions/domain.js'
import { type WebhookView, WebhooksDomain, webhooksSection } from './webhooks/domain.js'
import { WebhooksSettings } from './webhooks/model.js'

export const DEFAULT_ORIGIN = 'https://acme.svc-mock.test'

const root = new URL('../', import.meta.url)
export const DEFAULT_FIXTURES_DIR = fileURLToPath(new URL('fixtures/default/', root))
export const BUILT_IN_SCENARIOS_DIR = fileURLToPath(new URL('scenarios/', root))

export { VERSION }

export type {
  ApiKeysApi,
  ClockApi,
  CreatedApiKey,
  CredentialInfo,
  ElementsApi,
  Emulator,
  EmulatorCore,
  EmulatorOptions,
  EmulatorUrls,
  JournalApi,
  RouteInfo,
  ScenariosApi,
  StoragesApi,
  UsersApi,
  WebhooksApi,
} from './emulator-api.js'

function normalizeOrigin(value: string, option: string): string {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    throw new ConfigError(option, `must be an absolute URL such as https://acme.svc-mock.test, got "${value}"`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ConfigError(option, `must use http or https, got "${value}"`)
  return url.origin
}

/** The domains' settings sections, each partial and strict: what a scenario's `settings` may hold. */
export function settingsSchema(): z.ZodType {
  return z.strictObject({
    auth: AuthSettings.partial().strict().optional(),
    versions: VersionsSettings.partial().strict().optional(),
    webhooks: WebhooksSettings.partial().strict().optional(),
  })
}

/** Every section a fixture document may have. */
export const FIXTURE_SECTIONS: ReadonlyArray<FixtureSection<unknown>> = [
  usersSection,
  apiKeysSection,
  storagesSection,
  elementsSection,
  generateSection,
  oauthClientsSection,
  signingKeysSection,
  webhooksSection,
] as ReadonlyArray<FixtureSection<unknown>>

/** Builds an emulator without msw (the server uses this; `createEmulator()` adds msw handlers). */
export async function buildEmulator(options: EmulatorOptions = {}): Promise<EmulatorCore> {
  const origin = normalizeOrigin(options.origin ?? DEFAULT_ORIGIN, 'origin')
  const urls: EmulatorUrls = {
    auth: options.authUrl === undefined ? origin : normalizeOrigin(options.authUrl, 'authUrl'),
    base: options.baseUrl === undefined ? origin : normalizeOrigin(options.baseUrl, 'baseUrl'),
    webhook: options.webhookUrl === undefined ? origin : normalizeOrigin(options.webhookUrl, 'webhookUrl'),
  }
  const seed = options.seed ?? 1
  if (!Number.isSafeInteger(seed) || seed < 0) throw new ConfigError('seed', `must be a whole number >= 0, got ${String(options.seed)}`)
  const clockOptions: ClockOptions = typeof options.clock === 'string' ? { mode: options.clock } : (options.clock ?? {})
  const clock = new Clock(clockOptions)
  const logger = typeof options.log === 'object' ? options.log : createLogger(options.log ?? 'silent')
  const journalSize = options.journalSize ?? DEFAULT_JOURNAL_CAPACITY
  if (!Number.isInteger(journalSize) || journalSize < 1) throw new ConfigError('journalSize', `must be a whole number >= 1, got ${String(journalSize)}`)
  const journal = new Journal(clock, journalSize)
  // Told when what the dashboard shows moves without a journaled request (see events.ts).
  const changes = new ChangeFeed()
  const changed = (): void => changes.notify()

  const baseSettings = mergeSettings(
    {
      auth: {
        staticKeys: options.staticKeys ?? 'allowed',
        ...(options.tokenLifetime === undefined ? {} : { tokenLifetime: options.tokenLifetime }),
        ...(options.tokenAlgorithm === undefined ? {} : { tokenAlgorithm: options.tokenAlgorithm }),
        ...(options.consent === undefined ? {} : { consent: options.consent }),
      },
      versions: { listKey: options.versionListKey ?? 'elements', requiredScope: options.versionsScope ?? null },
    },
    options.settings ?? {},
  )
  const schema = settingsSchema()
  const settingsProblems = schema.safeParse(baseSettings)
  if (!settingsProblems.success) {
    const [problem] = allProblems(settingsProblems.error)
    throw new ConfigError(`settings${problem?.path ? `.${problem.path}` : ''}`, problem?.rule ?? 'is not valid')
  }

  const catalogue = new ScenarioCatalogue((tree) => {
    const parsed = schema.safeParse(tree)
    return parsed.success ? undefined : allProblems(parsed.error)[0]
  })
  catalogue.addDir(BUILT_IN_SCENARIOS_DIR)
  for (const dir of options.scenarioDirs ?? []) catalogue.addDir(dir)
  for (const definition of options.scenarioDefinitions ?? []) catalogue.add(definition)
  const scenarios = new ScenarioEngine(catalogue, () => baseSettings)

  // Ids the emulator makes up (version ids, keys) come from a seeded generator, restarted on reset.
  const ids = new SeededIds(seed)
  const newId = (): string => ids.uuid()

  const directory = new Directory()
  const gate = new AccessGate(directory)
  const versions = new VersionsDomain({ gate, baseUrl: urls.base, newId })
  const oauth = new OAuthDomain({ gate, directory, authUrl: urls.auth, baseUrl: urls.base, seed, settings: () => baseSettings })
  // --- webhooks (issue 4) ---
  const webhooks = new WebhooksDomain({
    gate,
    clock,
    webhookUrl: urls.webhook,
    newToken: () => ids.token(32).toLowerCase(),
    baseSettings: () => baseSettings,
    settingsAt: (webhook) => scenarios.settingsAt('webhooks.receive', { webhook }),
    onError: (error) => logger.error('a webhook flow failed', error),
    onChange: changed,
  })
  // A run-level scenario going off may make flows active again: they take up their queues.
  scenarios.onChange((event) => {
    if (!event.on) webhooks.resumeAll()
  })
  scenarios.onChange(changed)
  // --- end webhooks ---

  const inputs = options.fixtures === undefined ? [] : Array.isArray(options.fixtures) ? options.fixtures : [options.fixtures]
  const documents = fixtureDocuments([...(options.defaultFixtures === false ? [] : [DEFAULT_FIXTURES_DIR]), ...inputs])
  const loaded = loadSections(documents, FIXTURE_SECTIONS)
  await directory.load(recordsOf(loaded, usersSection), recordsOf(loaded, apiKeysSection))
  await versions.load(recordsOf(loaded, storagesSection), recordsOf(loaded, elementsSection), recordsOf(loaded, generateSection)[0], seed)
  await oauth.load(recordsOf(loaded, oauthClientsSection), recordsOf(loaded, signingKeysSection))
  await webhooks.load(recordsOf(loaded, webhooksSection))
  ids.reset()

  const startup: Array<{ name: string; activation: ScenarioActivation }> = (options.scenarios ?? []).map((item) =>
    typeof item === 'string' ? parseOne(item) : { name: item.name, activation: withoutName(item) },
  )
  const applyStartup = (): void => {
    for (const { name, activation } of startup) scenarios.use(name, activation)
  }
  applyStartup()

  const oauthPublic = oauthApi(oauth, clock)
  const users = (): UserInfo[] =>
    directory.users.all().map((user) => ({
      id: user.id,
      name: user.name,
      ...(user.email === undefined ? {} : { email: user.email }),
      permissions: user.permissions,
      consents: oauthPublic.consents.list(user.id),
    }))
  const webhookEffect = (view: WebhookView): WebhookEffect => {
    const target = { webhook: view.id }
    const settings = readSection(scenarios.settingsAt('webhooks.receive', target), 'webhooks', WebhooksSettings)
    return { flow: { ...view.flow, ...settings.flow }, gone: settings.gone, scenarios: scenarios.touchingAt('webhooks.receive', target) }
  }
  const hub = new EventHub({ journal, changes, state: () => emulator.state() })

  let dispatcher: Dispatcher | undefined
  const emulator: EmulatorCore = {
    urls,
    seed,
    logger,
    get dispatcher(): Dispatcher {
      if (!dispatcher) throw new Error('emulator not ready')
      return dispatcher
    },
    originOf: (kind) => urls[kind],
    clock: {
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
    },
    scenarios: {
      list: () => scenarios.list(),
      use: (name, activation) => {
        const parsed = name.includes(':') || name.includes(',') ? parseOne(name) : { name, activation: {} }
        scenarios.use(parsed.name, { ...parsed.activation, ...activation })
      },
      off: (name) => scenarios.off(name),
      boundary: (fn) => scenarios.boundary(fn),
    },
    journal: {
      list: (filter) => journal.list(filter),
      // Tracked, so a test can see the wait parked on the clock (waitForParked) before advancing.
      wait: (filter, waitOptions) => clock.track(() => journal.wait(filter, waitOptions)),
      clear: () => journal.clear(),
    },
    elements: {
      list: (filter = {}) => versions.admin.listElements(filter),
      add: (element) => versions.admin.addElement(element),
      addVersion: (elementId, version, where = {}) => versions.admin.addVersion(elementId, version, where),
      remove: (elementId, where = {}) => versions.admin.removeElement(elementId, where),
      removeVersion: (elementId, versionId, where = {}) => versions.admin.removeVersion(elementId, versionId, where),
    },
    storages: {
      list: () => versions.store.storages.all().map((s) => ({ collectionId: s.collectionId, storageId: s.storageId, facets: s.facets })),
      add: (storage) => versions.admin.addStorage(storage),
    },
    apiKeys: {
      list: () => directory.apiKeys.all().map(describeApiKey),
      create: async (input) => publicKey(await directory.createApiKey(input, () => ids.token(24))),
      delete: (key) => directory.deleteApiKey(key),
    },
    oauth: {
      ...oauthPublic,
      clients: {
        ...oauthPublic.clients,
        create: notifying(changed, oauthPublic.clients.create),
        delete: notifying(changed, oauthPublic.clients.delete),
        regenerateSecret: notifying(changed, oauthPublic.clients.regenerateSecret),
      },
      consents: { ...oauthPublic.consents, revoke: notifying(changed, oauthPublic.consents.revoke) },
    },
    users: { list: users },
    state: () =>
      buildState({
        version: VERSION,
        journalCapacity: journal.capacity,
        clock: () => clock.state(),
        scenarios: () => scenarios.list(),
        webhooks: () => webhooks.list(),
        executions: (id) => webhooks.executionsOf(id),
        effect: webhookEffect,
        oauthClients: () => oauthPublic.clients.list(),
        users,
      }),
    subscribe: (listener, subscribeOptions) => hub.subscribe(listener, subscribeOptions),
    disconnect: () => hub.close(),
    webhooks: {
      list: () => webhooks.list(),
      get: (id) => webhooks.get(id),
      create: (input) => webhooks.create(input),
      delete: (id) => webhooks.delete(id),
      updateFlow: (id, patch) => webhooks.updateFlow(id, patch),
      executions: (id) => webhooks.executionsOf(id),
      waitForExecution: (id, predicate, waitOptions) => webhooks.waitForExecution(id, predicate, waitOptions),
    },
    handle: async (request) => {
      const response = await emulator.handleWith(request, 'in-process')
      const fault = faultOf(response)
      // Like fetch: a connection that failed on purpose is a rejection, not a response.
      if (fault === 'network-error' || fault === 'empty-reply') {
        throw new TypeError('fetch failed', { cause: new Error(`svc-mock closed the connection without answering (fault "${fault}")`) })
      }
      return materialize(response)
    },
    handleWith: (request, transport, signal) => emulator.dispatcher.handle(request, transport, signal),
    health: () => ({ status: 'ok', version: VERSION }),
    routes: () =>
      emulator.dispatcher.routes.map(({ definition }) => ({
        id: definition.id,
        method: definition.method,
        path: definition.path,
        origin: definition.origin,
        summary: definition.summary,
      })),
    credentials: () => [
      ...directory.apiKeys.all().map((key: ApiKey) => ({
        kind: key.kind === 'user' ? 'user API key' : 'application key',
        label: key.kind === 'user' ? `acts as ${key.userId ?? '?'}` : key.id,
        value: key.kind === 'user' ? `Authorization: Bearer ${key.key}` : `Authorization: AppKey ${key.key}`,
      })),
      ...oauthCredentials(oauth),
    ],
    reset: async () => {
      clock.reset()
      journal.clear()
      // Webhooks first: queues are emptied before scenarios going off could resume them.
      const webhooksReset = webhooks.reset()
      scenarios.reset()
      applyStartup()
      ids.reset()
      await directory.reset()
      await versions.reset()
      gate.reset()
      await oauth.reset()
      await webhooksReset
      changed()
    },
    close: async () => {
      hub.close()
      clock.close()
    },
  }

  const routes: RouteDefinition[] = [
    ...oauth.routes(),
    ...versions.routes(),
    ...webhooks.routes(),
    ...controlRoutes(emulator),
    ...oauthControlRoutes(emulator),
    ...webhookControlRoutes(emulator),
    ...eventRoutes(emulator),
    ...dashboardRoutes(),
  ]
  checkScenarioErrors(catalogue, routes)
  dispatcher = new Dispatcher(
    { clock, journal, scenarios, logger, settings: () => baseSettings, originOf: (kind) => urls[kind], clientOf: requestClientId },
    routes,
  )
  return emulator
}

function parseOne(text: string): { name: string; activation: ScenarioActivation } {
  const [first, ...rest] = parseActivations(text, text)
  if (!first || rest.length > 0) throw new ScenarioError(text, '', 'give one scenario here')
  return first
}

/** Wraps an operation so the change feed hears of it once it is done (watchers then re-read the state). */
function notifying<Args extends unknown[], R>(notify: () => void, fn: (...args: Args) => R): (...args: Args) => R {
  return (...args) => {
    const result = fn(...args)
    if (result instanceof Promise) result.then(notify, notify)
    else notify()
    return result
  }
}

function withoutName(item: { name: string } & ScenarioActivation): ScenarioActivation {
  const { name: _name, ...activation } = item
  return activation
}

/** The fixtures' OAuth clients, for the start-up banner (the defaults are public test values). */
function oauthCredentials(oauth: OAuthDomain): CredentialInfo[] {
  return oauth.clients.all().map((client) => ({
    kind: 'OAuth client',
    label: `${client.grantType === 'client_credentials' ? 'client credentials' : 'authorization code'}, ${client.authMethod === 'client_secret_basic' ? 'basic' : 'post'}`,
    value: `${client.clientId} / ${client.clientSecret}`,
  }))
}

function publicKey(key: ApiKey): CreatedApiKey {
  return { ...describeApiKey(key), key: key.key }
}

/** A scenario rule asking for a domain error no route it targets knows is refused at start. */
function checkScenarioErrors(catalogue: ScenarioCatalogue, routes: readonly RouteDefinition[]): void {
  for (const definition of catalogue.list()) {
    for (const [index, rule] of (definition.rules ?? []).entries()) {
      if (rule.error === undefined) continue
      const selectors = typeof rule.route === 'string' ? [rule.route] : rule.route
      const targeted = routes.filter((r) => !r.control && selectors.some((s) => routeMatches(s, r.id)))
      if (!targeted.some((r) => r.scenarioErrors?.includes(rule.error ?? ''))) {
        const known = [...new Set(targeted.flatMap((r) => r.scenarioErrors ?? []))]
        throw new ScenarioError(
          definition.source,
          `rules[${index}].error`,
          `no route it targets knows the error "${rule.error}"${known.length > 0 ? ` (they know: ${known.join(', ')})` : ''}`,
        )
      }
    }
  }
}
