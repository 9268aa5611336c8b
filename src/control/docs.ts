/**
 * The control plane's own operations as the OpenAPI document shows them (each domain documents
 * its own operations beside them, and the teams theirs): health, the route list, reset,
 * scenarios, clock, journal, state and events, saved states, the local CA and the dashboard's
 * files. A body is the schema the emulator method checks it with; a change's body must be sent as
 * JSON (415 otherwise), from no other web page or site (403) and to a loopback or the emulator's
 * own host name (421).
 */
import * as z from 'zod'
import { CHANGE_REFUSALS, ControlErrorBody, READ_REFUSALS, body, json, refused } from '../kernel/control-docs.js'
import { HtmlPage } from '../kernel/docs.js'
import { SAVED_STATE_BODY_LIMIT } from '../kernel/constants.js'
import { JsonValue } from '../kernel/json.js'
import type { ResponseDoc, RouteDoc } from '../kernel/route.js'
import { ParamValue } from '../kernel/scenarios/schema.js'
import { AdvanceBody, scenarioOnBody } from './core.js'

/** A long poll's answers when its port closes under it (docs/teams.md). */
const CLOSED_WHILE_WAITING: Readonly<Record<string, ResponseDoc>> = {
  '410': json('Its team was deleted while it waited; the port closes next.', z.object({ error: z.literal('team deleted') })),
  '503': json('The server closed while it waited.', z.object({ error: z.literal('server closing') })),
}

const ClockState = z.object({ now: z.string().meta({ description: 'ISO 8601, emulator time.' }), mode: z.enum(['real', 'manual']), timeScale: z.number() }).meta({ id: 'ClockState' })

const ScenarioListing = z.object({
  name: z.string(),
  description: z.string(),
  summary: z.string().optional(),
  params: z.record(z.string(), z.object({ type: z.string(), default: ParamValue.optional(), description: z.string().optional() })),
  active: z.boolean(),
  activation: z
    .object({ params: z.record(z.string(), ParamValue), target: z.record(z.string(), z.string()).nullable().optional(), remaining: z.number().nullable(), level: z.string() })
    .optional()
    .meta({ description: 'When active: parameters, target and requests left.' }),
  source: z.string(),
}).meta({ id: 'ScenarioListing' })

const JournalEntry = z.object({
  seq: z.number().int().meta({ description: 'Increases by one per entry; use it as `since`.' }),
  time: z.string(),
  route: z.string().meta({ description: 'Route id, or `unmatched`.' }),
  method: z.string(),
  path: z.string().meta({ description: 'Path and query, secrets redacted.' }),
  status: z.number().int().meta({ description: '0 when a scenario made it a network error.' }),
  identity: z.string().nullable(),
  scenarios: z.array(z.string()),
  durationMs: z.number(),
  transport: z.enum(['in-process', 'server']),
  request: z.object({ headers: z.record(z.string(), z.string()), body: JsonValue.optional() }),
  response: z.object({ headers: z.record(z.string(), z.string()), body: z.string().optional() }),
}).meta({ id: 'JournalEntry' })

const journalQuery = {
  route: z.string().optional().meta({ description: 'A route id, or a prefix ending in `*` (`webhooks.*`).' }),
  method: z.string().optional(),
  status: z.string().regex(/^\d+$/).optional(),
  since: z.string().regex(/^\d+$/).optional().meta({ description: 'Only entries with a `seq` above this.' }),
}

const AnyObject = z.record(z.string(), JsonValue)
const SavedStateDoc = z
  .looseObject({ svcMockState: z.literal(1), version: z.string(), exportedAt: z.string(), note: z.string(), seed: z.number().int() })
  .meta({ id: 'SavedState', description: 'A saved state; every member: docs/state.schema.json.' })
const ImportSummary = z.object({
  status: z.literal('imported'),
  savedBy: z.string().meta({ description: 'The svc-mock version that wrote the document.' }),
  fixtures: z.enum(['same', 'other']).meta({ description: '`other`: made over other fixtures; its changes applied to these.' }),
  clock: ClockState,
})
const RouteInfo = z.object({ id: z.string(), method: z.string(), path: z.string(), origin: z.string(), summary: z.string() })

