/**
 * The start-up banner says what this run serves, never what a default run would: every prefix of
 * the control plane it mounts, the credentials its fixtures hold (and no others), and a request
 * to try on an element it loaded. Run as a user runs it (the built bin; `npm test` builds first),
 * with fixtures of its own whose keys, clients and elements differ from the defaults.
 */
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { killStarted, spawnCli } from '../support/cli.js'

afterEach(killStarted)

const ELEMENT = '3d2c1b0a-9f8e-4d7c-8b6a-5f4e3d2c1b0a'
const FIXTURES = {
  users: [{ id: 'carol', name: 'Carol', permissions: [{ action: 'read', resource: 'storage/north/plant-7' }] }],
  apiKeys: [
    { id: 'carol-key', kind: 'user', key: 'own-user-key-carol', userId: 'carol' },
    { id: 'robot-key', kind: 'app', key: 'own-app-key-robot', permissions: [{ action: 'read', resource: 'storage/north/plant-7' }] },
  ],
  oauthClients: [{ clientId: 'robot', clientSecret: 'robot-secret', name: 'Robot', grantType: 'client_credentials', authMethod: 'client_secret_basic' }],
  storages: [{ collectionId: 'north', storageId: 'plant-7', facets: [{ name: 'lines', views: ['overview'] }] }],
  elements: [{ storage: 'north/plant-7', facet: 'lines', id: ELEMENT, type: 'mainProcess', versions: [{ versionId: 'a0a0a0a0-0000-4000-8000-000000000001', state: 'released' }] }],
}

/** Starts svc-mock on these fixtures alone; resolves with its URL and its banner once it has printed it. */
function start(): Promise<{ url: string; banner: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-mock-banner-'))
  writeFileSync(join(dir, 'own.json'), JSON.stringify(FIXTURES))
  return new Promise((resolve, reject) => {
    const child = spawnCli(['--port', '0', '--no-default-fixtures', '--fixtures', dir])
    let out = ''
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString()
      const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1]
      if (url !== undefined && out.includes('Ctrl+C')) resolve({ url, banner: out })
    })
    child.stderr.on('data', (d: Buffer) => (out += d.toString()))
    child.on('exit', (code) => reject(new Error(`svc-mock exited with ${String(code)} before its banner:\n${out}`)))
  })
}

describe('the start-up banner', () => {
  it('names every control-plane prefix the server mounts (as GET /__svc-mock/routes lists them)', async () => {
    const { url, banner } = await start()
    const routes = (await (await fetch(`${url}/__svc-mock/routes`)).json()) as Array<{ id: string; path: string }>
    const prefixes = new Set(
      routes.filter((r) => r.id.startsWith('control.')).map((r) => r.path.replace(/^\/__svc-mock\/?/, '').split('/')[0] ?? '').filter((p) => p !== '' && !p.startsWith(':')),
    )
    expect(prefixes.size).toBeGreaterThan(20)
    const listed = /Control plane +\S+\/__svc-mock\/\{([^}]*)\}/.exec(banner.replace(/\n {26}/g, ' '))?.[1]?.split(/,\s*/) ?? []
    expect(listed.sort()).toEqual([...prefixes].sort())
  })

  it('shows the credentials its fixtures hold and no default one, and tries an element it loaded with them', async () => {
    const { url, banner } = await start()
    for (const own of ['Authorization: AppKey own-app-key-robot', 'Authorization: Bearer own-user-key-carol', 'robot / robot-secret']) expect(banner).toContain(own)
    for (const other of ['svcmock-app-key', 'svcmock-user-key', 'ci-client', 'ci-secret', '0f8fad5b-d9cb-469f-a165-70867728950e']) expect(banner).not.toContain(other)
    const tried = `${url}/north/plant-7/_api/rest/facets/lines/views/overview/elements/${ELEMENT}/versions`
    expect(banner).toContain(`curl -H 'Authorization: AppKey own-app-key-robot' ${tried}`)
    expect(banner).toContain(`curl -u robot:robot-secret -d grant_type=client_credentials ${url}/oauth2/token`)
    const answer = await fetch(tried, { headers: { authorization: 'AppKey own-app-key-robot' } })
    expect(answer.status).toBe(200)
  })
})
