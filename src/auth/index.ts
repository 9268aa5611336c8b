/**
 * API access, the auth domain's one door: the platform's users and static keys, the access gate
 * every protected route goes through (Bearer and AppKey credentials, scopes AND permissions, the
 * rate limit), the OAuth 2.0 authorization server (token, authorize, discovery, JWKS), and the
 * platform clients' who-am-I probes (`/api/cloud/team`, and the Python SDK's three). Other
 * domains get the gate from the record `use(authDomain)` returns (`gate.protect(route,
 * requirement)`), and the types they need from here.
 */
import type { CredentialInfo, Domain, DomainModule, DomainSchemas, KernelServices, ScenarioTarget } from '../kernel/domain.js'
import { type AuthApi, type AuthState, apiKeysApi, credentials, tokenExamples, usersApi } from './api.js'
import type { z } from 'zod'
import { type ApiKeyFixture, Directory, type UserInput, apiKeysSection, usersSection } from './directory.js'
import { AccessGate } from './gate.js'
import { oauthApi } from './oauth/api.js'
import { clientState } from './client-state.js'
import { authControl } from './control.js'
import { type OAuthClientFixture, oauthClientsSection } from './oauth/clients.js'
import { type SigningKeyInput, signingKeysSection } from './oauth/keys.js'
import { requestClientId } from './oauth/request-client.js'
import { OAuthServer } from './oauth/server.js'
import { TOKEN_PATH } from './constants.js'
import { AUTH_FLAGS, type AuthOptions, authBaseSettings } from './options.js'
import { AuthSettings } from './settings.js'
import { probeRoutes } from './probes.js'
import { type PlatformTeam, type PlatformTeamInput, TEAM_PATH, platformTeamSection, whoAmI } from './platform-team.js'
import type { SavedAuthInput } from './saved.js'

export type { AuthApi, AuthState, ApiKeysApi, CreatedApiKey, UserInfo, UsersApi } from './api.js'
export type { ApiKeyFixture, ApiKeyInput, UserInput } from './directory.js'
export type { OAuthClientFixture, OAuthClientInput } from './oauth/clients.js'
export type { SigningKeyInput } from './oauth/keys.js'
export type { ScopeName } from './oauth/scopes.js'
export type { PlatformTeamInput } from './platform-team.js'
export type { AccessGate, AccessRequirement, ConditionalRequirement, Identity, ProtectedRoute } from './gate.js'
export type { CreatedClient, DeviceCodesApi, IssueTokenInput, OAuthApi, OAuthClientsApi, OAuthConsentsApi } from './oauth/api.js'
export type { DeviceCodeInfo } from './oauth/device-codes.js'
export type { ClientInfo } from './oauth/clients.js'
export type { ClientConditions, ClientEffect, ClientState } from './client-state.js'
export type { ConsentInfo } from './oauth/consents.js'
export type { Permission } from './permissions.js'
export type { TokenAlgorithm } from './settings.js'
export type { AuthOptions } from './options.js'
export type { TokenResponse, OAuthErrorCode } from './oauth/wire.js'
export { ApiAccessError, RateLimitError, type ApiAccessProblem } from './wire.js'
export { OAuthError, AuthorizePageError, AuthorizeRedirectError } from './oauth/wire.js'
export { storageResource } from './permissions.js'
export { SCOPES as SCOPE_DESCRIPTIONS } from './oauth/scopes.js'
export { RATE_LIMIT_HEADERS } from './rate-limit-headers.js'
export { AUTH_VERIFY_PROBES, type AuthEquivalents, authEquivalents } from './verify-probes.js'
/** The schema of a permission (route files name the permissions their routes need). */
export { permissionSchema } from './permissions.js'

/** The fixture sections of API access, as a fixture document gives them. */
export type AuthFixtures = {
  users?: UserInput[]
  apiKeys?: ApiKeyFixture[]
  oauthClients?: OAuthClientFixture[]
  /** Pinned signing keys (one per algorithm); otherwise each emulator makes its own. */
  signingKeys?: SigningKeyInput[]
  /** The team on the platform every credential belongs to (`/api/team`, `/api/cloud/team`). */
  team?: PlatformTeamInput
}

