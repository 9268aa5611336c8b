/**
 * The OAuth clients as the dashboard shows them: each with what it is configured to meet and what
 * its requests meet now, once the scenarios that are on are applied (a client's token requests
 * refused, its tokens shorter-lived, its consent denied), so the page can say which wins.
 */
import type { ScenarioView } from '../kernel/domain.js'
import { readSection, type SettingsTree } from '../kernel/settings.js'
import { type ClientInfo, describeClient, type OAuthClient } from './oauth/clients.js'
import { AuthSettings } from './settings.js'

/** What the token, authorize and device endpoints do for a client. */
export interface ClientConditions {
  /** `expires_in` of the access tokens it gets, in seconds. */
  tokenLifetime: number
  /** Whether the token endpoint accepts its credentials. */
  credentials: 'accepted' | 'refused'
  /** How a user's consent (and a device approval) is decided: at once, on a page, or denied. */
  consent: 'auto' | 'page' | 'deny'
}

export interface ClientEffect extends ClientConditions {
  /** The scenarios on that touch this client's requests (token, authorize, device authorization). */
  scenarios: string[]
}

export interface ClientState extends ClientInfo {
  /** Without scenarios. */
  configured: ClientConditions
  /** As its requests meet it now. */
  effective: ClientEffect
}

const TOKEN = 'auth.token'
const TOUCHED = [TOKEN, 'auth.authorize', 'auth.deviceAuthorization']

export function clientState(client: OAuthClient, scenarios: ScenarioView, base: () => SettingsTree): ClientState {
  const target = { client: client.clientId }
  const conditions = (tree: SettingsTree, consentTree: SettingsTree): ClientConditions => {
    const settings = readSection(tree, 'auth', AuthSettings)
    const consent = readSection(consentTree, 'auth', AuthSettings).consent
    return {
      tokenLifetime: settings.tokenLifetime,
      credentials: settings.clientAuthentication === 'rejected' ? 'refused' : 'accepted',
      consent: consent === 'deny' ? 'deny' : consent === 'page' || client.consent === 'page' ? 'page' : 'auto',
    }
  }
  const now = conditions(scenarios.settingsAt(TOKEN, target), scenarios.settingsAt('auth.authorize', target))
  return {
    ...describeClient(client),
    configured: conditions(base(), base()),
    effective: { ...now, scenarios: [...new Set(TOUCHED.flatMap((route) => scenarios.touchingAt(route, target)))] },
  }
}
