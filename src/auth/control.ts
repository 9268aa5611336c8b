/**
 * The control plane's API-access operations, thin translations of `emu.apiKeys`, `emu.oauth` and
 * `emu.users`: static keys (list, create, delete), OAuth clients (create, list, read, delete,
 * regenerate the secret), users with their consents (list, revoke), device codes (list, approve,
 * deny) and minting a token without the token endpoint; and their documentation. Secrets appear
 * only in the answers that issue them.
 */
import * as z from 'zod'
import { type ControlPart, controlRoute as route, noContent, once, readInput, readJson } from '../kernel/control.js'
import { NotFoundError } from '../kernel/errors.js'
import { json } from '../kernel/reply.js'
import type { RequestContext, RouteDoc } from '../kernel/route.js'
import { parseBody } from '../kernel/validation.js'
import type { AuthApi } from './api.js'
import { directorySchemas } from './directory.js'
import { clientSchemas } from './oauth/clients.js'
import { permissionSchema } from './permissions.js'

/** The control bodies' schemas, made on the first request that sends one (or for the documentation). */
const bodies = once(() => ({
  /** The body of `POST …/oauth-tokens`: what the token is for (the answer is what the token endpoint would issue). */
  IssueTokenBody: z.strictObject({
    clientId: z.string().min(1),
    scope: z.union([z.string(), z.array(z.string())]).optional(),
    userId: z.string().min(1).optional(),
  }),
  /** The body of `POST …/device-codes/:userCode/approve`. */
  ApproveBody: z.strictObject({ userId: z.string().min(1).optional() }),
}))

export function authControl({ apiKeys, oauth, users }: AuthApi): ControlPart {
  const clientId = (ctx: RequestContext): string => ctx.params.clientId ?? ''
  const noClient = (id: string): NotFoundError => new NotFoundError(`No OAuth client ${id}.`, 'clientId')
  return {
    routes: [
      route('apiKeys.list', 'GET', '/api-keys', 'Static keys (never their values)', () => json(apiKeys.list())),
      route('apiKeys.create', 'POST', '/api-keys', 'Create a user API key or application key', async (ctx) => json(await apiKeys.create(await readInput(ctx)), { status: 201 })),
      route('apiKeys.delete', 'DELETE', '/api-keys/:key', 'Delete a static key (keys cannot be rotated)', (ctx) => {
        if (!apiKeys.delete(ctx.params.key ?? '')) throw new NotFoundError('No such API key.', 'key')
        return noContent()
      }),
      route('oauthClients.list', 'GET', '/oauth-clients', 'OAuth clients (never their secrets)', () => json(oauth.clients.list())),
      route('oauthClients.create', 'POST', '/oauth-clients', 'Create an OAuth client; the answer shows its secret, once', async (ctx) =>
        json(await oauth.clients.create(await readInput(ctx)), { status: 201 }),
      ),
      route('oauthClients.get', 'GET', '/oauth-clients/:clientId', 'One OAuth client (never its secret)', (ctx) => {
        const client = oauth.clients.get(clientId(ctx))
        if (!client) throw noClient(clientId(ctx))
        return json(client)
      }),
      route('oauthClients.delete', 'DELETE', '/oauth-clients/:clientId', 'Delete an OAuth client (its tokens stop working)', (ctx) => {
        if (!oauth.clients.delete(clientId(ctx))) throw noClient(clientId(ctx))
        return noContent()
      }),
      route('oauthClients.regenerateSecret', 'POST', '/oauth-clients/:clientId/secret', 'Regenerate the client secret; the old one stops working', async (ctx) =>
        json(await oauth.clients.regenerateSecret(clientId(ctx))),
      ),
      route('users.list', 'GET', '/users', 'Users, each with the OAuth clients it consented to', () => json(users.list())),
      route('consents.list', 'GET', '/users/:userId/consents', 'The OAuth clients a user consented to', (ctx) => json(oauth.consents.list(ctx.params.userId ?? ''))),
      route('consents.revoke', 'DELETE', '/users/:userId/consents/:clientId', "Revoke a user's consent: that client's refresh tokens stop working", (ctx) => {
        if (!oauth.consents.revoke(ctx.params.userId ?? '', clientId(ctx))) {
          throw new NotFoundError(`User ${ctx.params.userId ?? ''} has no consent for client ${clientId(ctx)}.`, 'clientId')
        }
        return noContent()
      }),
      route('deviceCodes.list', 'GET', '/device-codes', 'Device codes of the device grant, with user codes and status (never the device code)', () => json(oauth.deviceCodes.list())),
      route('deviceCodes.approve', 'POST', '/device-codes/:userCode/approve', 'Approve a pending device code as a user (body {userId}, default alice)', async (ctx) =>
        json(await oauth.deviceCodes.approve(ctx.params.userCode ?? '', parseBody(bodies().ApproveBody, await readJson(ctx), 'device approval'))),
      ),
      route('deviceCodes.deny', 'POST', '/device-codes/:userCode/deny', "Deny a pending device code: the device's next poll gets access_denied", async (ctx) =>
        json(await oauth.deviceCodes.deny(ctx.params.userCode ?? '')),
      ),
      route('oauth.issueToken', 'POST', '/oauth-tokens', 'Mint an access token without the token endpoint', async (ctx) =>
        json(await oauth.issueToken(parseBody(bodies().IssueTokenBody, await readJson(ctx), 'token request'))),
      ),
    ],
    docs: once(docs),
  }
}

