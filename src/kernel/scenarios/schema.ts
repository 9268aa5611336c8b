/**
 * The scenario file format. A scenario is data: a name, a description for QA, optional
 * parameters, settings it changes (preferred: the real domain logic then produces the behaviour)
 * and rules for the requests it touches (a delay, a network fault, a domain error, a canned answer).
 * Values anywhere in `settings`, and a rule's delay, fault, probability and every, may be
 * `{"$param": "name"}`. A rule with `probability` draws from a generator seeded by the activation's
 * `seed` parameter (or 1), so a run repeats exactly.
 */
import * as z from 'zod'
import { type JsonObject, JsonValue } from '../json.js'
import { once } from '../once.js'

/** Scenario names: lower-case letters, digits and dashes. */
export const SCENARIO_NAME = /^[a-z0-9][a-z0-9-]*$/

export const ParamValue = z.union([z.number(), z.string(), z.boolean()])
export type ParamValue = z.infer<typeof ParamValue>

export const FAULTS = ['network-error', 'empty-reply', 'cut-body'] as const
export type Fault = (typeof FAULTS)[number]

/**
 * The schemas of a scenario file, made on the first call: only a run that reads scenario files or
 * definitions of its own (the built-in ones were validated at build) or writes the JSON Schema
 * pays for them.
 */
export const scenarioSchemas: () => ScenarioSchemas = once(makeSchemas)
type ScenarioSchemas = ReturnType<typeof makeSchemas>

function makeSchemas() {
  /** `{"$param": "ms"}`: a parameter's value; its own message, so a wrong value says what it could have been. */
  const ParamRef = z.strictObject({ $param: z.string().min(1) }, { error: (issue) => (issue.code === 'invalid_type' ? 'expected {"$param": "<parameter name>"}' : undefined) })

  const NumberOrParam = z.union([z.number().nonnegative(), ParamRef])

  const ParamSpec = z.strictObject({
    type: z.enum(['number', 'string', 'boolean']),
    default: ParamValue.optional(),
    description: z.string().optional(),
    min: z.number().optional(),
    max: z.number().optional(),
    /** For a string parameter: the values it may take. */
    oneOf: z.array(z.string()).min(1).optional(),
  })

  /** Route ids (`versions.list`), prefixes (`webhooks.*`), `*`, or tags (`@gated`: every route the gate guards). */
  const RouteSelector = z
    .union([z.string().min(1), z.array(z.string().min(1)).min(1)])
    .meta({ description: 'A route id (versions.list), a prefix (versions.*), *, a tag (@gated: every route that takes a credential), or a list of them. Control routes never match.' })

  const ScenarioRule = z
    .strictObject({
      /** Route id, prefix (`webhooks.*`), `*`, tag (`@gated`), or a list of them. Control routes never match. */
      route: RouteSelector.default('*'),
      /** Only requests with this method. */
      method: z.string().optional(),
      /** Wait this long on the emulator clock before answering (delays of all matching rules add up). */
      delay: NumberOrParam.optional(),
      /** Answer with a transport failure instead of a response. */
      fault: z.union([z.enum(FAULTS), ParamRef]).optional(),
      /** Apply the rule to this share of the requests it matches (0-1), drawn from the activation's seed. */
      probability: z.union([z.number().min(0).max(1), ParamRef]).optional(),
      /** Apply the rule to every Nth request it matches; above 0 it replaces `probability`; 0: off. */
      every: z.union([z.number().int().min(0), ParamRef]).optional(),
      /** Answer with the route's own domain error of this name (`not-found`, `server-error`, …). */
      error: z.string().min(1).optional(),
      /** Text for the domain error, where its wire format has one. */
      message: z.string().optional(),
      /** Answer with exactly this. */
      respond: z
        .strictObject({
          status: z.number().int().min(100).max(599),
          headers: z.record(z.string(), z.string()).optional(),
          body: z.union([z.string(), z.record(z.string(), JsonValue), z.array(JsonValue)]).optional(),
        })
        .optional(),
    })
    .refine((rule) => [rule.fault, rule.error, rule.respond].filter((x) => x !== undefined).length <= 1, {
      message: 'a rule has at most one of "fault", "error" and "respond"',
    })

  /**
   * One part of a scenario made of parts (what the dashboard saves: the scenarios that were on, each
   * a part). A part touches its own routes, applies its own settings and rules, and may be aimed and
   * counted on its own, as the activation it was saved from was.
   */
  const ScenarioPartSchema = z.strictObject({
    /** The scenario this part reproduces (for people reading the file; the part stands alone). */
    from: z.string().optional(),
    routes: RouteSelector.optional(),
    settings: z.record(z.string(), JsonValue).optional(),
    rules: z.array(ScenarioRule).optional(),
    /** Only requests to this route (`route`) and with these targets (`webhook`, `client`, …). */
    aim: z.record(z.string(), z.string().min(1)).optional(),
    /** The part switches itself off after touching this many requests. */
    times: z.number().int().min(1).optional(),
    /** Seed of the draws of its rules with `probability` (default: the `seed` parameter, or 1). */
    seed: z.number().int().min(0).optional(),
  })

  const ScenarioFileSchema: z.ZodType<ScenarioFile> = z
    .strictObject({
      $schema: z.string().optional(),
      name: z.string().regex(SCENARIO_NAME, 'must be lower-case letters, digits and dashes'),
      description: z.string().min(1),
      /** What the caller sees, one line, for the catalogue. */
      summary: z.string().optional(),
      params: z.record(z.string().regex(/^[a-zA-Z][a-zA-Z0-9]*$/), ParamSpec).optional(),
      /** Routes the scenario touches: `times` counts these requests and `settings` apply to them. */
      routes: RouteSelector.optional(),
      /** A partial settings tree; checked against the domains' settings after `$param`s are filled. */
      settings: z.record(z.string(), JsonValue).optional(),
      rules: z.array(ScenarioRule).optional(),
      /** Instead of `routes`, `settings` and `rules`: parts, each with its own (applied in order, the later winning). */
      parts: z.array(ScenarioPartSchema).optional(),
    })
    .refine((file) => file.parts === undefined || (file.routes === undefined && file.settings === undefined && file.rules === undefined), {
      message: 'a scenario with "parts" has no "routes", "settings" or "rules" of its own (each part has them)',
      path: ['parts'],
    }) as unknown as z.ZodType<ScenarioFile>

  return { ParamSpec, ScenarioRule, ScenarioPartSchema, ScenarioFileSchema }
}

