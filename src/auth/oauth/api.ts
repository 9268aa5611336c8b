/**
 * The OAuth operations of the emulator object (`emu.oauth`), which the control plane translates
 * one for one: clients (create with the secret shown once, read without it, delete, regenerate
 * the secret), a user's consents (list, revoke) and `issueToken()`, which mints an access token
 * without HTTP, as the token endpoint would.
 */
import type { Clock } from '../../kernel/clock.js'
import { InvalidInputError, NotFoundError } from '../../kernel/errors.js'
import { DEFAULT_LOGIN } from '../constants.js'
import { type ClientInfo, type OAuthClientInput, describeClient } from './clients.js'
import type { ConsentInfo } from './consents.js'
import type { DeviceCodeInfo } from './device-codes.js'
import { grantScopes } from './scopes.js'
import type { OAuthServer } from './server.js'
import type { TokenResponse } from './wire.js'

export interface CreatedClient extends ClientInfo {
  /** Shown here only, as on the platform; a public client (authMethod `none`) has none. */
  clientSecret?: string
}

export interface IssueTokenInput {
  clientId: string
  /** Space-separated string or list; default: all of the client's scopes. */
  scope?: string | readonly string[]
  /** For an authorization code client: the user the token acts for (default `alice`). */
  userId?: string
}

export interface OAuthClientsApi {
  list(): ClientInfo[]
  get(clientId: string): ClientInfo | undefined
  /** `{name, grantType, authMethod, scopes, permissions, redirectUris, consent?, pkce?, clientId?}`; a bad one throws InvalidInputError (400). */
  create(input: OAuthClientInput): Promise<CreatedClient>
  delete(clientId: string): boolean
  /** A new secret; the old one stops working at once. */
  regenerateSecret(clientId: string): Promise<{ clientId: string; clientSecret: string }>
}

export interface OAuthConsentsApi {
  /** The clients the user consented to; unknown user: NotFoundError (404). */
  list(userId: string): ConsentInfo[]
  /** Revokes the consent: that client's refresh tokens for this user stop working. */
  revoke(userId: string, clientId: string): boolean
}

export interface DeviceCodesApi {
  /** Device codes handed out, with their user codes and status (never the device code itself). */
  list(): DeviceCodeInfo[]
  /** Approves a pending code as this user (default `alice`), as a person would on the verification page. */
  approve(userCode: string, options?: { userId?: string }): Promise<DeviceCodeInfo>
  /** Denies a pending code: the device's next poll gets `access_denied`. */
  deny(userCode: string): Promise<DeviceCodeInfo>
}

export interface OAuthApi {
  readonly clients: OAuthClientsApi
  readonly consents: OAuthConsentsApi
  /** The device grant's codes: list, approve, deny. */
  readonly deviceCodes: DeviceCodesApi
  /** Mints an access token without HTTP (run settings: lifetime, algorithm; emulator clock). */
  issueToken(input: IssueTokenInput): Promise<TokenResponse>
}

const newSecret = (domain: OAuthServer): string => domain.ids.token(40)

/** The OAuth operations; `changed` tells watchers (the dashboard) when one of them changed something. */
export function oauthApi(domain: OAuthServer, clock: Clock, changed: () => void): OAuthApi {
  const { clients, consents, deps } = domain
  return {
    clients: {
      list: () => clients.all().map(describeClient),
      get: (clientId) => {
        const client = clients.get(clientId)
        return client ? describeClient(client) : undefined
      },
      create: async (input) => {
        const client = clients.create(input, { uuid: () => domain.ids.uuid(), secret: () => newSecret(domain) })
        changed()
        return { ...describeClient(client), ...(client.clientSecret === undefined ? {} : { clientSecret: client.clientSecret }) }
      },
      delete: (clientId) => {
        const deleted = clients.delete(clientId)
        if (deleted) domain.forgetClient(clientId)
        changed()
        return deleted
      },
      regenerateSecret: async (clientId) => {
        const client = clients.regenerateSecret(clientId, newSecret(domain))
        changed()
        return { clientId: client.clientId, clientSecret: client.clientSecret ?? '' }
      },
    },
    consents: {
      list: (userId) => {
        if (!deps.directory.user(userId)) throw new NotFoundError(`No user ${userId}.`, 'userId')
        return consents.ofUser(userId).map((c) => ({
          clientId: c.clientId,
          clientName: clients.get(c.clientId)?.name ?? c.clientId,
          scopes: c.scopes,
          grantedAt: c.grantedAt,
        }))
      },
      revoke: (userId, clientId) => {
        const revoked = consents.revoke(userId, clientId)
        changed()
        return revoked
      },
    },
    deviceCodes: {
      list: () => domain.device.list(),
      approve: async (userCode, options = {}) => {
        const info = await domain.device.resolve(userCode, 'allow', options.userId)
        changed()
        return info
      },
      deny: async (userCode) => {
        const info = await domain.device.resolve(userCode, 'deny')
        changed()
        return info
      },
    },
    issueToken: async (input) => {
      const client = clients.get(input.clientId)
      if (!client) throw new NotFoundError(`No OAuth client ${input.clientId}.`, 'clientId')
      const requested = input.scope === undefined ? undefined : typeof input.scope === 'string' ? input.scope.split(' ').filter((s) => s !== '') : [...input.scope]
      const granted = grantScopes(requested, client.scopes)
      if ('problem' in granted) throw new InvalidInputError(granted.problem, 'scope')
      let userId: string | undefined
      if (client.grantType !== 'client_credentials') {
        userId = input.userId ?? DEFAULT_LOGIN
        if (!deps.directory.user(userId)) throw new InvalidInputError(`No user ${userId}.`, 'userId')
      } else if (input.userId !== undefined) {
        throw new InvalidInputError(`Client ${client.clientId} uses client credentials: its tokens act as the client, not for a user. Leave userId out.`, 'userId')
      }
      const settings = domain.runSettings()
      return await domain.issuer.issue(
        { clientId: client.clientId, scopes: granted.scopes, ...(userId === undefined ? {} : { userId }) },
        { now: clock.now(), lifetime: settings.tokenLifetime, algorithm: settings.tokenAlgorithm },
      )
    },
  }
}