/** The `auth` section of the settings tree, as options and scenario files give it (every field optional). */
export type AuthSettingsInput = z.input<typeof AuthSettings>

/** What a scenario can be aimed at in this domain (`client=ci-client`). */
export interface AuthTargets {
  /** Only requests made by this OAuth client (its client id). */
  client?: string
}

export interface AuthDomain extends Domain<AuthApi, AuthState> {
  /** The access gate, for the domains whose routes are protected. */
  readonly gate: AccessGate
}

export const authSchemas: DomainSchemas = {
  settings: { name: 'auth', schema: AuthSettings },
  fixtures: [platformTeamSection, usersSection, apiKeysSection, oauthClientsSection, signingKeysSection],
  saved: async () => (await import('./saved.js')).SavedAuth,
}

/** Body and query fields of OAuth requests and answers that hold secrets. */
const SECRET_FIELDS = ['client_secret', 'clientSecret', 'refresh_token', 'access_token', 'code', 'code_verifier', 'client_assertion', 'id_token', 'device_code']

/** What API access adds to the public types. */
export interface AuthInputs {
  readonly fixtures: AuthFixtures
  readonly settings: AuthSettingsInput
  readonly targets: AuthTargets
  readonly saved: SavedAuthInput
}

export const authDomain: DomainModule<'auth', AuthOptions, AuthDomain, AuthInputs> = {
  name: 'auth',
  schemas: authSchemas,
  flags: AUTH_FLAGS,
  define: ({ kernel, address, options }) => defineAuth(kernel, { auth: address('auth'), base: address('base') }, options),
}

/** `urls.auth`: the token, authorize and discovery endpoints; `urls.base`: the audience of access tokens. */
function defineAuth(kernel: KernelServices, urls: { auth: string; base: string }, options: AuthOptions): AuthDomain {
  const directory = new Directory()
  const gate = new AccessGate(directory)
  const server = new OAuthServer({ gate, directory, authUrl: urls.auth, baseUrl: urls.base, ids: kernel.ids, clock: kernel.clock, settings: kernel.baseSettings })
  const oauth = oauthApi(server, kernel.clock, kernel.changed)
  const users = usersApi(directory, oauth)
  const client: ScenarioTarget = {
    name: 'client',
    description: 'Only requests made by this OAuth client (its client id): from a Basic header, a client_id parameter or a token\'s client_id claim.',
    read: requestClientId,
    values: () => server.clients.all().map((c) => c.clientId),
  }
  let team: PlatformTeam = { id: 'team', name: 'Team' }
  const api: AuthApi = { apiKeys: apiKeysApi(directory, () => kernel.ids.token(24)), oauth, users }
  return {
    gate,
    routes: [
      ...server.routes(),
      gate.protect({
        id: 'auth.team',
        method: 'GET',
        path: TEAM_PATH,
        origin: 'base',
        summary: "Who am I: the team of any valid credential (the platform CLI's key-profile probe)",
        resolve: () => whoAmI(team, urls.base),
      }),
      ...probeRoutes({ gate, directory, clients: server.clients, team: () => team, baseUrl: urls.base }),
    ],
    api,
    control: authControl(api),
    docs: async () => (await import('./docs.js')).AUTH_DOCS,
    baseSettings: authBaseSettings(options),
    targets: [client],
    secretFields: SECRET_FIELDS,
    load: async (fixtures) => {
      team = fixtures.of(platformTeamSection)[0]?.value ?? team
      directory.load(fixtures.of(usersSection), fixtures.of(apiKeysSection))
      await server.load(fixtures.of(oauthClientsSection), fixtures.of(signingKeysSection))
    },
    state: () => ({
      oauthClients: server.clients.all().map((c) => clientState(c, kernel.scenarios, kernel.baseSettings)),
      users: users.list(),
      deviceCodes: server.device.list().filter((code) => code.status === 'pending'),
    }),
    credentials: (): CredentialInfo[] => credentials(directory, server),
    examples: () => tokenExamples(server, `${urls.auth}${TOKEN_PATH}`),
    saved: async () => (await import('./saved.js')).savedAuth({ directory, server, gate, authUrl: urls.auth }),
    reset: async () => {
      gate.reset()
      directory.reset()
      server.reset()
    },
  }
}