async function docs(): Promise<Readonly<Record<string, RouteDoc>>> {
  const { body, CHANGE_REFUSALS, json, noContent, READ_REFUSALS, refused } = await import('../kernel/control-docs.js')
  const { TokenResponseBody } = await import('./answers.js')
  const { CreateApiKeyBody } = directorySchemas()
  const { ClientInfoSchema, CreateClientBody } = clientSchemas()
  const { ApproveBody, IssueTokenBody } = bodies()
  const Permission = permissionSchema()
  const OAuthClient = ClientInfoSchema.meta({ id: 'OAuthClient' })
  const ApiKeyView = z.object({ id: z.string(), kind: z.enum(['user', 'app']), userId: z.string().optional(), permissions: z.array(Permission) }).meta({ id: 'ApiKey' })
  const ConsentInfo = z.object({ clientId: z.string(), clientName: z.string(), scopes: z.array(z.string()), grantedAt: z.string() }).meta({ id: 'Consent' })
  const UserInfo = z.object({ id: z.string(), name: z.string(), email: z.string().optional(), permissions: z.array(Permission), consents: z.array(ConsentInfo) }).meta({ id: 'User' })
  const DeviceCodeInfo = z
    .object({
      userCode: z.string(),
      clientId: z.string(),
      clientName: z.string(),
      scopes: z.array(z.string()),
      status: z.enum(['pending', 'approved', 'denied', 'used', 'expired']).or(z.string()),
      expiresAt: z.string(),
      userId: z.string().nullable(),
    })
    .meta({ id: 'DeviceCodeInfo' })
  const client = { clientId: 'The client id.' }
  const userCode = { userCode: 'The user code the device shows.' }
  return {
    'apiKeys.list': { responses: { '200': json('Static keys, never their values.', z.array(ApiKeyView)), ...READ_REFUSALS } },
    'apiKeys.create': {
      ...body(CreateApiKeyBody.meta({ id: 'ApiKeyInput' })),
      responses: { '201': json('The key, with its value.', ApiKeyView.extend({ key: z.string() })), '409': refused('The key value exists already.'), ...CHANGE_REFUSALS },
    },
    'apiKeys.delete': { params: { key: 'The key value.' }, responses: { '204': noContent, '404': refused('No such key.'), ...READ_REFUSALS } },
    'oauthClients.list': { responses: { '200': json('OAuth clients, never their secrets.', z.array(OAuthClient)), ...READ_REFUSALS } },
    'oauthClients.create': {
      ...body(CreateClientBody.meta({ id: 'OAuthClientInput' })),
      responses: {
        '201': json('The client, with its secret: shown this once (a public client has none).', OAuthClient.extend({ clientSecret: z.string().optional() })),
        '409': refused('The client id exists already.'),
        ...CHANGE_REFUSALS,
      },
    },
    'oauthClients.get': { params: client, responses: { '200': json('The client, never its secret.', OAuthClient), '404': refused('No such client.'), ...READ_REFUSALS } },
    'oauthClients.delete': { params: client, responses: { '204': noContent, '404': refused('No such client.'), ...READ_REFUSALS } },
    'oauthClients.regenerateSecret': {
      params: client,
      responses: { '200': json('The new secret; the old one fails at once.', z.object({ clientId: z.string(), clientSecret: z.string() })), '404': refused('No such client.'), ...CHANGE_REFUSALS },
    },
    'users.list': { responses: { '200': json('The users, each with the clients it consented to.', z.array(UserInfo)), ...READ_REFUSALS } },
    'consents.list': { params: { userId: 'The user.' }, responses: { '200': json('Its consents.', z.array(ConsentInfo)), '404': refused('No such user.'), ...READ_REFUSALS } },
    'consents.revoke': { params: { userId: 'The user.', clientId: 'The client.' }, responses: { '204': noContent, '404': refused('No such consent.'), ...READ_REFUSALS } },
    'deviceCodes.list': { responses: { '200': json("The device grant's codes (never the device code).", z.array(DeviceCodeInfo)), ...READ_REFUSALS } },
    'deviceCodes.approve': {
      params: userCode,
      body: { 'application/json': ApproveBody },
      responses: { '200': json('Approved.', DeviceCodeInfo), '404': refused('No such code.'), ...CHANGE_REFUSALS },
    },
    'deviceCodes.deny': { params: userCode, responses: { '200': json("Denied: the device's next poll gets access_denied.", DeviceCodeInfo), '404': refused('No such code.'), ...CHANGE_REFUSALS } },
    'oauth.issueToken': {
      ...body(IssueTokenBody),
      responses: { '200': json('A token, as the token endpoint would issue it.', TokenResponseBody), '404': refused('No such client.'), ...CHANGE_REFUSALS },
    },
  }
}
