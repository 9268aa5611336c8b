/**
 * `svc-mock verify` given what it cannot use: bad flags (exit 2, the closest flag named, no secret
 * echoed), probes the team's answers show are wrong (one message saying what to fix, not a list of
 * differences), and a team that is not a URL, refuses TLS, never answers, redirects to a sign-in
 * page or answers HTML: each a clear line, never a crash or a hang; saved answers or route files it
 * cannot read: exit 2 naming the file and member.
 */
import { mkdtempSync, writeFileSync } from 'node:fs'
import { createServer as createHttpServer, type Server } from 'node:http'
import { type Socket, createServer as createNetServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type RunningServer, startServer } from '../../src/adapters/server.js'
import { ELEMENT_PATH, TEAM, TEAM_FLAGS, routeFile, runVerify, teamFixtures } from '../support/verify.js'

let team: RunningServer
beforeAll(async () => {
  team = await startServer({ port: 0, log: 'silent', fixtures: [teamFixtures()] })
})
afterAll(async () => {
  await team.close()
})

async function listen(server: Server | ReturnType<typeof createNetServer>): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  return `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`
}

describe('svc-mock verify: flags', () => {
  it('exits 2 for an unknown flag, naming the closest one', async () => {
    const run = await runVerify(['--targt', team.url])
    expect(run).toMatchObject({ code: 2, out: '' })
    expect(run.err).toContain('svc-mock verify: unknown flag --targt (did you mean --target?)')
  })

  it('exits 2 for a target that is not a URL, a missing credential, an api key without its kind, a bad element', async () => {
    const cases: Array<[string[], string]> = [
      [['--target', 'acme.celonis.cloud', '--api-key', 'k', '--key-kind', 'app'], '--target must be an absolute URL such as https://acme.eu-1.celonis.cloud, got "acme.celonis.cloud"'],
      [['--target', team.url], "verify needs the team's credentials"],
      [['--target', team.url, '--api-key', TEAM.appKey], '--api-key needs --key-kind user (a user API key, sent as Bearer) or app'],
      [['--target', team.url, '--client-id', 'x', '--client-secret', 'y', '--element', 'a/b/c'], '--element must be collection/storage/facet/view/element (five parts), got "a/b/c"'],
      [['--target', team.url, '--client-id', 'x', '--client-secret', 'y', '--report', 'out.txt'], '--report must name a .json or a .xml (JUnit) file'],
      [['--against', '/tmp', '--target', team.url], '--against compares svc-mock with saved answers, offline: it takes no --target'],
    ]
    for (const [args, message] of cases) {
      const run = await runVerify(args)
      expect(run.code, args.join(' ')).toBe(2)
      expect(run.err, args.join(' ')).toContain(message)
    }
  })

  it('never echoes a secret, not even in a complaint about the flag it was given with', async () => {
    const run = await runVerify(['--target', team.url, `--client-secrt=${TEAM.clientSecret}`])
    expect(run.code).toBe(2)
    expect(run.err).toContain('unknown flag --client-secrt (did you mean --client-secret?)')
    expect(run.err).not.toContain(TEAM.clientSecret)
    const inUrl = await runVerify(['--target', `http://${TEAM.clientId}:${TEAM.clientSecret}@127.0.0.1:1`, '--api-key', 'k', '--key-kind', 'app'])
    expect(inUrl.err).toContain('--target must not hold a user name or password')
    expect(inUrl.err).not.toContain(TEAM.clientSecret)
  })

  it('takes every input from its environment variable, the secrets included', async () => {
    const run = await runVerify([], {
      SVC_MOCK_VERIFY_TARGET: team.url,
      SVC_MOCK_VERIFY_CLIENT_ID: TEAM.clientId,
      SVC_MOCK_VERIFY_CLIENT_SECRET: TEAM.clientSecret,
      SVC_MOCK_VERIFY_API_KEY: TEAM.appKey,
      SVC_MOCK_VERIFY_KEY_KIND: 'app',
      SVC_MOCK_VERIFY_ELEMENT: ELEMENT_PATH,
      SVC_MOCK_VERIFY_WEBHOOK: `${team.url}/hooks/orders`,
      SVC_MOCK_VERIFY_ALLOW_WRITES: 'true',
    })
    expect(run.out).toContain('verify: 17 same, 0 differ, 0 skipped\n')
    expect(run.code).toBe(0)
  })
})