export type ParamRef = { $param: string }
export type ParamSpec = z.infer<ScenarioSchemas['ParamSpec']>
export type ScenarioRule = z.infer<ScenarioSchemas['ScenarioRule']>
export type ScenarioPart = z.infer<ScenarioSchemas['ScenarioPartSchema']>

export interface ScenarioFile {
  $schema?: string
  name: string
  description: string
  summary?: string
  params?: Record<string, ParamSpec>
  routes?: string | string[]
  settings?: JsonObject
  rules?: ScenarioRule[]
  parts?: ScenarioPart[]
}

/** A rule as a scenario file or definition gives it (`route` defaults to every route). */
export type ScenarioRuleInput = z.input<ScenarioSchemas['ScenarioRule']>

/** A scenario definition as `scenarioDefinitions` takes it: a scenario file's content. */
export type ScenarioDefinitionInput = Omit<ScenarioFile, 'rules' | 'parts'> & { rules?: ScenarioRuleInput[]; parts?: ScenarioPartInput[] }

/** A part as a scenario file or definition gives it. */
export type ScenarioPartInput = z.input<ScenarioSchemas['ScenarioPartSchema']>

/** How one scenario is switched on: for how many requests, with which parameters, aimed at what. */
export interface Activation {
  /** On for the next N requests it touches, then off. Default: until switched off. */
  times?: number
  /** Parameters declared by the scenario (`ms` for `latency`). */
  params?: Record<string, ParamValue>
  /** Only requests to this route (id or `prefix.*`). */
  route?: string
  /** Only requests with these targets, by the names the domains declare (a webhook, a client, …). */
  targets?: Readonly<Record<string, string>>
}
