/**
 * The webhooks and their flows: the store (seeded from fixtures), the queues and the executions,
 * and the operations `emu.webhooks` and the control plane offer: create, read, delete, update a
 * flow, read or wait for executions. A webhook's id is its address token; a default webhook's id
 * is its name.
 */
import type { Clock } from '../kernel/clock.js'
import { DEFAULT_WAIT_MS } from '../kernel/constants.js'
import { ConflictError, FixtureError, NotFoundError } from '../kernel/errors.js'
import { type FixtureRecord, fixtureSection, type FixtureSection } from '../kernel/fixtures.js'
import { type SettingsTree, readSection } from '../kernel/settings.js'
import { parseBody } from '../kernel/validation.js'
import { type Execution, ExecutionLog, type ExecutionPredicate } from './executions.js'
import { FlowRunner } from './flow.js'
import { type DataStructure, type FlowConfig, type FlowPatchInput, TOKEN, type WebhookFixture, type WebhookInput, type WebhookOptions, type WebhookRecord, webhookSchemas } from './model.js'
import { type WebhookStore, webhookStore } from './store.js'

export const webhooksSection: FixtureSection<WebhookFixture> = fixtureSection('webhooks', () => webhookSchemas().WebhookInput, (w) => w.id ?? w.name)

/** A webhook as the control plane shows it. */
export interface WebhookView {
  id: string
  name: string
  /** `{webhook_url}`: where to send calls. */
  url: string
  dataStructure: DataStructure | null
  learning: boolean
  secured: boolean
  options: WebhookOptions
  flow: FlowConfig
  /** Calls waiting (the one running not counted), and how many may wait. */
  queue: { length: number; capacity: number }
}

export interface WebhookServiceDeps {
  readonly clock: Clock
  /** Origin of webhook addresses. */
  readonly webhookUrl: string
  /** A new address token (seeded). */
  readonly newToken: () => string
  /** The run's settings (options), without scenarios. */
  readonly baseSettings: () => SettingsTree
  /** The settings in effect for a webhook outside any request: the run's, with the scenarios on now. */
  readonly settingsAt: (webhookId: string) => SettingsTree
  readonly onError: (error: unknown) => void
  /** Told when webhooks, flows, queues or executions change (for watchers such as the dashboard). */
  readonly onChange: () => void
}

export class WebhookService {
  readonly #store = webhookStore()
  /** The fixtures' webhooks, checked, until the store is first used: they become records then. */
  #unseeded: Array<{ fixture: WebhookFixture; id: string }> | undefined = []
  readonly executions: ExecutionLog
  readonly runner: FlowRunner
  readonly #deps: WebhookServiceDeps

  constructor(deps: WebhookServiceDeps) {
    this.#deps = deps
    this.executions = new ExecutionLog(deps.clock, () => readSection(deps.baseSettings(), 'webhooks', webhookSchemas().WebhooksSettings).executionsKept)
    this.runner = new FlowRunner({
      clock: deps.clock,
      executions: this.executions,
      webhook: (id) => this.store.get(id),
      settings: (id) => readSection(deps.settingsAt(id), 'webhooks', webhookSchemas().WebhooksSettings),
      onError: deps.onError,
      onChange: deps.onChange,
    })
  }

  /**
   * The webhook records by id, seeded from the fixtures on first use (the records read the run's
   * settings for their defaults, and an emulator whose test never reaches a webhook makes none).
   */
  get store(): WebhookStore {
    const unseeded = this.#unseeded
    if (unseeded !== undefined) {
      this.#unseeded = undefined
      this.#store.seed(unseeded.map(({ fixture, id }) => this.#toRecord(fixture, id)))
    }
    return this.#store
  }

  /** Takes the fixtures' webhooks; an id that cannot be an address is the fixture's error, at once. */
  async load(fixtures: readonly FixtureRecord<WebhookFixture>[]): Promise<void> {
    this.#unseeded = fixtures.map((fixture) => {
      const id = fixture.value.id ?? fixture.value.name
      if (!TOKEN.test(id)) {
        throw new FixtureError(fixture.file, `${fixture.path}.id`, `the webhook needs an id usable in its address (its name "${id}" is not one): 1-128 letters, digits, ".", "_", "~" or "-"`)
      }
      return { fixture: fixture.value, id }
    })
  }

  /** Back to the fixtures: webhooks and flows, with empty queues and no executions. */
  async reset(): Promise<void> {
    // The webhooks first: the queues a saved state held take up their runs at once.
    this.store.reset()
    this.executions.reset()
    this.runner.reset()
  }

  list(): WebhookView[] {
    return this.store.all().map((record) => this.#view(record))
  }

  get(id: string): WebhookView {
    return this.#view(this.#require(id))
  }

  async create(input: WebhookInput): Promise<WebhookView> {
    const body = parseBody(webhookSchemas().WebhookInput, input, 'webhook')
    const id = body.id ?? this.#deps.newToken()
    if (this.store.get(id)) throw new ConflictError(`A webhook with id "${id}" exists already.`, 'id')
    const record = this.#toRecord(body, id)
    this.store.put(record)
    this.#deps.onChange()
    return this.#view(record)
  }

  delete(id: string): boolean {
    if (!this.store.delete(id)) return false
    this.runner.drop(id)
    this.executions.drop(id)
    return true
  }

  /** Changes part of a flow; activating it runs the queued calls, one at a time, in order. */
  async updateFlow(id: string, patch: FlowPatchInput): Promise<WebhookView> {
    const record = this.#require(id)
    const change = parseBody(webhookSchemas().FlowPatch.strict(), patch, 'flow')
    const updated: WebhookRecord = { ...record, flow: { ...record.flow, ...change } }
    this.store.put(updated)
    this.#deps.onChange()
    this.runner.resume(id)
    return this.#view(updated)
  }

  executionsOf(id: string): Execution[] {
    this.#require(id)
    return this.executions.list(id)
  }

  /** The first execution matching `predicate`, recorded already or still to come; rejects after `timeout` ms of emulator time. */
  waitForExecution(id: string, predicate: ExecutionPredicate = () => true, options: { timeout?: number } = {}): Promise<Execution> {
    this.#require(id)
    return this.executions.wait(id, predicate, options.timeout ?? DEFAULT_WAIT_MS)
  }

  /** Lets every flow with calls waiting take up its queue again (a scenario that held it went off). */
  resumeAll(): void {
    this.runner.resumeAll()
  }

  #require(id: string): WebhookRecord {
    const record = this.store.get(id)
    if (!record) throw new NotFoundError(`No webhook "${id}".`, 'id')
    return record
  }

  #toRecord(input: WebhookFixture, id: string): WebhookRecord {
    const { WebhooksSettings, WebhookOptions } = webhookSchemas()
    const defaults = readSection(this.#deps.baseSettings(), 'webhooks', WebhooksSettings)
    return {
      id,
      name: input.name,
      dataStructure: input.dataStructure ?? null,
      learning: input.learning ?? false,
      secured: input.secured ?? false,
      options: WebhookOptions.parse(input.options ?? {}),
      flow: { active: true, queueCapacity: defaults.queueCapacity, response: null, outcome: 'succeed', processingMs: 0, ...input.flow },
    }
  }

  #view(record: WebhookRecord): WebhookView {
    return {
      id: record.id,
      name: record.name,
      url: `${this.#deps.webhookUrl}/hooks/${encodeURIComponent(record.id)}`,
      dataStructure: record.dataStructure,
      learning: record.learning,
      secured: record.secured,
      options: record.options,
      flow: record.flow,
      queue: { length: this.runner.length(record.id), capacity: record.flow.queueCapacity },
    }
  }
}