describe('svc-mock verify: a probe the answer shows is wrong', () => {
  it('stops with one message when the team has no element at --element (404)', async () => {
    const run = await runVerify(['--target', team.url, ...TEAM_FLAGS.slice(0, 8), '--element', 'acme-collection/acme-tenant/processes/default/00000000-0000-4000-8000-00000000beef'])
    expect(run.code).toBe(2)
    expect(run.out).not.toMatch(/^differs/m)
    expect(run.err).toBe(
      'svc-mock verify: stopped, nothing compared: versions.list: the target has no element 00000000-0000-4000-8000-00000000beef in facet processes, view default of storage acme-collection/acme-tenant (404): check --element collection/storage/facet/view/element\n',
    )
  })

  it('stops with one message when the key is refused everywhere (an application key sent as a user key)', async () => {
    const run = await runVerify(['--target', team.url, '--api-key', TEAM.appKey, '--key-kind', 'user', '--element', ELEMENT_PATH])
    expect(run.code).toBe(2)
    expect(run.err).toMatch(/stopped, nothing compared: the team accepted the key on no probe and answered 401 to 8: check --api-key, and --key-kind: a user API key is sent as "Bearer", an application key \(--key-kind app\) as "AppKey"/)
  })

  it('stops with one message when the client secret is refused, and when the webhook accepts the empty payload', async () => {
    const wrong = await runVerify(['--target', team.url, '--client-id', TEAM.clientId, '--client-secret', 'not-the-secret'])
    expect(wrong.err).toMatch(/token\.valid: the target refused --client-id\/--client-secret \(401 on a client credentials grant\)/)
    const accepting = await runVerify(['--target', team.url, '--api-key', TEAM.appKey, '--key-kind', 'app', '--webhook', '/hooks/uploads', '--allow-writes'])
    expect(accepting.err).toMatch(/webhook\.refused-payload: the webhook of --webhook accepted an empty payload \(its flow ran\)/)
    expect([wrong.code, accepting.code]).toEqual([2, 2])
  })

  it('does not send the webhook call without --allow-writes', async () => {
    const before = (await (await fetch(`${team.url}/__svc-mock/journal?route=webhooks.call`)).json()) as unknown[]
    const run = await runVerify(['--target', team.url, '--api-key', TEAM.appKey, '--key-kind', 'app', '--webhook', '/hooks/orders'])
    expect(run.out).toMatch(/^skipped +webhook\.refused-payload +needs --allow-writes/m)
    expect(await (await fetch(`${team.url}/__svc-mock/journal?route=webhooks.call`)).json()).toEqual(before)
  })
})