/** Each of the control plane's own operations' documentation, by its id (without `control.`). */
export function controlDocs(targetNames: readonly string[]): Readonly<Record<string, RouteDoc>> {
  return {
    health: { responses: { '200': json('Up.', z.object({ status: z.literal('ok'), version: z.string() })), ...READ_REFUSALS } },
    routes: { responses: { '200': json('Every route.', z.array(RouteInfo)), ...READ_REFUSALS } },
    openapi: { responses: { '200': json('The OpenAPI 3.1 document.', AnyObject), ...READ_REFUSALS } },
    ca: {
      description:
        "The certificate of svc-mock's local CA (PEM), kept once per user in the user's data folder (or `SVC_MOCK_CA_DIR`), on every way in. " +
        'It vouches for local names only (`localhost`, `*.localhost`, `*.test`, `*.internal`, 127.0.0.0/8, ::1: X.509 Name Constraints). ' +
        'A GET never makes it: `svc-mock ca` or `svc-mock --https` does. ' +
        '`svc-mock --https` presents a certificate it signs; trust this one (`REQUESTS_CA_BUNDLE`, `NODE_EXTRA_CA_CERTS`, `curl --cacert`). ' +
        'A server started with `--tls-cert` presents your own certificate instead, which this CA did not sign. The private key is never served.',
      responses: {
        '200': { description: 'The CA certificate.', content: { 'application/pem-certificate-chain': z.string() }, headers: { 'Content-Disposition': '`attachment; filename="svc-mock-ca.pem"`' } },
        '404': refused('There is no local CA yet, or only one made by an older svc-mock without name constraints: `svc-mock ca` or `svc-mock --https` makes it.'),
        '500': json('The CA folder holds something svc-mock cannot use (the message says how to mend it).', ControlErrorBody),
        ...READ_REFUSALS,
      },
    },
    reset: { responses: { '200': json('Back to the fixtures.', z.object({ status: z.literal('reset'), clock: ClockState })), ...CHANGE_REFUSALS } },
    'scenarios.list': { responses: { '200': json('The catalogue.', z.array(ScenarioListing)), ...READ_REFUSALS } },
    'scenarios.on': {
      params: { name: 'A scenario of the catalogue.' },
      body: { 'application/json': scenarioOnBody(targetNames) },
      responses: { '200': json('The scenario, now on.', ScenarioListing), '404': refused('No such scenario (the message names the closest).'), ...CHANGE_REFUSALS },
    },
    'scenarios.off': {
      params: { name: 'A scenario of the catalogue.' },
      responses: { '200': json('The scenario, now off.', ScenarioListing), '404': refused('No such scenario.'), ...CHANGE_REFUSALS },
    },
    'clock.get': { responses: { '200': json('The emulator clock.', ClockState), ...READ_REFUSALS } },
    'clock.advance': {
      ...body(AdvanceBody),
      responses: { '200': json('The clock after the move; timers that fell due have fired.', ClockState), ...CHANGE_REFUSALS },
    },
    'journal.list': {
      query: z.object({ ...journalQuery, limit: z.string().regex(/^\d+$/).optional().meta({ description: 'The newest N.' }) }),
      responses: { '200': json('Recorded requests, newest last, secrets redacted.', z.array(JournalEntry)), ...READ_REFUSALS },
    },
    'journal.wait': {
      query: z.object({ ...journalQuery, timeoutMs: z.string().regex(/^\d+$/).optional().meta({ description: 'Emulator milliseconds to wait (default 30000).' }) }),
      responses: { '200': json('The first matching request.', JournalEntry), '408': json('None arrived in time.', z.object({ error: z.string() })), ...CLOSED_WHILE_WAITING, ...READ_REFUSALS },
    },
    state: { responses: { '200': json('Everything the dashboard shows.', AnyObject), ...READ_REFUSALS } },
    'state.export': {
      description:
        'Everything a reset would not give back, as one JSON document (docs/state.md; its schema: docs/state.schema.json): ids, clock, scenarios on, and each domain\'s changes against the fixtures. ' +
        'It holds the emulator\'s own secrets (client secrets, keys, refresh tokens, private signing keys), as its `note` says; it is never journaled.',
      responses: { '200': { ...json('The saved state.', SavedStateDoc), headers: { 'Content-Disposition': '`attachment; filename="svc-mock-state-….json"`' } }, '409': refused('Something of the state cannot be written (a route added in code that answers with a function).'), ...READ_REFUSALS },
    },
    'state.import': {
      description:
        'Replaces the state at once with a saved one and makes it what a reset returns to (the journal is emptied, as by a reset). A document that cannot be loaded changes nothing: ' +
        'a 400 names the member (not JSON, an unknown member, a wrong type, a reference to something the document and the fixtures lack, an id that collides with the fixtures\', another seed) or the newer svc-mock that wrote it.',
      ...body(SavedStateDoc),
      responses: {
        '200': json('Loaded.', ImportSummary),
        '413': json(`Larger than the most it takes (${SAVED_STATE_BODY_LIMIT / 1024 / 1024} MiB).`, z.object({ error: z.string(), limit: z.number().int() })),
        ...CHANGE_REFUSALS,
      },
    },
    events: {
      query: z.object({ journal: z.string().regex(/^\d+$/).optional().meta({ description: 'How many journal entries the first `journal` event carries (default 200).' }) }),
      responses: { '200': { description: 'Server-sent events: `state`, `journal`, `journal-cleared`.', content: { 'text/event-stream': z.string() } }, ...READ_REFUSALS },
    },
    'dashboard.page': { responses: { '200': { description: 'The dashboard.', content: { 'text/html': HtmlPage } } } },
    'dashboard.redirect': { responses: { '308': { description: 'To `/__svc-mock/`.', headers: { Location: '`/__svc-mock/`' } } } },
    'dashboard.asset': {
      params: { file: "One of the dashboard's files." },
      responses: { '200': { description: 'The file (JavaScript, CSS or an icon).' }, '304': { description: 'Not modified (ETag).' }, '404': { description: 'No such file.' } },
    },
  }
}
