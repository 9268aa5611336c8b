/**
 * `emu.webhooks`: the webhook operations in-process, the ones the control plane translates.
 */
import type { Execution, ExecutionPredicate } from './executions.js'
import type { FlowPatchInput, WebhookInput } from './model.js'
import type { WebhookService, WebhookView } from './service.js'

export interface WebhooksApi {
  readonly webhooks: {
    list(): WebhookView[]
    /** NotFoundError (404) for an unknown id. */
    get(id: string): WebhookView
    /** Body of `POST /__svc-mock/webhooks`: `{name, dataStructure, learning, secured, options, flow}`. Checked as over HTTP: a bad one throws InvalidInputError (400). */
    create(input: WebhookInput): Promise<WebhookView>
    delete(id: string): boolean
    /** Part of a flow: `{active, queueCapacity, response, outcome, processingMs}`; activating runs the queue in order. */
    updateFlow(id: string, patch: FlowPatchInput): Promise<WebhookView>
    /** Every run of the webhook's flow, in the order it ran them (file data as Buffers). */
    executions(id: string): Execution[]
    /** The first execution matching, recorded already or still to come; rejects after `timeout` ms of emulator time (default 30 000). */
    waitForExecution(id: string, predicate?: ExecutionPredicate, options?: { timeout?: number }): Promise<Execution>
  }
}

export function webhooksApi(service: WebhookService): WebhooksApi {
  return {
    webhooks: {
      list: () => service.list(),
      get: (id) => service.get(id),
      create: (input) => service.create(input),
      delete: (id) => service.delete(id),
      updateFlow: (id, patch) => service.updateFlow(id, patch),
      executions: (id) => service.executionsOf(id),
      waitForExecution: (id, predicate, options) => service.waitForExecution(id, predicate, options),
    },
  }
}
