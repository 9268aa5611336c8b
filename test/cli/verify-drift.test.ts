/**
 * `svc-mock verify` against a second svc-mock as the team, without the network: a team identical
 * to svc-mock gives 0 differ; one made to drift on purpose (a fixture that changes a member's type,
 * a route file that drops a member, scenarios that change an error body, a status and take a header
 * away) has each difference reported at the member where it is. The reports, `--save` and
 * `--against`, and no credential anywhere: not in the output, the reports, the saved answers or the
 * team's journal.
 */
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type RunningServer, startServer } from '../../src/adapters/server.js'
import { DRIFTED_ROUTES, ROUTES, TEAM, TEAM_FLAGS, routeFile, runVerify, teamFixtures } from '../support/verify.js'

const ROUTES_FILE = routeFile(ROUTES)
const scratch = (): string => mkdtempSync(join(tmpdir(), 'svc-mock-verify-'))

/** The drifts the scenarios make: an error body and a status (`/api/cloud`), a header taken away (`/api/cloud/team`). */
const DRIFT_SCENARIOS = [
  { name: 'drift-cloud', description: 'The who-am-I answers 401 with another body.', rules: [{ route: 'auth.cloud', respond: { status: 401, headers: { 'www-authenticate': 'Bearer' }, body: { error: 'Unauthenticated' } } }] },
  { name: 'drift-team', description: 'The team answers without Deprecation.', rules: [{ route: 'auth.team', respond: { status: 200, body: { id: 'acme', name: 'Acme', domain: 'acme.test' } } }] },
]

let identical: RunningServer
let drifted: RunningServer

beforeAll(async () => {
  identical = await startServer({ port: 0, log: 'silent', fixtures: [teamFixtures()], routes: [ROUTES_FILE] })
  drifted = await startServer({
    port: 0,
    log: 'silent',
    // The fixture drift: the attribute `version` holds numbers where svc-mock has strings.
    fixtures: [teamFixtures((version) => void (version.attributes = { ...(version.attributes as object), version: { '127': 2 } }))],
    routes: [routeFile(DRIFTED_ROUTES)],
    scenarioDefinitions: DRIFT_SCENARIOS,
    scenarios: ['drift-cloud', 'drift-team'],
  })
})
afterAll(async () => {
  await identical.close()
  await drifted.close()
})

const lineOf = (out: string, id: string): string => out.split('\n').find((line) => line.split(/\s+/)[1] === id) ?? `(no line for ${id})`

