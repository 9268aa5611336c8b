/**
 * What the tests of `svc-mock verify` share: the command run in-process (`main(['verify', …])`, its
 * output collected), a team of its own for the target svc-mock (a client, an application key and an
 * element svc-mock's defaults do not have, so normalization is exercised), and route files.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { main } from '../../src/cli/index.js'

export interface VerifyRun {
  code: number
  out: string
  err: string
}

/** Runs `svc-mock verify ARGS` with only `env` as its environment. */
export async function runVerify(args: readonly string[], env: Record<string, string> = {}): Promise<VerifyRun> {
  let out = ''
  let err = ''
  const code = await main(['verify', ...args], { out: (text) => (out += `${text}\n`), err: (text) => (err += `${text}\n`), env })
  return { code, out, err }
}

/** The team's credentials: none of them is svc-mock's. */
export const TEAM = {
  clientId: 'nightly-verify',
  clientSecret: 'Nightly-S3cret-2f9a4c',
  appKey: 'team-app-key-91b7e2d4',
  element: '5b8e2f7a-9c1d-4e3f-8a2b-6c7d8e9f0a1b',
} as const

export const ELEMENT_PATH = `acme-collection/acme-tenant/processes/default/${TEAM.element}`

const READ = [{ action: 'read', resource: 'storage/acme-collection/acme-tenant' }]

type Json = string | number | boolean | null | Json[] | { [key: string]: Json }

/** svc-mock's default element, copied under the team's id (its version ids left to the seed). */
function teamElement(change: (version: Record<string, Json>) => void = () => {}): Json {
  const defaults = JSON.parse(readFileSync(fileURLToPath(new URL('../../fixtures/default/30-elements.json', import.meta.url)), 'utf8')) as { elements: Array<Record<string, Json>> }
  const element = structuredClone(defaults.elements[0]) as Record<string, Json> & { versions: Array<Record<string, Json>> }
  for (const version of element.versions) {
    delete version.versionId
    change(version)
  }
  return { ...element, id: TEAM.element }
}

/** The team's fixtures; `version` changes each version of its element (a drift). */
export function teamFixtures(version?: (v: Record<string, Json>) => void): Record<string, Json> {
  return {
    oauthClients: [{ clientId: TEAM.clientId, clientSecret: TEAM.clientSecret, name: 'Nightly verify', grantType: 'client_credentials', authMethod: 'client_secret_basic', permissions: READ }],
    apiKeys: [{ id: 'nightly-app-key', kind: 'app', key: TEAM.appKey, permissions: READ }],
    elements: [teamElement(version)],
  }
}

/** The flags that give verify the team's credentials, element and webhook. */
export const TEAM_FLAGS = ['--client-id', TEAM.clientId, '--client-secret', TEAM.clientSecret, '--api-key', TEAM.appKey, '--key-kind', 'app', '--element', ELEMENT_PATH, '--webhook', '/hooks/orders', '--allow-writes']

const route = (id: string, path: string, body: Json, headers?: Record<string, string>): Json => ({ id, method: 'GET', path, response: { ...(headers ? { headers } : {}), body } })

/** The user's route file, as svc-mock serves it. */
export const ROUTES = {
  routes: [
    route('pools.list', '/integration/api/pools', [{ id: 'p1', name: 'SAP ECC', type: 'sap' }]),
    route('pools.read', '/integration/api/pools/{poolId}', { id: '{{path.poolId}}' }),
    route('spaces.list', '/package-manager/api/spaces', [{ id: 's1', name: 'Main' }]),
    route('jobs.list', '/integration/api/jobs', [{ id: 'j1' }]),
    route('about', '/integration/api/about', { version: '1' }),
  ],
}

/** The same routes on a team that has drifted: a member dropped, one null, items of another type, another content type. */
export const DRIFTED_ROUTES = {
  routes: [
    route('pools.list', '/integration/api/pools', [{ id: 'p1', name: 'SAP ECC' }]),
    route('pools.read', '/integration/api/pools/{poolId}', { id: '{{path.poolId}}' }),
    route('spaces.list', '/package-manager/api/spaces', [{ id: 's1', name: null }]),
    route('jobs.list', '/integration/api/jobs', ['j1']),
    route('about', '/integration/api/about', { version: '1' }, { 'content-type': 'application/vnd.platform+json' }),
  ],
}

/** Writes a route document to a file of a fresh folder and answers its path. */
export function routeFile(document: Json | typeof ROUTES): string {
  const file = join(mkdtempSync(join(tmpdir(), 'svc-mock-verify-routes-')), 'routes.json')
  writeFileSync(file, JSON.stringify(document))
  return file
}
