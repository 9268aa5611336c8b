/**
 * What a webhook is: its address token (= its id), a name, a data structure (typed fields with a
 * required flag, nested collections and arrays), learning mode, "secured for public use", the
 * options that add request details to the bundle, and the flow behind it (active or not, its
 * queue's capacity, an optional webhook-response step, how a run ends and how long it takes).
 * One zod schema per shape validates fixtures, control-plane bodies and scenario settings.
 */
import * as z from 'zod'
import { JsonValue } from '../kernel/json.js'
import { once } from '../kernel/once.js'
import { DEFAULT_EXECUTIONS_KEPT, DEFAULT_QUEUE_CAPACITY, DEFAULT_RESPONSE_TIMEOUT_MS } from './constants.js'

export const FIELD_TYPES = ['text', 'number', 'boolean', 'date', 'array', 'collection', 'buffer'] as const
export type FieldType = (typeof FIELD_TYPES)[number]

/** The type of an array's items: a type, with the fields of a collection or the items of an array. */
export interface ItemSpec {
  type: FieldType
  spec?: Field[] | ItemSpec | undefined
}

/** One field of a data structure (the platform's names: `name`, `type`, `required`, `spec`). */
export interface Field {
  name: string
  type: FieldType
  required?: boolean | undefined
  label?: string | undefined
  /** collection: its fields; array: the item type, or fields (items are collections of them). */
  spec?: Field[] | ItemSpec | undefined
}

function checkSpec(value: { type: FieldType; spec?: unknown }, ctx: z.RefinementCtx): void {
  if (value.spec === undefined) return
  if (value.type === 'collection' && !Array.isArray(value.spec)) {
    ctx.addIssue({ code: 'custom', path: ['spec'], message: 'a collection\'s spec is the list of its fields' })
  } else if (value.type !== 'collection' && value.type !== 'array') {
    ctx.addIssue({ code: 'custom', path: ['spec'], message: `a ${value.type} field has no spec (only array and collection have one)` })
  }
}

/**
 * The webhooks' schemas (fixtures, control bodies, stored records, settings), made on the first
 * call: an emulator whose test sends no webhook call and makes no webhook makes none of them.
 */
export const webhookSchemas: () => WebhookSchemas = once(makeSchemas)
type WebhookSchemas = ReturnType<typeof makeSchemas>

export const OUTCOMES = ['succeed', 'fail', 'hang'] as const
export type FlowOutcome = (typeof OUTCOMES)[number]

/** Address tokens: the last segment of `/hooks/{token}`. */
export const TOKEN = /^[A-Za-z0-9._~-]{1,128}$/

