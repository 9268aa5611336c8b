/**
 * What `svc-mock verify` sends to check API access against the user's team: the token endpoint
 * (valid credentials, a wrong secret, an unknown grant, a scope no client may have), the discovery
 * and JWKS documents, and the who-am-I family the platform's clients call first. Also svc-mock's
 * side of the credentials: the default fixtures' records that stand for the user's client and keys.
 */
import type { FixtureRecords } from '../kernel/domain.js'
import type { VerifyProbe } from '../kernel/verify-probe.js'
import { apiKeysSection, usersSection } from './directory.js'
import { oauthClientsSection } from './oauth/clients.js'
import { SCOPE_NAMES } from './oauth/scopes.js'
import { CLOUD_PATH, PERMISSIONS_PATH, TEAM_INFO_PATH } from './probes.js'
import { TEAM_PATH, platformTeamSection } from './platform-team.js'

const TOKEN = { address: 'auth', method: 'POST', path: '/oauth2/token' } as const
const WHO_AM_I = { api: 'who-am-I', address: 'base', method: 'GET', credential: 'api' } as const

/** The probes of API access, in the order they are sent (the valid token first: later probes use it). */
export const AUTH_VERIFY_PROBES: readonly VerifyProbe[] = [
  {
    ...TOKEN,
    id: 'token.valid',
    api: 'token endpoint',
    title: 'client credentials grant, Basic',
    form: { grant_type: 'client_credentials' },
    credential: 'secret',
    yieldsToken: true,
    misfits: [
      { status: 401, fix: 'the target refused --client-id/--client-secret (401 on a client credentials grant): check both, and that the client may use the client credentials grant with Basic authentication' },
      { status: 400, fix: 'the target refused a client credentials grant for --client-id (400): the client must be a client credentials client' },
    ],
  },
  { ...TOKEN, id: 'token.wrong-secret', api: 'token endpoint', title: 'a wrong client secret', form: { grant_type: 'client_credentials' }, credential: 'wrong-secret' },
  { ...TOKEN, id: 'token.unknown-grant', api: 'token endpoint', title: 'an unknown grant_type', form: { grant_type: 'svc_mock_verify_unknown_grant' }, credential: 'secret' },
  {
    ...TOKEN,
    id: 'token.scope-not-allowed',
    api: 'token endpoint',
    title: 'a scope the client may not have',
    form: { grant_type: 'client_credentials', scope: 'svc-mock-verify.not-a-scope' },
    credential: 'secret',
  },
  { id: 'discovery.openid-configuration', api: 'discovery', title: 'the OpenID configuration', address: 'auth', method: 'GET', path: '/.well-known/openid-configuration', credential: 'none' },
  { id: 'discovery.jwks', api: 'discovery', title: 'the signing keys (JWKS)', address: 'auth', method: 'GET', path: '/.well-known/jwks.json', credential: 'none' },
  { ...WHO_AM_I, id: 'who-am-i.cloud', title: 'the caller (UserTransport)', path: CLOUD_PATH },
  { ...WHO_AM_I, id: 'who-am-i.permissions', title: "the caller's permissions", path: PERMISSIONS_PATH },
  { ...WHO_AM_I, id: 'who-am-i.team', title: 'the team (TeamTransport)', path: TEAM_INFO_PATH },
  { ...WHO_AM_I, id: 'who-am-i.cloud-team', title: "the team of the credential (content-cli's probe)", path: TEAM_PATH },
  { ...WHO_AM_I, id: 'who-am-i.no-credential', title: 'no credential: the 401 and its challenge', path: CLOUD_PATH, credential: 'none' },
]

/** svc-mock's records that stand for the user's credentials, from its default fixtures. */
export interface AuthEquivalents {
  /** A client credentials client with Basic authentication, every scope and a permission. */
  readonly client: { readonly id: string; readonly secret: string } | undefined
  /** A user API key whose user has a permission. */
  readonly userKey: string | undefined
  /** An application key with a permission. */
  readonly appKey: string | undefined
  /** The team's id and name, which answers may carry. */
  readonly teamNames: readonly string[]
}

/** Picks the records of the fixtures that stand for a user's client and keys (the defaults: `ci-client`, alice's key, the app key). */
export function authEquivalents(fixtures: FixtureRecords): AuthEquivalents {
  const users = fixtures.of(usersSection).map((u) => u.value)
  const keys = fixtures.of(apiKeysSection).map((k) => k.value)
  const client = fixtures
    .of(oauthClientsSection)
    .map((c) => c.value)
    .find((c) => c.grantType === 'client_credentials' && c.authMethod === 'client_secret_basic' && c.permissions.length > 0 && SCOPE_NAMES.every((s) => c.scopes.includes(s)))
  const userKey = keys.find((k) => k.kind === 'user' && (users.find((u) => u.id === k.userId)?.permissions.length ?? 0) > 0)
  const appKey = keys.find((k) => k.kind === 'app' && k.permissions.length > 0)
  const team = fixtures.of(platformTeamSection)[0]?.value
  return {
    client: client?.clientSecret === undefined ? undefined : { id: client.clientId, secret: client.clientSecret },
    userKey: userKey?.key,
    appKey: appKey?.key,
    teamNames: team === undefined ? [] : [team.id, team.name],
  }
}
