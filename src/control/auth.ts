/**
 * The control plane's API-access operations, thin translations of `emu.apiKeys`, `emu.oauth` and
 * `emu.users`: static keys (list, create, delete), OAuth clients (create, list, read, delete,
 * regenerate the secret), users with their consents (list, revoke) and minting a token without
 * the token endpoint. Secrets appear only in the answers that issue them.
 */
import * as z from 'zod'
import type { EmulatorCore } from '../emulator-api.js'
import { NotFoundError } from '../kernel/errors.js'
import { json } from '../kernel/reply.js'
import type { RequestContext, RouteDefinition } from '../kernel/route.js'
import { parseBody } from '../kernel/validation.js'
import { readInput, readJson } from './body.js'
import { noContent, controlRoute as route } from './route.js'

/** The body of `POST …/oauth-tokens`: what the token is for (the answer is what the token endpoint would issue). */
export const IssueTokenBody = z.strictObject({
  clientId: z.string().min(1),
  scope: z.union([z.string(), z.array(z.string())]).optional(),
  userId: z.string().min(1).optional(),
})
/** The body of `POST …/device-codes/:userCode/approve`. */
export const ApproveBody = z.strictObject({ userId: z.string().min(1).optional() })

export function authRoutes(emu: EmulatorCore): RouteDefinition[] {
  const clientId = (ctx: RequestContext): string => ctx.params.clientId ?? ''
  const noClient = (id: string): NotFoundError => new NotFoundError(`No OAuth client ${id}.`, 'clientId')
  return [
    route('apiKeys.list', 'GET', '/api-keys', 'Static keys (never their values)', () => json(emu.apiKeys.list())),
    route('apiKeys.create', 'POST', '/api-keys', 'Create a user API key or application key', async (ctx) =>
      json(await emu.apiKeys.create(await readInput(ctx)), { status: 201 }),
    ),
    route('apiKeys.delete', 'DELETE', '/api-keys/:key', 'Delete a static key (keys cannot be rotated)', (ctx) => {
      if (!emu.apiKeys.delete(ctx.params.key ?? '')) throw new NotFoundError('No such API key.', 'key')
      return noContent()
    }),

    route('oauthClients.list', 'GET', '/oauth-clients', 'OAuth clients (never their secrets)', () => json(emu.oauth.clients.list())),
    route('oauthClients.create', 'POST', '/oauth-clients', 'Create an OAuth client; the answer shows its secret, once', async (ctx) =>
      json(await emu.oauth.clients.create(await readInput(ctx)), { status: 201 }),
    ),
    route('oauthClients.get', 'GET', '/oauth-clients/:clientId', 'One OAuth client (never its secret)', (ctx) => {
      const client = emu.oauth.clients.get(clientId(ctx))
      if (!client) throw noClient(clientId(ctx))
      return json(client)
    }),
    route('oauthClients.delete', 'DELETE', '/oauth-clients/:clientId', 'Delete an OAuth client (its tokens stop working)', (ctx) => {
      if (!emu.oauth.clients.delete(clientId(ctx))) throw noClient(clientId(ctx))
      return noContent()
    }),
    route('oauthClients.regenerateSecret', 'POST', '/oauth-clients/:clientId/secret', 'Regenerate the client secret; the old one stops working', async (ctx) =>
      json(await emu.oauth.clients.regenerateSecret(clientId(ctx))),
    ),
    route('users.list', 'GET', '/users', 'Users, each with the OAuth clients it consented to', () => json(emu.users.list())),
    route('consents.list', 'GET', '/users/:userId/consents', 'The OAuth clients a user consented to', (ctx) => json(emu.oauth.consents.list(ctx.params.userId ?? ''))),
    route('consents.revoke', 'DELETE', '/users/:userId/consents/:clientId', "Revoke a user's consent: that client's refresh tokens stop working", (ctx) => {
      if (!emu.oauth.consents.revoke(ctx.params.userId ?? '', clientId(ctx))) {
        throw new NotFoundError(`User ${ctx.params.userId ?? ''} has no consent for client ${clientId(ctx)}.`, 'clientId')
      }
      return noContent()
    }),
    route('deviceCodes.list', 'GET', '/device-codes', 'Device codes of the device grant, with user codes and status (never the device code)', () =>
      json(emu.oauth.deviceCodes.list()),
    ),
    route('deviceCodes.approve', 'POST', '/device-codes/:userCode/approve', 'Approve a pending device code as a user (body {userId}, default alice)', async (ctx) =>
      json(await emu.oauth.deviceCodes.approve(ctx.params.userCode ?? '', parseBody(ApproveBody, await readJson(ctx), 'device approval'))),
    ),
    route('deviceCodes.deny', 'POST', '/device-codes/:userCode/deny', "Deny a pending device code: the device's next poll gets access_denied", async (ctx) =>
      json(await emu.oauth.deviceCodes.deny(ctx.params.userCode ?? '')),
    ),
    route('oauth.issueToken', 'POST', '/oauth-tokens', 'Mint an access token without the token endpoint', async (ctx) =>
      json(await emu.oauth.issueToken(parseBody(IssueTokenBody, await readJson(ctx), 'token request'))),
    ),
  ]
}
