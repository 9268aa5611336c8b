/**
 * Inbound webhooks, the webhooks domain's one door: the intake at `{webhook_url}/hooks/{token}`
 * (a call in any encoding, and the CORS preflight), data structures, flows with their queues,
 * webhook-response steps and the 40-second timeout, executions, and the operations of
 * `emu.webhooks`. Secured webhooks authenticate through the access gate of the auth domain.
 */
import { type AccessGate, authDomain } from '../auth/index.js'
import type { Domain, DomainModule, DomainSchemas, KernelServices, ScenarioTarget } from '../kernel/domain.js'
import { readSection } from '../kernel/settings.js'
import { HOOK_PATH, PAYLOAD_LIMIT } from './constants.js'
import { type WebhooksApi, webhooksApi } from './api.js'
import { webhooksControl } from './control.js'
import { callRequirement, receive } from './intake.js'
import { type WebhookInput, type WebhooksSettingsInput, webhookSchemas } from './model.js'
import { type WebhookView, WebhookService, webhooksSection } from './service.js'
import { type WebhookEffect, type WebhooksState, webhookState } from './state.js'
import { preflight, renderCallError } from './wire.js'
import type { SavedWebhooksInput } from './saved.js'

export type {
  Bundle,
  DataStructure,
  Field,
  FieldType,
  FileValue,
  FlowConfig,
  FlowOutcome,
  FlowPatch,
  FlowPatchInput,
  ItemSpec,
  ResponseStep,
  ResponseStepInput,
  WebhookInput,
  WebhookOptions,
} from './model.js'
export type { Execution, ExecutionPredicate } from './executions.js'
export type { WebhooksApi } from './api.js'
export type { WebhookView } from './service.js'
export type { ExecutionSummary, WebhookEffect, WebhookState, WebhooksState } from './state.js'
export { WEBHOOKS_VERIFY_PROBES, webhooksEquivalent } from './verify-probes.js'
export { ExecutionTimeoutError } from './executions.js'
export { WebhookError, type WebhookProblem } from './wire.js'

/** The fixture section of inbound webhooks, as a fixture document gives it. */
export type WebhooksFixtures = {
  webhooks?: WebhookInput[]
}

export type { WebhooksSettingsInput } from './model.js'

/** What a scenario can be aimed at in this domain (`webhook=orders`). */
export interface WebhooksTargets {
  /** Only calls to this webhook (its id). */
  webhook?: string
}

/** What inbound webhooks add to the public types. */
export interface WebhooksInputs {
  readonly fixtures: WebhooksFixtures
  readonly settings: WebhooksSettingsInput
  readonly targets: WebhooksTargets
  readonly saved: SavedWebhooksInput
}

export const webhooksSchemas: DomainSchemas = {
  settings: {
    name: 'webhooks',
    get schema() {
      return webhookSchemas().WebhooksSettings
    },
  },
  fixtures: [webhooksSection],
  saved: async () => (await import('./saved.js')).SavedWebhooks,
}

const RECEIVE = 'webhooks.receive'

export const webhooksDomain: DomainModule<'webhooks', object, Domain<WebhooksApi, WebhooksState>, WebhooksInputs> = {
  name: 'webhooks',
  schemas: webhooksSchemas,
  define: ({ kernel, address, use }) => defineWebhooks(kernel, address('webhook'), use(authDomain).gate),
}

/** `webhookUrl`: the origin of webhook addresses (`{webhook_url}`). */
function defineWebhooks(kernel: KernelServices, webhookUrl: string, gate: AccessGate): Domain<WebhooksApi, WebhooksState> {
  const { clock, scenarios } = kernel
  const service = new WebhookService({
    clock,
    webhookUrl,
    newToken: () => kernel.ids.token(32).toLowerCase(),
    baseSettings: kernel.baseSettings,
    settingsAt: (webhook) => scenarios.settingsAt(RECEIVE, { webhook }),
    onError: (error) => kernel.logger.error('a webhook flow failed', error),
    onChange: kernel.changed,
  })
  // A run-level scenario going off may make flows active again: they take up their queues.
  scenarios.onChange((event) => {
    if (!event.on) service.resumeAll()
  })
  const effect = (view: WebhookView): WebhookEffect => {
    const target = { webhook: view.id }
    const settings = readSection(scenarios.settingsAt(RECEIVE, target), 'webhooks', webhookSchemas().WebhooksSettings)
    return { flow: { ...view.flow, ...settings.flow }, gone: settings.gone, scenarios: scenarios.touchingAt(RECEIVE, target) }
  }
  const api = webhooksApi(service)
  const webhook: ScenarioTarget = {
    name: 'webhook',
    description: 'Only calls to this webhook (its id, the last segment of its address).',
    read: ({ routeId, params }) => (routeId.startsWith('webhooks.') ? params.token : undefined),
    values: () => service.list().map((w) => w.id),
  }
  return {
    routes: [
      {
        id: 'webhooks.options',
        method: 'OPTIONS',
        path: HOOK_PATH,
        origin: 'webhook',
        summary: 'CORS preflight of a webhook address: 200 ok',
        resolve: (ctx) => preflight(ctx.headers),
      },
      // Secured webhooks go through the gate (an unsecured one takes no credential and the gate lets it be).
      gate.protect(
        {
          id: RECEIVE,
          method: '*',
          path: HOOK_PATH,
          origin: 'webhook',
          summary: 'A call to a webhook (GET query string; POST, PUT, PATCH, DELETE with form, multipart, JSON or text)',
          bodyLimit: PAYLOAD_LIMIT,
          renderError: renderCallError,
          resolve: (ctx, caller) => receive(ctx, caller, { clock, store: service.store, runner: service.runner, onError: (error) => kernel.logger.error('a webhook flow failed', error) }),
        },
        callRequirement(() => service.store),
      ),
    ],
    api,
    control: webhooksControl(api),
    docs: async () => {
      const { OPTIONS_DOC, RECEIVE_DOC } = await import('./docs.js')
      return { 'webhooks.options': OPTIONS_DOC, [RECEIVE]: RECEIVE_DOC }
    },
    targets: [webhook],
    load: (fixtures) => service.load(fixtures.of(webhooksSection)),
    state: () => ({ webhooks: service.list().map((view) => webhookState(view, effect(view), service.executionsOf(view.id), kernel.redact)) }),
    saved: async () => (await import('./saved.js')).savedWebhooks(service),
    reset: () => service.reset(),
  }
}
