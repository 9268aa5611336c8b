/**
 * The control plane as the OpenAPI document shows it: each route's body is the schema the emulator
 * method checks it with (the domains export them), and the answers are described by the views'
 * shapes. A change's body must be sent as JSON (415 otherwise), from no other web page or site
 * (403) and to a loopback or the emulator's own host name (421).
 */
import * as z from 'zod'
import {
  ApiKeyInputSchema,
  ClientInfoSchema as ClientInfoFields,
  OAuthClientInputSchema,
  PermissionSchema,
  TokenResponseBody,
} from '../auth/index.js'
import { HtmlPage } from '../kernel/docs.js'
import { JsonValue } from '../kernel/json.js'
import type { ResponseDoc, RouteDoc } from '../kernel/route.js'
import { ParamValue } from '../kernel/scenarios/schema.js'
import { ApproveBody, IssueTokenBody } from './auth.js'
import { AdvanceBody, scenarioOnBody } from './core.js'
import { TeamBody } from './teams.js'
import { ElementInputSchema, StorageSchema, VersionInputSchema } from '../versions/index.js'
import { RoutesDocumentSchema } from '../user-routes/index.js'
import { DataStructureSchema, FlowConfigSchema, FlowPatchSchema, WebhookInputSchema, WebhookOptionsSchema } from '../webhooks/index.js'

const ClientInfoSchema = ClientInfoFields.meta({ id: 'OAuthClient' })

/** `{"error": "…", "field": "…"}`: every refusal of the control plane. */
export const ControlErrorBody = z.object({ error: z.string(), field: z.string().optional().meta({ description: 'The field or parameter at fault.' }) }).meta({ id: 'ControlError' })

const json = (description: string, schema: z.ZodType): ResponseDoc => ({ description, content: { 'application/json': schema } })
const refused = (description: string): ResponseDoc => json(description, ControlErrorBody)
const noContent: ResponseDoc = { description: 'Done.' }

/** The refusals every change can meet (the guards), and a bad body. */
const FOREIGN_ORIGIN: ResponseDoc = { ...refused('Sent by a page of another origin (`Origin`) or site (`Sec-Fetch-Site: cross-site` or `same-site`).'), name: 'ForeignOrigin' }
const MISDIRECTED: ResponseDoc = { ...refused("Addressed to a host name other than loopback or the emulator's own."), name: 'Misdirected' }
const CHANGE_REFUSALS: Readonly<Record<string, ResponseDoc>> = {
  '400': { ...refused('A bad body or parameter, naming the field.'), name: 'InvalidInput' },
  '403': FOREIGN_ORIGIN,
  '415': { ...refused('A body not sent as `Content-Type: application/json` (a change without a body needs no Content-Type).'), name: 'NotJson' },
  '421': MISDIRECTED,
}
const READ_REFUSALS: Readonly<Record<string, ResponseDoc>> = { '403': FOREIGN_ORIGIN, '421': MISDIRECTED }
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

const ElementSummary = z.object({
  storage: z.string(),
  facet: z.string(),
  id: z.string(),
  type: z.string(),
  stereotype: z.string().optional(),
  versions: z.array(z.object({ versionId: z.string(), state: z.string() })),
}).meta({ id: 'ElementSummary' })
const where = z.object({
  storage: z.string().optional().meta({ description: '`collectionId/storageId`, when the element id is not unique.' }),
  facet: z.string().optional(),
})

const ApiKeyView = z.object({ id: z.string(), kind: z.enum(['user', 'app']), userId: z.string().optional(), permissions: z.array(PermissionSchema) }).meta({ id: 'ApiKey' })
const ConsentInfo = z.object({ clientId: z.string(), clientName: z.string(), scopes: z.array(z.string()), grantedAt: z.string() }).meta({ id: 'Consent' })
const UserInfo = z.object({ id: z.string(), name: z.string(), email: z.string().optional(), permissions: z.array(PermissionSchema), consents: z.array(ConsentInfo) }).meta({ id: 'User' })
const DeviceCodeInfo = z.object({
  userCode: z.string(),
  clientId: z.string(),
  clientName: z.string(),
  scopes: z.array(z.string()),
  status: z.enum(['pending', 'approved', 'denied', 'used', 'expired']).or(z.string()),
  expiresAt: z.string(),
  userId: z.string().nullable(),
}).meta({ id: 'DeviceCodeInfo' })

