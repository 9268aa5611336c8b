/**
 * Inbound webhooks' part of a saved state: the webhooks (flow settings included) as changes
 * against the fixtures, every queue that holds something (the calls accepted so far, the calls
 * waiting, and the run going on, which goes on from where it was: its processing time, or a hang
 * holding the flow, on the emulator clock), and the executions kept. Bundles keep their bytes
 * (saved-bundle.ts). Loaded with import() by the domain's `saved()`.
 */
import * as z from 'zod'
import type { ImportContext, PreparedPart, SavedPart } from '../kernel/saved.js'
import { checkStore, saveStore, storePart } from '../kernel/saved-store.js'
import type { Execution } from './executions.js'
import type { SavedCall, SavedQueue } from './flow.js'
import { OUTCOMES, webhookSchemas } from './model.js'
import { SavedBundle, readBundle, saveBundle } from './saved-bundle.js'
import type { WebhookService } from './service.js'

const { FlowConfig, FlowPatch, WebhookRecord } = webhookSchemas()

const isoTime = z.string().refine((text) => Number.isFinite(Date.parse(text)), { message: 'must be a date and time (ISO 8601)' })

const Call = z.strictObject({
  seq: z.number().int().min(1),
  bundle: SavedBundle,
  receivedAt: z.number().meta({ description: 'Emulator time it arrived, epoch ms.' }),
  overrides: FlowPatch.strict().default({}).meta({ description: 'Flow settings the scenarios gave it when it arrived.' }),
})

const Queue = z.strictObject({
  webhook: z.string(),
  accepted: z.number().int().min(0).meta({ description: 'Calls accepted so far.' }),
  calls: z.array(Call).default([]).meta({ description: 'Calls waiting, in order.' }),
  running: z
    .strictObject({ call: Call, startedAt: z.number(), flow: FlowConfig })
    .nullable()
    .default(null)
    .meta({ description: 'The run going on when saved: it goes on from where it was.' }),
})

const SavedExecution = z.strictObject({
  seq: z.number().int().min(1),
  webhook: z.string(),
  bundle: SavedBundle,
  receivedAt: isoTime,
  startedAt: isoTime,
  processedAt: isoTime.nullable(),
  outcome: z.enum(OUTCOMES),
})

export const SavedWebhooks = z.strictObject({
  webhooks: storePart(WebhookRecord).prefault({}),
  queues: z.array(Queue).default([]),
  executions: z.array(SavedExecution).default([]).meta({ description: 'The executions kept, webhook by webhook, in the order each flow ran them.' }),
})
export type SavedWebhooks = z.output<typeof SavedWebhooks>
/** Inbound webhooks' part of a saved state, as the document holds it. */
export type SavedWebhooksInput = z.input<typeof SavedWebhooks>

const written = (call: SavedCall): z.input<typeof Call> => ({ ...call, bundle: saveBundle(call.bundle) })

export function savedWebhooks(service: WebhookService): SavedPart<typeof SavedWebhooks> {
  return {
    save: () => ({
      webhooks: saveStore(service.store, (w) => w.id),
      queues: service.runner.saved().map((q) => ({ ...q, calls: q.calls.map(written), running: q.running === null ? null : { ...q.running, call: written(q.running.call) } })),
      executions: service.executions.saved().map((e) => ({ ...e, bundle: saveBundle(e.bundle) })),
    }),
    prepare: async (part, context) => prepareWebhooks(service, part, context),
  }
}

async function prepareWebhooks(service: WebhookService, part: SavedWebhooks, context: ImportContext): Promise<PreparedPart> {
  const webhooks = checkStore(service.store, part.webhooks, (w) => w.id, context, 'webhooks', 'id')
  const exists = (id: string, path: string): void => {
    if (!webhooks.keys.has(id)) throw context.problem(path, `names webhook "${id}", which neither the document nor the fixtures have`)
  }
  const bundle = (saved: SavedBundle, path: string): ReturnType<typeof readBundle> => {
    try {
      return readBundle(saved)
    } catch (error) {
      throw context.problem(`${path}.special`, `does not fit the bundle: ${error instanceof Error ? error.message : String(error)}`)
    }
  }
  const call = (saved: z.output<typeof Call>, path: string, accepted: number): SavedCall => {
    if (saved.seq > accepted) throw context.problem(`${path}.seq`, `is after the ${accepted} calls the queue accepted`)
    return { seq: saved.seq, bundle: bundle(saved.bundle, `${path}.bundle`), receivedAt: saved.receivedAt, overrides: saved.overrides }
  }
  const seen = new Set<string>()
  const queues = part.queues.map((q, i): SavedQueue => {
    exists(q.webhook, `queues[${i}].webhook`)
    if (seen.has(q.webhook)) throw context.problem(`queues[${i}].webhook`, `webhook "${q.webhook}" has a queue already`)
    seen.add(q.webhook)
    return {
      webhook: q.webhook,
      accepted: q.accepted,
      calls: q.calls.map((c, j) => call(c, `queues[${i}].calls[${j}]`, q.accepted)),
      running: q.running === null ? null : { ...q.running, call: call(q.running.call, `queues[${i}].running.call`, q.accepted) },
    }
  })
  const executions = part.executions.map((e, i): Execution => {
    exists(e.webhook, `executions[${i}].webhook`)
    // The members in the order a run records them.
    return { seq: e.seq, webhook: e.webhook, bundle: bundle(e.bundle, `executions[${i}].bundle`), receivedAt: e.receivedAt, startedAt: e.startedAt, processedAt: e.processedAt, outcome: e.outcome }
  })
  return {
    targets: { webhook: [...webhooks.keys] },
    apply: () => {
      // The webhooks first: the queues' runs go on at once, and read them.
      service.store.restore(webhooks.changes)
      service.executions.restore(executions)
      service.runner.restore(queues)
    },
  }
}
