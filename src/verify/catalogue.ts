/**
 * The probes verify sends, collected from the domains that declare them (each in its own
 * verify-probes.ts), in the order they go out: the token first (later probes use it), then
 * discovery, who-am-I, versions, webhooks and the user's routes. Also svc-mock's side of the
 * inputs: the default fixtures' records that stand for the user's credentials, element and webhook.
 */
import { AUTH_VERIFY_PROBES, authEquivalents } from '../auth/index.js'
import { defaultFixtureDocuments } from '../defaults.js'
import { FIXTURE_SECTIONS } from '../domains.js'
import type { FixtureRecords } from '../kernel/domain.js'
import { loadSections, recordsOf } from '../kernel/fixtures.js'
import type { RouteInfo } from '../kernel/kernel.js'
import type { VerifyProbe } from '../kernel/verify-probe.js'
import { userRoutesVerifyProbes } from '../user-routes/index.js'
import { VERSIONS_VERIFY_PROBES, versionsEquivalent } from '../versions/index.js'
import { WEBHOOKS_VERIFY_PROBES, webhooksEquivalent } from '../webhooks/index.js'
import type { Credentials, Place } from './options.js'

/** Every probe, the user's routes' included, in the order they are sent. */
export function probeCatalogue(userRoutes: readonly RouteInfo[]): VerifyProbe[] {
  return [...AUTH_VERIFY_PROBES, ...VERSIONS_VERIFY_PROBES, ...WEBHOOKS_VERIFY_PROBES, ...userRoutesVerifyProbes(userRoutes)]
}

/** svc-mock's equivalents of what the user gives: credentials of each kind, the element, the webhook. */
export interface LocalEquivalents {
  readonly client: { readonly id: string; readonly secret: string } | undefined
  readonly keys: { readonly user: string | undefined; readonly app: string | undefined }
  readonly place: Place
  /** Names of svc-mock's team, which answers may carry. */
  readonly teamNames: readonly string[]
}

/** Reads svc-mock's equivalents from its default fixtures (never written down a second time). */
export function localEquivalents(): LocalEquivalents {
  const loaded = loadSections(defaultFixtureDocuments(), FIXTURE_SECTIONS)
  const fixtures: FixtureRecords = { of: (section) => recordsOf(loaded, section) }
  const auth = authEquivalents(fixtures)
  const element = versionsEquivalent(fixtures)
  const webhook = webhooksEquivalent(fixtures)
  return {
    client: auth.client,
    keys: { user: auth.userKey, app: auth.appKey },
    place: { ...element, ...(webhook === undefined ? {} : { webhook }) },
    teamNames: auth.teamNames,
  }
}

/** What the API credential of a run is: a key of a kind, an access token, or none. */
export type ApiCredential = 'user-key' | 'app-key' | 'token' | 'none'

export function apiCredentialOf(credentials: Credentials): ApiCredential {
  if (credentials.key !== undefined) return credentials.key.kind === 'user' ? 'user-key' : 'app-key'
  return credentials.client === undefined ? 'none' : 'token'
}

/** svc-mock's credentials that mirror the team's: the same kinds, from the fixtures. */
export function localCredentials(equivalents: LocalEquivalents, api: ApiCredential): Credentials {
  const key = api === 'user-key' ? equivalents.keys.user : api === 'app-key' ? equivalents.keys.app : undefined
  return {
    ...(equivalents.client === undefined ? {} : { client: equivalents.client }),
    ...(key === undefined ? {} : { key: { value: key, kind: api === 'user-key' ? 'user' : 'app' } }),
  }
}