const WebhookView = z.object({
  id: z.string().meta({ description: 'The address token; random for one created here, as on the platform.' }),
  name: z.string(),
  url: z.string().meta({ description: 'Where to send calls: `{webhook_url}/hooks/{id}`.' }),
  dataStructure: DataStructureSchema.nullable(),
  learning: z.boolean(),
  secured: z.boolean(),
  options: WebhookOptionsSchema,
  flow: FlowConfigSchema,
  queue: z.object({ length: z.number().int(), capacity: z.number().int() }),
}).meta({ id: 'WebhookView' })
const Execution = z.object({
  seq: z.number().int(),
  webhook: z.string(),
  bundle: z.record(z.string(), JsonValue).meta({ description: 'What the flow received; file data as base64.' }),
  receivedAt: z.string(),
  startedAt: z.string(),
  processedAt: z.string().nullable(),
  outcome: z.enum(['succeed', 'fail', 'hang']),
}).meta({ id: 'Execution' })

const AnyObject = z.record(z.string(), JsonValue)
const RouteInfo = z.object({ id: z.string(), method: z.string(), path: z.string(), origin: z.string(), summary: z.string() })

const Team = z.object({
  name: z.string(),
  url: z.string().meta({ description: 'Its origin: every endpoint, its control plane and its dashboard.' }),
  port: z.number().int(),
  main: z.boolean().meta({ description: "The server's own team (it closes only with the server)." }),
  seed: z.number().int(),
  dashboard: z.string(),
}).meta({ id: 'Team' })
const TEAMS_OFF: ResponseDoc = { ...refused('In-process: teams need the standalone server (each listens on a port of its own).'), name: 'NoTeams' }

/** A route's JSON body (the control plane's own schemas live beside its routes, the rest are the domains'). */
const body = (schema: z.ZodType): Pick<RouteDoc, 'body' | 'bodyRequired'> => ({ body: { 'application/json': schema }, bodyRequired: true })