describe('svc-mock verify: a team it cannot probe', () => {
  it('says to trust the CA (NODE_EXTRA_CA_CERTS or --ca) when the TLS certificate is not trusted, and verifies with --ca', async () => {
    const https = await startServer({ port: 0, log: 'silent', https: true, fixtures: [teamFixtures()] })
    try {
      const refused = await runVerify(['--target', https.url, '--api-key', TEAM.appKey, '--key-kind', 'app'])
      expect(refused.code).toBe(2)
      expect(refused.err).toMatch(/stopped, nothing compared: the team's TLS certificate at 127\.0\.0\.1:\d+ is not trusted here \([A-Z_]+\): point NODE_EXTRA_CA_CERTS at the CA that signed it, or give --ca FILE/)
      const trusted = await runVerify(['--target', https.url, '--api-key', TEAM.appKey, '--key-kind', 'app', '--ca', https.caFile ?? ''])
      expect(trusted.out).toContain('verify: 7 same, 0 differ, 10 skipped')
    } finally {
      await https.close()
    }
  })

  it('skips a probe the team does not answer within --timeout, and sends no more after three in a row', async () => {
    const sockets = new Set<Socket>()
    const silent = createNetServer((socket) => void sockets.add(socket))
    const url = await listen(silent)
    try {
      const run = await runVerify(['--target', url, '--client-id', 'x', '--client-secret', 'y', '--timeout', '100'])
      expect(run.out).toMatch(/^skipped +token\.valid +timed out after 100 ms$/m)
      expect(run.out).toMatch(/^skipped +token\.unknown-grant +timed out after 100 ms$/m)
      expect(run.out).toMatch(/^skipped +discovery\.jwks +not sent: the team did not answer the last 3 probes in time$/m)
      expect(run.out).toContain('verify: 0 same, 0 differ, 17 skipped')
      expect(run.err).toContain('nothing was compared')
      expect(run.code).toBe(2)
    } finally {
      for (const socket of sockets) socket.destroy()
      silent.close()
    }
  })

  it('says so in one line when nothing listens, when every probe is redirected to a sign-in page, and when every answer is an HTML page', async () => {
    const closed = createHttpServer()
    const nobody = await listen(closed)
    closed.close()
    const refused = await runVerify(['--target', nobody, '--api-key', 'k', '--key-kind', 'app'])
    expect(refused.err).toMatch(/stopped, nothing compared: nothing answers at 127\.0\.0\.1:\d+ \(connection refused\): check --target\n$/)
    const login = createHttpServer((_, res) => res.writeHead(302, { location: '/login?return=%2Fapi' }).end())
    const page = createHttpServer((_, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html><title>Sign in</title></html>'))
    try {
      const redirected = await runVerify(['--target', await listen(login), '--api-key', 'k', '--key-kind', 'app'])
      expect(redirected.err).toMatch(/stopped, nothing compared: the team redirected every probe \(to \/login\), as a sign-in page does: --target must be the team's API address/)
      const html = await runVerify(['--target', await listen(page), '--api-key', 'k', '--key-kind', 'app'])
      expect(html.err).toMatch(/stopped, nothing compared: the team answered an HTML page to every probe/)
      expect([refused.code, redirected.code, html.code]).toEqual([2, 2, 2])
    } finally {
      login.close()
      page.close()
    }
  })

  it('reports one route answered with an HTML page where svc-mock answers JSON as one clear difference', async () => {
    const mine = routeFile({ routes: [{ id: 'spaces', method: 'GET', path: '/package-manager/api/spaces', response: { body: [] } }] })
    const theirs = routeFile({ routes: [{ id: 'spaces', method: 'GET', path: '/package-manager/api/spaces', response: { headers: { 'content-type': 'text/html' }, body: '<!doctype html><title>Sign in</title>' } }] })
    const drifted = await startServer({ port: 0, log: 'silent', fixtures: [teamFixtures()], routes: [theirs] })
    try {
      const run = await runVerify(['--target', drifted.url, '--api-key', TEAM.appKey, '--key-kind', 'app', '--routes', mine])
      expect(run.out).toMatch(/^differs +routes\.spaces +body: an HTML page "Sign in" on the target, JSON in svc-mock$/m)
      expect(run.code).toBe(1)
    } finally {
      await drifted.close()
    }
  })
})

describe('svc-mock verify: files it cannot use', () => {
  it('exits 2 naming the file and the member for saved answers it cannot read, and for a bad route file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-mock-verify-saved-'))
    expect((await runVerify(['--against', dir])).err).toContain(`--against ${dir}: no verify-run.json there (svc-mock verify --save DIR writes it)`)
    writeFileSync(join(dir, 'verify-run.json'), JSON.stringify({ svcMockVerify: 1, version: '0.1.0', apiCredential: 'token', split: { auth: false, webhook: false }, answers: { 'token.valid': 'token.valid.json' } }))
    writeFileSync(join(dir, 'token.valid.json'), JSON.stringify({ probe: 'token.valid', request: 'POST {auth_url}/oauth2/token', answer: { status: '200', contentType: '', headers: {}, body: { kind: 'empty' } } }))
    const malformed = await runVerify(['--against', dir])
    expect(malformed.code).toBe(2)
    expect(malformed.err).toMatch(/token\.valid\.json: answer\.status: /)
    const routes = routeFile({ routes: [{ id: 'x', method: 'GET', path: '/x', respons: {} }] })
    const badRoutes = await runVerify(['--target', team.url, '--api-key', TEAM.appKey, '--key-kind', 'app', '--routes', routes])
    expect(badRoutes.code).toBe(2)
    expect(badRoutes.err).toContain('field respons: unknown field "respons" (did you mean "response"?)')
  })
})
