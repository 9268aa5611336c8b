/**
 * The control plane's webhook operations, under `/__svc-mock/webhooks`, thin translations of
 * `emu.webhooks`: create, list, read (with the queue's length and capacity and the flow), delete,
 * change a flow (activating it runs the queued calls in order) and read the executions, with file
 * bytes as base64.
 */
import type { EmulatorCore } from '../emulator-api.js'
import { NotFoundError } from '../kernel/errors.js'
import { json } from '../kernel/reply.js'
import type { RouteDefinition } from '../kernel/route.js'
import { jsonWithBytes, readInput } from './body.js'
import { noContent, controlRoute as route } from './route.js'

export function webhooksRoutes(emu: EmulatorCore): RouteDefinition[] {
  return [
    route('webhooks.list', 'GET', '/webhooks', 'Webhooks with their flows and queues', () => json(emu.webhooks.list())),
    route('webhooks.create', 'POST', '/webhooks', 'Create a webhook: {name, dataStructure, learning, secured, options, flow}', async (ctx) =>
      json(await emu.webhooks.create(await readInput(ctx)), { status: 201 }),
    ),
    route('webhooks.get', 'GET', '/webhooks/:id', 'A webhook, its flow and its queue {length, capacity}', (ctx) => json(emu.webhooks.get(ctx.params.id ?? ''))),
    route('webhooks.delete', 'DELETE', '/webhooks/:id', 'Delete a webhook (its address then answers 410)', (ctx) => {
      if (!emu.webhooks.delete(ctx.params.id ?? '')) throw new NotFoundError(`No webhook "${ctx.params.id ?? ''}".`, 'id')
      return noContent()
    }),
    route('webhooks.updateFlow', 'PUT', '/webhooks/:id/flow', 'Change a flow: {active, queueCapacity, response, outcome, processingMs}', async (ctx) =>
      json(await emu.webhooks.updateFlow(ctx.params.id ?? '', await readInput(ctx))),
    ),
    route('webhooks.executions', 'GET', '/webhooks/:id/executions', 'The flow runs, in order: bundle, receivedAt, processedAt, outcome', (ctx) =>
      jsonWithBytes(emu.webhooks.executions(ctx.params.id ?? '')),
    ),
  ]
}