/** Each control route's documentation, by route id. */
export function controlDocs(targetNames: readonly string[]): Readonly<Record<string, RouteDoc>> {
  return {
    'control.health': { responses: { '200': json('Up.', z.object({ status: z.literal('ok'), version: z.string() })), ...READ_REFUSALS } },
    'control.routes': { responses: { '200': json('Every route.', z.array(RouteInfo)), ...READ_REFUSALS } },
    'control.openapi': { responses: { '200': json('The OpenAPI 3.1 document.', AnyObject), ...READ_REFUSALS } },
    'control.ca': {
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
    'control.reset': { responses: { '200': json('Back to the fixtures.', z.object({ status: z.literal('reset'), clock: ClockState })), ...CHANGE_REFUSALS } },
    'control.scenarios.list': { responses: { '200': json('The catalogue.', z.array(ScenarioListing)), ...READ_REFUSALS } },
    'control.scenarios.on': {
      params: { name: 'A scenario of the catalogue.' },
      body: { 'application/json': scenarioOnBody(targetNames) },
      responses: { '200': json('The scenario, now on.', ScenarioListing), '404': refused('No such scenario (the message names the closest).'), ...CHANGE_REFUSALS },
    },
    'control.scenarios.off': {
      params: { name: 'A scenario of the catalogue.' },
      responses: { '200': json('The scenario, now off.', ScenarioListing), '404': refused('No such scenario.'), ...CHANGE_REFUSALS },
    },
    'control.clock.get': { responses: { '200': json('The emulator clock.', ClockState), ...READ_REFUSALS } },
    'control.clock.advance': {
      ...body(AdvanceBody),
      responses: { '200': json('The clock after the move; timers that fell due have fired.', ClockState), ...CHANGE_REFUSALS },
    },
    'control.journal.list': {
      query: z.object({ ...journalQuery, limit: z.string().regex(/^\d+$/).optional().meta({ description: 'The newest N.' }) }),
      responses: { '200': json('Recorded requests, newest last, secrets redacted.', z.array(JournalEntry)), ...READ_REFUSALS },
    },
    'control.journal.wait': {
      query: z.object({ ...journalQuery, timeoutMs: z.string().regex(/^\d+$/).optional().meta({ description: 'Emulator milliseconds to wait (default 30000).' }) }),
      responses: { '200': json('The first matching request.', JournalEntry), '408': json('None arrived in time.', z.object({ error: z.string() })), ...CLOSED_WHILE_WAITING, ...READ_REFUSALS },
    },
    'control.storages.list': { responses: { '200': json('Storages with facets and views.', z.array(StorageSchema)), ...READ_REFUSALS } },
    'control.storages.add': { ...body(StorageSchema.meta({ id: 'StorageInput' })), responses: { '201': json('Added.', StorageSchema), '409': refused('It exists already.'), ...CHANGE_REFUSALS } },
    'control.elements.list': { query: where, responses: { '200': json('Elements with their versions.', z.array(ElementSummary)), ...READ_REFUSALS } },
    'control.elements.add': { ...body(ElementInputSchema.meta({ id: 'ElementInput' })), responses: { '201': json('Added (the id is generated when absent).', ElementSummary), '409': refused('A version id exists already.'), ...CHANGE_REFUSALS } },
    'control.elements.addVersion': {
      params: { elementId: 'The element.' },
      query: where,
      ...body(VersionInputSchema.meta({ id: 'VersionInput' })),
      responses: { '201': json('The element, with the new version last.', ElementSummary), '404': refused('No such element.'), ...CHANGE_REFUSALS },
    },
    'control.elements.remove': { params: { elementId: 'The element.' }, query: where, responses: { '204': noContent, '404': refused('No such element.'), ...READ_REFUSALS } },
    'control.elements.removeVersion': {
      params: { elementId: 'The element.', versionId: 'One of its versions.' },
      query: where,
      responses: { '204': noContent, '404': refused('No such element or version.'), ...READ_REFUSALS },
    },
    'control.apiKeys.list': { responses: { '200': json('Static keys, never their values.', z.array(ApiKeyView)), ...READ_REFUSALS } },
    'control.apiKeys.create': {
      ...body(ApiKeyInputSchema.meta({ id: 'ApiKeyInput' })),
      responses: { '201': json('The key, with its value.', ApiKeyView.extend({ key: z.string() })), '409': refused('The key value exists already.'), ...CHANGE_REFUSALS },
    },
    'control.apiKeys.delete': { params: { key: 'The key value.' }, responses: { '204': noContent, '404': refused('No such key.'), ...READ_REFUSALS } },
    'control.oauthClients.list': { responses: { '200': json('OAuth clients, never their secrets.', z.array(ClientInfoSchema)), ...READ_REFUSALS } },
    'control.oauthClients.create': {
      ...body(OAuthClientInputSchema.meta({ id: 'OAuthClientInput' })),
      responses: {
        '201': json('The client, with its secret: shown this once (a public client has none).', ClientInfoSchema.extend({ clientSecret: z.string().optional() })),
        '409': refused('The client id exists already.'),
        ...CHANGE_REFUSALS,
      },
    },
    'control.oauthClients.get': { params: { clientId: 'The client id.' }, responses: { '200': json('The client, never its secret.', ClientInfoSchema), '404': refused('No such client.'), ...READ_REFUSALS } },
    'control.oauthClients.delete': { params: { clientId: 'The client id.' }, responses: { '204': noContent, '404': refused('No such client.'), ...READ_REFUSALS } },
    'control.oauthClients.regenerateSecret': {
      params: { clientId: 'The client id.' },
      responses: { '200': json('The new secret; the old one fails at once.', z.object({ clientId: z.string(), clientSecret: z.string() })), '404': refused('No such client.'), ...CHANGE_REFUSALS },
    },
    'control.users.list': { responses: { '200': json('The users, each with the clients it consented to.', z.array(UserInfo)), ...READ_REFUSALS } },
    'control.consents.list': { params: { userId: 'The user.' }, responses: { '200': json('Its consents.', z.array(ConsentInfo)), '404': refused('No such user.'), ...READ_REFUSALS } },
    'control.consents.revoke': {
      params: { userId: 'The user.', clientId: 'The client.' },
      responses: { '204': noContent, '404': refused('No such consent.'), ...READ_REFUSALS },
    },
    'control.deviceCodes.list': { responses: { '200': json('The device grant\'s codes (never the device code).', z.array(DeviceCodeInfo)), ...READ_REFUSALS } },
    'control.deviceCodes.approve': {
      params: { userCode: 'The user code the device shows.' },
      body: { 'application/json': ApproveBody },
      responses: { '200': json('Approved.', DeviceCodeInfo), '404': refused('No such code.'), ...CHANGE_REFUSALS },
    },
    'control.deviceCodes.deny': {
      params: { userCode: 'The user code the device shows.' },
      responses: { '200': json('Denied: the device\'s next poll gets access_denied.', DeviceCodeInfo), '404': refused('No such code.'), ...CHANGE_REFUSALS },
    },
    'control.oauth.issueToken': {
      ...body(IssueTokenBody),
      responses: { '200': json('A token, as the token endpoint would issue it.', TokenResponseBody), '404': refused('No such client.'), ...CHANGE_REFUSALS },
    },
    'control.webhooks.list': { responses: { '200': json('Webhooks with their flows and queues.', z.array(WebhookView)), ...READ_REFUSALS } },
    'control.webhooks.create': {
      description: 'The id, and so the address, is random unless given, as on the platform: read `url` from the answer.',
      ...body(WebhookInputSchema.meta({ id: 'WebhookInput' })),
      responses: { '201': json('The webhook.', WebhookView), '409': refused('The id exists already.'), ...CHANGE_REFUSALS },
    },
    'control.webhooks.get': { params: { id: 'The webhook id.' }, responses: { '200': json('The webhook.', WebhookView), '404': refused('No such webhook.'), ...READ_REFUSALS } },
    'control.webhooks.delete': { params: { id: 'The webhook id.' }, responses: { '204': noContent, '404': refused('No such webhook.'), ...READ_REFUSALS } },
    'control.webhooks.updateFlow': {
      description: 'Activating a flow runs its queue in order.',
      params: { id: 'The webhook id.' },
      ...body(FlowPatchSchema.strict().meta({ id: 'FlowPatch' })),
      responses: { '200': json('The webhook, flow changed.', WebhookView), '404': refused('No such webhook.'), ...CHANGE_REFUSALS },
    },
    'control.webhooks.executions': {
      params: { id: 'The webhook id.' },
      responses: { '200': json('The flow\'s runs, in order.', z.array(Execution)), '404': refused('No such webhook.'), ...READ_REFUSALS },
    },
    'control.routes.add': {
      description: 'Your routes and resources, as a route file holds them (docs/routes.md), served at once and until the next reset. A route of yours with the same id, or a resource with the same name (from a route file too), is replaced until then; a built-in route never. A refused document adds nothing: the 400 names the route, the field and the rule.',
      ...body(RoutesDocumentSchema.meta({ id: 'RoutesDocument' })),
      responses: { '201': json('The routes it added.', z.array(RouteInfo)), ...CHANGE_REFUSALS },
    },
    'control.resources.list': { responses: { '200': json('Your resources.', z.array(z.object({ name: z.string(), path: z.string(), idField: z.string(), count: z.number().int() }))), ...READ_REFUSALS } },
    'control.resources.records': { params: { name: 'A resource.' }, responses: { '200': json('Its records, in the order they were added.', z.array(AnyObject)), '404': refused('No such resource.'), ...READ_REFUSALS } },
    'control.resources.get': { params: { name: 'A resource.', id: 'A record\'s id.' }, responses: { '200': json('The record.', AnyObject), '404': refused('No such resource or record.'), ...READ_REFUSALS } },
    'control.resources.put': {
      params: { name: 'A resource.' },
      ...body(AnyObject),
      responses: { '200': json('Replaced the record with its id.', AnyObject), '201': json('Added (the id is made when absent).', AnyObject), '404': refused('No such resource.'), ...CHANGE_REFUSALS },
    },
    'control.resources.delete': { params: { name: 'A resource.', id: 'A record\'s id.' }, responses: { '204': noContent, '404': refused('No such resource or record.'), ...READ_REFUSALS } },
    'control.teams.list': {
      responses: { '200': json('Every team of the server, the main one first.', z.array(Team.extend({ current: z.boolean().meta({ description: 'The team whose control plane answered.' }) }))), '501': TEAMS_OFF, ...READ_REFUSALS },
    },
    'control.teams.create': {
      description:
        "A complete, isolated emulator (store, keys, clock, scenarios, journal, webhooks) seeded from the run's fixtures and then the body's, listening on a port of its own on the same host. " +
        'Its tokens, keys and codes are refused by every other team. A 400 (a name that is not a DNS label, fixtures or a scenario that fail validation) makes nothing.',
      body: { 'application/json': TeamBody.meta({ id: 'TeamInput' }) },
      responses: {
        '201': json('The team.', Team),
        '409': refused('A team of that name exists already.'),
        '429': json('As many teams run as the limit allows (`--max-teams`).', z.object({ error: z.string(), limit: z.number().int() })),
        '501': TEAMS_OFF,
        '503': refused('Its port could not be opened; the message says why.'),
        ...CHANGE_REFUSALS,
      },
    },
    'control.teams.delete': {
      description: 'Its port takes no more connections once answered; requests in flight there still get their answers.',
      params: { name: 'The team.' },
      responses: { '204': noContent, '404': refused('No such team.'), '409': refused('The main team closes only with the server.'), '501': TEAMS_OFF, ...READ_REFUSALS },
    },
    'control.state': { responses: { '200': json('Everything the dashboard shows.', AnyObject), ...READ_REFUSALS } },
    'control.events': {
      query: z.object({ journal: z.string().regex(/^\d+$/).optional().meta({ description: 'How many journal entries the first `journal` event carries (default 200).' }) }),
      responses: { '200': { description: 'Server-sent events: `state`, `journal`, `journal-cleared`.', content: { 'text/event-stream': z.string() } }, ...READ_REFUSALS },
    },
    'control.dashboard.page': { responses: { '200': { description: 'The dashboard.', content: { 'text/html': HtmlPage } } } },
    'control.dashboard.redirect': { responses: { '308': { description: 'To `/__svc-mock/`.', headers: { Location: '`/__svc-mock/`' } } } },
    'control.dashboard.asset': {
      params: { file: "One of the dashboard's files." },
      responses: { '200': { description: 'The file (JavaScript, CSS or an icon).' }, '304': { description: 'Not modified (ETag).' }, '404': { description: 'No such file.' } },
    },
  }
}
