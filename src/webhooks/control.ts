/**
 * The control plane's webhook operations, under `/__svc-mock/webhooks`, thin translations of
 * `emu.webhooks`: create, list, read (with the queue's length and capacity and the flow), delete,
 * change a flow (activating it runs the queued calls in order) and read the executions, with file
 * bytes as base64; and their documentation.
 */
import * as z from 'zod'
import { type ControlPart, controlRoute as route, jsonWithBytes, noContent, once, readInput } from '../kernel/control.js'
import { NotFoundError } from '../kernel/errors.js'
import { JsonValue } from '../kernel/json.js'
import { json } from '../kernel/reply.js'
import type { RouteDoc } from '../kernel/route.js'
import type { WebhooksApi } from './api.js'
import { webhookSchemas } from './model.js'

export function webhooksControl({ webhooks }: WebhooksApi): ControlPart {
  return {
    routes: [
      route('webhooks.list', 'GET', '/webhooks', 'Webhooks with their flows and queues', () => json(webhooks.list())),
      route('webhooks.create', 'POST', '/webhooks', 'Create a webhook: {name, dataStructure, learning, secured, options, flow}', async (ctx) =>
        json(await webhooks.create(await readInput(ctx)), { status: 201 }),
      ),
      route('webhooks.get', 'GET', '/webhooks/:id', 'A webhook, its flow and its queue {length, capacity}', (ctx) => json(webhooks.get(ctx.params.id ?? ''))),
      route('webhooks.delete', 'DELETE', '/webhooks/:id', 'Delete a webhook (its address then answers 410)', (ctx) => {
        if (!webhooks.delete(ctx.params.id ?? '')) throw new NotFoundError(`No webhook "${ctx.params.id ?? ''}".`, 'id')
        return noContent()
      }),
      route('webhooks.updateFlow', 'PUT', '/webhooks/:id/flow', 'Change a flow: {active, queueCapacity, response, outcome, processingMs}', async (ctx) =>
        json(await webhooks.updateFlow(ctx.params.id ?? '', await readInput(ctx))),
      ),
      route('webhooks.executions', 'GET', '/webhooks/:id/executions', 'The flow runs, in order: bundle, receivedAt, processedAt, outcome', (ctx) =>
        jsonWithBytes(webhooks.executions(ctx.params.id ?? '')),
      ),
    ],
    docs: once(docs),
  }
}

async function docs(): Promise<Readonly<Record<string, RouteDoc>>> {
  const { body, CHANGE_REFUSALS, json, noContent, READ_REFUSALS, refused } = await import('../kernel/control-docs.js')
  const { DataStructure, FlowConfig, FlowPatch, WebhookInput, WebhookOptions } = webhookSchemas()
  const WebhookView = z
    .object({
      id: z.string().meta({ description: 'The address token; random for one created here, as on the platform.' }),
      name: z.string(),
      url: z.string().meta({ description: 'Where to send calls: `{webhook_url}/hooks/{id}`.' }),
      dataStructure: DataStructure.nullable(),
      learning: z.boolean(),
      secured: z.boolean(),
      options: WebhookOptions,
      flow: FlowConfig,
      queue: z.object({ length: z.number().int(), capacity: z.number().int() }),
    })
    .meta({ id: 'WebhookView' })
  const Execution = z
    .object({
      seq: z.number().int(),
      webhook: z.string(),
      bundle: z.record(z.string(), JsonValue).meta({ description: 'What the flow received; file data as base64.' }),
      receivedAt: z.string(),
      startedAt: z.string(),
      processedAt: z.string().nullable(),
      outcome: z.enum(['succeed', 'fail', 'hang']),
    })
    .meta({ id: 'Execution' })
  const id = { id: 'The webhook id.' }
  return {
    'webhooks.list': { responses: { '200': json('Webhooks with their flows and queues.', z.array(WebhookView)), ...READ_REFUSALS } },
    'webhooks.create': {
      description: 'The id, and so the address, is random unless given, as on the platform: read `url` from the answer.',
      ...body(WebhookInput.meta({ id: 'WebhookInput' })),
      responses: { '201': json('The webhook.', WebhookView), '409': refused('The id exists already.'), ...CHANGE_REFUSALS },
    },
    'webhooks.get': { params: id, responses: { '200': json('The webhook.', WebhookView), '404': refused('No such webhook.'), ...READ_REFUSALS } },
    'webhooks.delete': { params: id, responses: { '204': noContent, '404': refused('No such webhook.'), ...READ_REFUSALS } },
    'webhooks.updateFlow': {
      description: 'Activating a flow runs its queue in order.',
      params: id,
      ...body(FlowPatch.strict().meta({ id: 'FlowPatch' })),
      responses: { '200': json('The webhook, flow changed.', WebhookView), '404': refused('No such webhook.'), ...CHANGE_REFUSALS },
    },
    'webhooks.executions': { params: id, responses: { '200': json("The flow's runs, in order.", z.array(Execution)), '404': refused('No such webhook.'), ...READ_REFUSALS } },
  }
}