function makeSchemas() {
  const ItemSpec: z.ZodType<ItemSpec, ItemSpec> = z.lazy(() =>
    z
      .strictObject({
        type: z.enum(FIELD_TYPES),
        spec: z.union([z.array(Field), ItemSpec]).optional(),
      })
      .superRefine(checkSpec),
  )

  const Field: z.ZodType<Field, Field> = z.lazy(() =>
    z
      .strictObject({
        name: z.string().min(1),
        type: z.enum(FIELD_TYPES),
        required: z.boolean().optional(),
        label: z.string().optional(),
        spec: z.union([z.array(Field), ItemSpec]).optional(),
      })
      .superRefine(checkSpec),
  )

  /** A data structure: the list of top-level fields. Fields not listed pass through unchecked. */
  const DataStructure = z.array(Field).superRefine((fields, ctx) => {
    const seen = new Set<string>()
    fields.forEach((field, index) => {
      if (seen.has(field.name)) ctx.addIssue({ code: 'custom', path: [index, 'name'], message: `field "${field.name}" appears twice` })
      seen.add(field.name)
    })
  })

  /** A webhook-response step: what the caller gets once the flow reaches it. */
  const ResponseStep = z.strictObject({
    status: z.number().int().min(200).max(599),
    headers: z.record(z.string().regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, 'must be a header name'), z.string()).default({}),
    /** Text, or a JSON value (sent as JSON). */
    body: JsonValue.optional(),
  })

  const FlowConfig = z.strictObject({
    /** An inactive flow queues valid calls (200 `Accepted`) and runs them, in order, once activated. */
    active: z.boolean(),
    /** Calls that may wait in the queue; one more is refused with 400 `Queue is full.`. */
    queueCapacity: z.number().int().min(0),
    /** A webhook-response step: the caller waits for the flow and gets this answer. */
    response: ResponseStep.nullable(),
    /** How a run ends: `succeed`, `fail`, or `hang` (never reaches its end). */
    outcome: z.enum(OUTCOMES),
    /** How long a run takes, in milliseconds of emulator time. */
    processingMs: z.number().int().min(0),
  })

  /** Any part of a flow: the body of `PUT …/flow`, scenario settings, fixtures. */
  const FlowPatch = FlowConfig.partial()

  const WebhookOptions = z.strictObject({
    /** A JSON body is not parsed or validated: the flow receives its raw text as `value`. */
    jsonPassThrough: z.boolean().default(false),
    /** Adds `__IMTHEADERS__`: the request headers as `[{name, value}]`, names in lower case. */
    requestHeaders: z.boolean().default(false),
    /** Adds `__IMTMETHOD__`: the request method. */
    requestMethod: z.boolean().default(false),
  })

  /** A webhook as fixtures and `POST /__svc-mock/webhooks` give it. */
  const WebhookInput = z.strictObject({
    /** The address token and id. Fixtures: default the name; control plane: default a generated one. */
    id: z.string().regex(TOKEN, 'must be 1-128 letters, digits, ".", "_", "~" or "-"').optional(),
    name: z.string().min(1),
    dataStructure: DataStructure.nullable().optional(),
    /** Learns the data structure from the next call, then validates against it. */
    learning: z.boolean().optional(),
    /** Secured for public use: calls need `Authorization` with an application key or a Bearer token. */
    secured: z.boolean().optional(),
    options: WebhookOptions.partial().optional(),
    flow: FlowPatch.optional(),
  })

  /** A stored webhook. Records are replaced, never changed in place. */
  const WebhookRecord = z.strictObject({
    id: z.string(),
    name: z.string(),
    dataStructure: DataStructure.nullable(),
    learning: z.boolean(),
    secured: z.boolean(),
    options: WebhookOptions,
    flow: FlowConfig,
  })

  /** The `webhooks` section of the settings tree (run options, scenarios). */
  const WebhooksSettings = z.object({
    /** A call waiting for a webhook-response step gets 500 after this long (emulator time). */
    responseTimeoutMs: z.number().int().min(0).default(DEFAULT_RESPONSE_TIMEOUT_MS),
    /** Queue capacity of webhooks that do not set their own. */
    queueCapacity: z.number().int().min(0).default(DEFAULT_QUEUE_CAPACITY),
    /** Executions kept per webhook (the newest; `seq` keeps counting), so a long run stays bounded. */
    executionsKept: z.number().int().min(1).default(DEFAULT_EXECUTIONS_KEPT),
    /** Every webhook these settings reach answers 410 `Webhook not found.`, as if deleted. */
    gone: z.boolean().default(false),
    /** Overrides the flow of every webhook these settings reach (a scenario aims them with `webhook`). */
    flow: FlowPatch.strict().default({}),
    /**
     * Fields the data structure also has while these settings apply (a field of the same name is
     * replaced), so the real validation refuses calls that lack them.
     */
    extraFields: z.array(Field).default([]),
  })

  return { ItemSpec, Field, DataStructure, ResponseStep, FlowConfig, FlowPatch, WebhookOptions, WebhookInput, WebhookRecord, WebhooksSettings }
}

/** A data structure: the list of top-level fields. */
export type DataStructure = Field[]
export type ResponseStep = z.infer<WebhookSchemas['ResponseStep']>
/** A webhook-response step as you give it (`headers` may be left out). */
export type ResponseStepInput = z.input<WebhookSchemas['ResponseStep']>
export type FlowConfig = z.infer<WebhookSchemas['FlowConfig']>
export type FlowPatch = z.infer<WebhookSchemas['FlowPatch']>
/** Part of a flow, as `emu.webhooks.updateFlow()` and `PUT /__svc-mock/webhooks/{id}/flow` take it. */
export type FlowPatchInput = z.input<WebhookSchemas['FlowPatch']>
export type WebhookOptions = z.infer<WebhookSchemas['WebhookOptions']>
/** A webhook as `emu.webhooks.create()`, `POST /__svc-mock/webhooks` and the `webhooks` fixture section take it. */
export type WebhookInput = z.input<WebhookSchemas['WebhookInput']>
/** A webhook input once checked (defaults filled in). */
export type WebhookFixture = z.output<WebhookSchemas['WebhookInput']>
export type WebhookRecord = z.infer<WebhookSchemas['WebhookRecord']>
export type WebhooksSettings = z.infer<WebhookSchemas['WebhooksSettings']>
/** The `webhooks` section of the settings tree, as options and scenario files give it. */
export type WebhooksSettingsInput = z.input<WebhookSchemas['WebhooksSettings']>

/** A file of a multipart call, as the flow receives it. */
export interface FileValue {
  name: string
  mime: string
  /** The file's bytes (a Node.js `Buffer` at run time; typed as `Uint8Array` so no @types/node is needed). */
  data: Uint8Array
}

/** What the flow receives for one call. */
export type Bundle = Record<string, unknown>
