/**
 * What `emu` exposes of API access in-process (the control plane calls the same methods): static
 * keys (`emu.apiKeys`), the platform's users with their consents (`emu.users`), and the OAuth
 * server's operations (`emu.oauth`, oauth/api.ts). Also the domain's part of the dashboard's state
 * and the start-up banner's credentials.
 */
import type { CredentialInfo, ExampleRequest } from '../kernel/domain.js'
import type { ApiKey, ApiKeyInput, Directory } from './directory.js'
import { describeApiKey } from './directory.js'
import type { OAuthApi } from './oauth/api.js'
import type { ClientState } from './client-state.js'
import type { ConsentInfo } from './oauth/consents.js'
import type { DeviceCodeInfo } from './oauth/device-codes.js'
import type { OAuthServer } from './oauth/server.js'
import type { Permission } from './permissions.js'

export interface CreatedApiKey {
  id: string
  kind: 'user' | 'app'
  key: string
  userId?: string
  permissions: Array<{ action: string; resource: string }>
}

export interface ApiKeysApi {
  list(): Array<Omit<CreatedApiKey, 'key'>>
  /** `{kind: "user" | "app", userId?, permissions?, id?, key?}`; a bad one throws InvalidInputError (400). */
  create(input: ApiKeyInput): Promise<CreatedApiKey>
  delete(key: string): boolean
}

export interface UserInfo {
  id: string
  name: string
  email?: string
  permissions: Permission[]
  /** The OAuth clients this user consented to. */
  consents: ConsentInfo[]
}

export interface UsersApi {
  /** The platform's users, each with the OAuth clients it consented to. */
  list(): UserInfo[]
}

export interface AuthApi {
  readonly apiKeys: ApiKeysApi
  /** OAuth clients, user consents, and tokens minted without HTTP. */
  readonly oauth: OAuthApi
  /** Users with their consents. */
  readonly users: UsersApi
}

/** The domain's part of the emulator's state. */
export interface AuthState {
  /** Never their secrets; each with what its requests meet now, scenarios applied. */
  oauthClients: ClientState[]
  users: UserInfo[]
  /** Device codes still waiting for a person's decision. */
  deviceCodes: DeviceCodeInfo[]
}

export function apiKeysApi(directory: Directory, newKey: () => string): ApiKeysApi {
  return {
    list: () => directory.apiKeys.all().map(describeApiKey),
    create: async (input) => {
      const key = directory.createApiKey(input, newKey)
      return { ...describeApiKey(key), key: key.key }
    },
    delete: (key) => directory.deleteApiKey(key),
  }
}

export function usersApi(directory: Directory, oauth: OAuthApi): UsersApi {
  return {
    list: () =>
      directory.users.all().map((user) => ({
        id: user.id,
        name: user.name,
        ...(user.email === undefined ? {} : { email: user.email }),
        permissions: user.permissions,
        consents: oauth.consents.list(user.id),
      })),
  }
}

const GRANT_LABELS = { client_credentials: 'client credentials', authorization_code: 'authorization code', device_code: 'device code' } as const
const METHOD_LABELS = { client_secret_basic: 'basic', client_secret_post: 'post', none: 'public, no secret' } as const

/**
 * The fixtures' static keys (application keys first: what a script calls the API with) and OAuth
 * clients, for the start-up banner (the defaults are public test values).
 */
export function credentials(directory: Directory, server: OAuthServer): CredentialInfo[] {
  const keys = directory.apiKeys.all()
  return [
    ...[...keys.filter((key) => key.kind === 'app'), ...keys.filter((key) => key.kind !== 'app')].map((key: ApiKey) => {
      const header = key.kind === 'user' ? `Authorization: Bearer ${key.key}` : `Authorization: AppKey ${key.key}`
      return { kind: key.kind === 'user' ? 'user API key' : 'application key', id: key.id, label: key.kind === 'user' ? `acts as ${key.userId ?? '?'}` : key.id, value: header, curl: `-H '${header}'` }
    }),
    ...server.clients.all().map((client) => ({
      kind: 'OAuth client',
      id: client.clientId,
      label: `${GRANT_LABELS[client.grantType]}, ${METHOD_LABELS[client.authMethod]}`,
      value: client.clientSecret === undefined ? client.clientId : `${client.clientId} / ${client.clientSecret}`,
    })),
  ]
}

/** A token for the fixtures' first client-credentials client with a secret, as curl asks for it. */
export function tokenExamples(server: OAuthServer, tokenUrl: string): ExampleRequest[] {
  const client = server.clients.all().find((c) => c.grantType === 'client_credentials' && c.clientSecret !== undefined)
  if (client === undefined || client.clientSecret === undefined) return []
  const grant = '-d grant_type=client_credentials'
  const curl = client.authMethod === 'client_secret_post' ? `${grant} -d client_id=${client.clientId} -d client_secret=${client.clientSecret}` : `-u ${client.clientId}:${client.clientSecret} ${grant}`
  return [{ url: tokenUrl, curl }]
}
