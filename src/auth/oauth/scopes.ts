/**
 * The platform's OAuth scopes: the service description's list plus `studio` and `package-manager`
 * (the platform's own CLI asks for it on every grant, so the real platform has it). A scope states the
 * access level a client needs; it never adds a permission. Scope parameters are space-separated.
 */
import * as z from 'zod'
import { once } from '../../kernel/once.js'

/** Every scope the platform knows, with what it grants access to (shown on the consent page). */
export const SCOPES = {
  'intelligence.knowledge-models:read': 'Read knowledge models and their data, filters, records, KPIs, OData metadata, specs and triggers',
  'intelligence.subscriptions:manage': 'Manage subscriptions to knowledge model triggers: create, update, event replay',
  'intelligence.conversations:write': 'Use the conversational assistant API',
  'user-provisioning.scim': 'Use the SCIM API',
  'audit.log:read': 'Read audit logs',
  'integration.data-pools': 'Use data pools',
  'integration.data-pools:data_push': 'Push data to data pools',
  'integration.data-pools:continuous_data_push': 'Continuously push data to data pools',
  'platform-adoption.tracking-events:read': 'Read platform-adoption tracking events',
  'team.user-group-info:read': 'Read team user and group information',
  'team.login-history:read': 'Read the team login history',
  'task-mining.gateway': 'Use the task-mining gateway integration API',
  'task-mining.metadata:read': 'Read task-mining user metadata',
  'action-engine.projects': 'Use projects',
  'machine-learning': 'Use the machine-learning workbench API',
  studio: 'Access the studio',
  'package-manager': 'Use the package manager (packages, spaces, imports and exports)',
} as const satisfies Record<string, string>

export type ScopeName = keyof typeof SCOPES

export const SCOPE_NAMES: readonly string[] = Object.keys(SCOPES)

export function isScope(name: string): boolean {
  return Object.hasOwn(SCOPES, name)
}

export function describeScope(name: string): string {
  return isScope(name) ? SCOPES[name as ScopeName] : name
}

/** A scope in fixtures and control-plane bodies: one of the platform's. */
export const scopeSchema = once(() =>
  z.string().refine(isScope, {
    error: (issue) => `"${String(issue.input)}" is not a platform scope (scopes: ${SCOPE_NAMES.join(', ')})`,
  }),
)

/** Splits a scope parameter; undefined when it is absent or blank (meaning "all of the client's"). */
export function parseScopeParam(raw: string | undefined): string[] | undefined {
  if (raw === undefined) return undefined
  const scopes = raw.split(' ').filter((s) => s !== '')
  return scopes.length === 0 ? undefined : [...new Set(scopes)]
}

/**
 * Checks requested scopes against what a client may ask for. Returns the granted list, or a
 * problem naming the first scope that is unknown or not the client's.
 */
export function grantScopes(requested: readonly string[] | undefined, allowed: readonly string[]): { scopes: string[] } | { problem: string } {
  if (requested === undefined) return { scopes: [...allowed] }
  for (const scope of requested) {
    if (!isScope(scope)) return { problem: `The scope "${scope}" does not exist. Valid scopes: ${SCOPE_NAMES.join(', ')}.` }
    if (!allowed.includes(scope)) {
      return { problem: `The client may not request the scope "${scope}". Its scopes: ${allowed.join(' ') || 'none'}. Add the scope to the client or leave it out of the request.` }
    }
  }
  return { scopes: [...requested] }
}