describe('svc-mock verify against a second svc-mock', () => {
  it('finds a team identical to svc-mock the same on every probe it sends: 0 differ, exit 0', async () => {
    const run = await runVerify(['--target', identical.url, ...TEAM_FLAGS, '--routes', ROUTES_FILE])
    expect(run.err).toBe('')
    expect(run.out).toContain('verify: 21 same, 0 differ, 1 skipped\n')
    expect(lineOf(run.out, 'routes.pools.read')).toMatch(/^skipped +routes\.pools\.read +its path has parameters/)
    expect(run.code).toBe(0)
  })

  it('verifies a team whose token endpoint has an address of its own (--auth-url), svc-mock splitting its addresses alike', async () => {
    const auth = identical.url.replace('127.0.0.1', 'localhost')
    const run = await runVerify(['--target', identical.url, '--auth-url', auth, ...TEAM_FLAGS])
    expect(run.out.split('\n')[0]).toBe(`svc-mock verify: ${identical.url} (auth ${auth}) against svc-mock 0.1.0`)
    expect(run.out).toContain('verify: 17 same, 0 differ, 0 skipped\n')
  })

  it('reports each kind of difference at the member where it is, and exits 1', async () => {
    const run = await runVerify(['--target', drifted.url, ...TEAM_FLAGS, '--routes', ROUTES_FILE])
    expect(run.code).toBe(1)
    expect(lineOf(run.out, 'versions.list')).toMatch(/^differs +versions\.list +\$\.elements\[\]\.attributes\.version\["127"\]: number on the target, string in svc-mock$/)
    expect(lineOf(run.out, 'routes.pools.list')).toMatch(/differs +routes\.pools\.list +\$\[\]\.type: only in svc-mock \(string\)$/)
    expect(lineOf(run.out, 'routes.spaces.list')).toMatch(/\$\[\]\.name: null on the target, string in svc-mock$/)
    expect(lineOf(run.out, 'routes.jobs.list')).toMatch(/\$\[\]: string on the target, object in svc-mock$/)
    expect(lineOf(run.out, 'routes.about')).toMatch(/content type: application\/vnd\.platform\+json on the target, application\/json in svc-mock$/)
    expect(lineOf(run.out, 'who-am-i.cloud')).toMatch(/status: 401 on the target, 200 in svc-mock$/)
    expect(lineOf(run.out, 'who-am-i.no-credential')).toMatch(/\$\.error: "Unauthenticated" on the target, "Unauthorized" in svc-mock$/)
    expect(lineOf(run.out, 'who-am-i.cloud-team')).toMatch(/header Deprecation: only in svc-mock \("true"\)$/)
    expect(lineOf(run.out, 'token.valid')).toMatch(/^same /)
    expect(run.out).toContain('verify: 13 same, 8 differ, 1 skipped\n')
  })

  it('never shows a credential: not in the output, the reports, the saved answers or the team\'s journal', async () => {
    const dir = scratch()
    const runs = [
      await runVerify(['--target', drifted.url, ...TEAM_FLAGS, '--report', join(dir, 'report.json'), '--save', join(dir, 'saved')]),
      await runVerify(['--target', drifted.url, ...TEAM_FLAGS, '--report', join(dir, 'report.xml')]),
      await runVerify(['--target', drifted.url, '--element', 'acme-collection/acme-tenant/processes/default/00000000-0000-4000-8000-00000000beef', '--client-id', TEAM.clientId], { SVC_MOCK_VERIFY_CLIENT_SECRET: TEAM.clientSecret }),
      await runVerify(['--target', drifted.url, '--api-key', TEAM.appKey]),
    ]
    const files = [join(dir, 'report.json'), join(dir, 'report.xml'), ...readdirSync(join(dir, 'saved')).map((f) => join(dir, 'saved', f))].map((f) => readFileSync(f, 'utf8'))
    const journal = await (await fetch(`${drifted.url}/__svc-mock/journal`)).text()
    const har = await (await fetch(`${drifted.url}/__svc-mock/journal.har`)).text()
    expect(journal).toContain('/oauth2/token')
    for (const text of [...runs.flatMap((r) => [r.out, r.err]), ...files, journal, har]) {
      expect(text).not.toContain(TEAM.clientSecret)
      expect(text).not.toContain(TEAM.appKey)
    }
    expect(runs.map((r) => r.code)).toEqual([1, 1, 2, 2])
  })

  it('--save keeps the normalized answers, and --against compares svc-mock with them offline', async () => {
    const dir = scratch()
    const online = await runVerify(['--target', drifted.url, ...TEAM_FLAGS, '--routes', ROUTES_FILE, '--save', dir])
    const saved = JSON.parse(readFileSync(join(dir, 'verify-run.json'), 'utf8')) as { apiCredential: string; answers: Record<string, string> }
    expect(saved.apiCredential).toBe('app-key')
    expect(Object.keys(saved.answers)).toHaveLength(21)
    expect(JSON.parse(readFileSync(join(dir, saved.answers['token.valid'] ?? ''), 'utf8'))).toMatchObject({ probe: 'token.valid', request: 'POST {auth_url}/oauth2/token', answer: { status: 200, body: { kind: 'shape' } } })
    const offline = await runVerify(['--against', dir, '--routes', ROUTES_FILE])
    expect(offline.out.split('\n').slice(1)).toEqual(online.out.split('\n').slice(1))
    expect(offline.out.split('\n')[0]).toBe(`svc-mock verify: the answers saved in ${dir} against svc-mock 0.1.0 (read-only)`)
    expect(offline.code).toBe(1)
  })

  it('writes a JUnit XML report as CI systems read it, and a JSON report, from the same results', async () => {
    const dir = scratch()
    await runVerify(['--target', drifted.url, ...TEAM_FLAGS, '--routes', ROUTES_FILE, '--report', join(dir, 'verify.xml')])
    const xml = readFileSync(join(dir, 'verify.xml'), 'utf8')
    expect(xml).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<testsuites name="svc-mock verify [^"]+" tests="22" failures="8" errors="0" skipped="1" time="[\d.]+">/)
    expect(xml).toContain('<testsuite name="who-am-I" tests="5" failures="3" errors="0" skipped="0">')
    expect(xml).toMatch(/<testcase classname="svc-mock verify.who-am-I" name="who-am-i.no-credential: [^"]+">\n {6}<failure message="\$.error: &quot;Unauthenticated&quot; on the target, &quot;Unauthorized&quot; in svc-mock" type="differs">/)
    expect(xml).toMatch(/<testcase classname="svc-mock verify.your routes" name="routes.pools.read: [^"]+">\n {6}<skipped message="its path has parameters/)
    await runVerify(['--target', drifted.url, ...TEAM_FLAGS, '--routes', ROUTES_FILE, '--report', join(dir, 'verify.json')])
    const json = JSON.parse(readFileSync(join(dir, 'verify.json'), 'utf8')) as { summary: object; probes: Array<{ id: string; outcome: string; differences?: unknown[] }> }
    expect(json.summary).toEqual({ same: 13, differ: 8, skipped: 1 })
    expect(json.probes.find((p) => p.id === 'who-am-i.cloud-team')).toMatchObject({ outcome: 'differs', differences: [{ at: 'header Deprecation', svcMock: '"true"', text: 'header Deprecation: only in svc-mock ("true")' }] })
  })
})
