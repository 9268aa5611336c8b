/**
 * What `--record` writes (issue 32, items 3 and 4), on every way in, against a node:http stand-in
 * for the team: the team's credentials never reach disk in clear (credential headers, and every
 * header, JSON member at any depth or query parameter whose name holds token, secret, password,
 * apikey, api_key, credential or session; body files included), nor the journal; file names are
 * `[a-z0-9._-]`, at most 120 characters, with a hash of the method and path, and whatever the
 * recorder writes, `--routes DIR` loads and replays (a HEAD and a GET of one path, long paths,
 * `//` paths, any status); a 401, 403 or 5xx never replaces a recording, any other answer does,
 * and says so in the log.
 */
import { gzipSync } from 'node:zlib'
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeEach, expect, it } from 'vitest'
import { type Emulator, createEmulator } from '../../src/index.js'
import { APP_KEY, type Harness, contract } from '../support/harness.js'
import { folderText, routeFile, routeFiles, startTeam } from '../support/upstream.js'

const SECRET_BODY = {
  apiKey: 'SECRET-B1',
  token: 'SECRET-B2',
  nested: { deeper: [{ Authorization: 'Bearer SECRET-B3', name: 'kept' }] },
  client_Secret: 'SECRET-B4',
  data: { sessionId: 'SECRET-B5', userPassword: 'SECRET-B6', myCredentials: ['SECRET-B7'], name: 'kept too' },
}
const LONG = 'a'.repeat(150)
const STATUSES = { created: 201, empty: 204, moved: 302, teapot: 418, odd: 599 }

const team = await startTeam((req, res) => {
  const url = new URL(`http://team.invalid${req.url ?? '/'}`)
  const path = url.pathname
  const status = Number(url.searchParams.get('answer') ?? '200')
  const headers: Record<string, string> = { 'content-type': 'application/json', 'x-method': req.method ?? '' }
  if (path === '/secrets/inline') {
    Object.assign(headers, {
      'x-api-key': 'SECRET-H1',
      'x-auth-token': 'SECRET-H2',
      'x-session-id': 'SECRET-H3',
      location: '/next?token=SECRET-H4&page=2',
      authorization: 'Bearer SECRET-H5',
      'proxy-authorization': 'Basic SECRET-H6',
      'x-echo': req.headers.authorization ?? '',
    })
    res.writeHead(200, headers)
    res.end(JSON.stringify({ ...SECRET_BODY, echo: req.headers.authorization }))
    return
  }
  if (path === '/secrets/file') {
    res.writeHead(200, headers)
    res.end(JSON.stringify({ access_token: 'SECRET-F1', rows: Array.from({ length: 3000 }, (_, i) => ({ i, refreshToken: `SECRET-F2-${i}`, name: 'row' })) }))
    return
  }
  if (path === '/secrets/form') {
    res.writeHead(200, { 'content-type': 'application/x-www-form-urlencoded' })
    res.end('access_token=SECRET-U1&expires_in=3600&Session=SECRET-U2')
    return
  }
  if (path === '/secrets/gzip') {
    res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' })
    res.end(gzipSync(JSON.stringify({ password: 'SECRET-Z1', name: 'zipped' })))
    return
  }
  if (status === 302) headers.location = '/elsewhere'
  res.writeHead(status, headers)
  res.end(status === 204 || status === 304 || req.method === 'HEAD' ? undefined : JSON.stringify({ path, v: url.searchParams.get('v') }))
})
const RECORDED = mkdtempSync(join(tmpdir(), 'svc-mock-recorder-'))
const logs: string[] = []
const logger = { format: 'pretty' as const, request: () => undefined, info: (m: string) => void logs.push(m), warn: (m: string) => void logs.push(m), error: (m: string) => void logs.push(m) }
const REAL = { authorization: 'Bearer CALLER-TOKEN-1' }

afterAll(async () => {
  await team.close()
  rmSync(RECORDED, { recursive: true, force: true })
})

async function replayed(run: (offline: Emulator) => Promise<void>): Promise<void> {
  const offline = await createEmulator({ routes: RECORDED })
  try {
    await run(offline)
  } finally {
    await offline.close()
  }
}

const replay = (offline: Emulator, path: string, init: RequestInit = {}): Promise<Response> => offline.handle(new Request(`https://acme.svc-mock.test${path}`, { ...init, headers: APP_KEY }))

contract(
  'recorder',
  (h: Harness) => {
    beforeEach(async () => {
      await h.emu.userRoutes.recorded()
      for (const file of readdirSync(RECORDED)) rmSync(join(RECORDED, file))
      logs.length = 0
    })

    it('writes the team\'s credential headers, and every header, JSON member at any depth and query parameter named like a secret, as [redacted], body files included; the journal shows the same', async () => {
      const caller = { ...REAL, 'x-auth-token': 'CALLER-TOKEN-2', 'x-session-id': 'CALLER-TOKEN-3' }
      const inline = await h.fetch('/secrets/inline?api_key=SECRET-Q1&Session=SECRET-Q2&page=1', { headers: caller, redirect: 'manual' })
      expect(((await inline.json()) as { token: string }).token).toBe('SECRET-B2')
      for (const path of ['/secrets/file', '/secrets/form', '/secrets/gzip']) await (await h.fetch(path, { headers: REAL })).arrayBuffer()
      await h.emu.userRoutes.recorded()
      const files = folderText(RECORDED)
      expect(files.length).toBeGreaterThanOrEqual(5)
      for (const [name, text] of files) expect(`${name}: ${text}`).not.toMatch(/SECRET-|CALLER-TOKEN/)
      const journal = JSON.stringify(h.emu.journal.list({ route: 'proxied' }))
      expect(journal).not.toMatch(/SECRET-|CALLER-TOKEN/)
      const entry = h.emu.journal.list({ route: 'proxied' }).find((e) => e.path.startsWith('/secrets/inline'))
      expect(entry?.response.headers).toMatchObject({ 'x-api-key': '[redacted]', 'x-auth-token': '[redacted]', 'x-session-id': '[redacted]', authorization: 'Bearer [redacted]' })
      expect(entry?.request.headers).toMatchObject({ 'x-auth-token': '[redacted]', 'x-session-id': '[redacted]' })

      const recorded = routeFile(RECORDED, 'GET', '/secrets/inline')?.routes[0]?.response
      expect(recorded?.headers).toMatchObject({ 'x-api-key': '[redacted]', 'x-auth-token': '[redacted]', 'x-session-id': '[redacted]', location: '/next?token=%5Bredacted%5D&page=2' })
      expect(recorded?.body).toMatchObject({ apiKey: '[redacted]', token: '[redacted]', nested: { deeper: [{ Authorization: '[redacted]', name: 'kept' }] }, client_Secret: '[redacted]' })
      expect(recorded?.body).toMatchObject({ data: { sessionId: '[redacted]', userPassword: '[redacted]', myCredentials: '[redacted]', name: 'kept too' } })
      await replayed(async (offline) => {
        const answer = await replay(offline, '/secrets/inline')
        expect(answer.headers.get('x-api-key')).toBe('[redacted]')
        expect(await answer.json()).toMatchObject({ data: { name: 'kept too' } })
        expect(((await (await replay(offline, '/secrets/file')).json()) as { rows: unknown[] }).rows[2]).toEqual({ i: 2, refreshToken: '[redacted]', name: 'row' })
        expect(await (await replay(offline, '/secrets/form')).text()).toBe('access_token=%5Bredacted%5D&expires_in=3600&Session=%5Bredacted%5D')
        expect(await (await replay(offline, '/secrets/gzip')).json()).toEqual({ password: '[redacted]', name: 'zipped' })
      })
    })

    it('names files [a-z0-9._-], at most 120 characters, with a hash of the method and path; a HEAD and a GET, long and // paths and any status replay as recorded', async () => {
      const start = (await h.emu.userRoutes.recorded()).length
      const paths = ['/p/q', '/p.q', '/pools/count', '/pools/3fa85f64-5717-4562-b3fc-2c963f66afa6', `/long/${LONG}/x`, `/long/${LONG}/y`, '//double/x', ...Object.entries(STATUSES).map(([name, status]) => `/status/${name}?answer=${status}`), '/h/doc']
      for (const path of paths) await (await h.fetch(`${h.origin}${path}`, { headers: REAL, redirect: 'manual' })).arrayBuffer()
      await h.fetch('/h/doc', { method: 'HEAD', headers: REAL })
      const recordings = (await h.emu.userRoutes.recorded()).slice(start)
      expect(recordings.filter((r) => r.outcome !== 'written')).toEqual([])
      expect(recordings).toHaveLength(paths.length + 1)
      const names = readdirSync(RECORDED)
      for (const name of names) expect(name).toMatch(/^[a-z0-9._-]{1,120}$/)
      const files = routeFiles(RECORDED)
      expect(files).toHaveLength(paths.length + 1)
      expect(new Set(files.map((f) => f.routes[0]?.id)).size).toBe(files.length)
      await replayed(async (offline) => {
        expect(await (await replay(offline, '/p/q')).json()).toEqual({ path: '/p/q', v: null })
        expect(await (await replay(offline, '/p.q')).json()).toEqual({ path: '/p.q', v: null })
        expect(await (await replay(offline, '/pools/count')).json()).toEqual({ path: '/pools/count', v: null })
        expect(await (await replay(offline, '/pools/any-other-pool-42')).json()).toMatchObject({ v: null })
        expect(await (await replay(offline, `/long/${LONG}/y`)).json()).toEqual({ path: `/long/${LONG}/y`, v: null })
        expect(await (await replay(offline, '//double/x')).json()).toEqual({ path: '//double/x', v: null })
        for (const [name, status] of Object.entries(STATUSES)) expect((await replay(offline, `/status/${name}`)).status).toBe(status)
        expect((await replay(offline, '/h/doc', { method: 'HEAD' })).headers.get('x-method')).toBe('HEAD')
        expect((await replay(offline, '/h/doc')).headers.get('x-method')).toBe('GET')
      })
    })

    it('never replaces a recording with a 401 or 403 to a call without a valid credential, nor with a 5xx; the newest other answer replaces it, and each replacement is logged', async () => {
      const call = async (query: string, headers: Record<string, string> = REAL): Promise<void> => void (await (await h.fetch(`/replace/doc?${query}`, { headers })).arrayBuffer())
      await call('answer=401&v=0', {})
      await call('answer=200&v=1')
      await call('answer=401&v=2', {})
      await call('answer=403&v=3')
      await call('answer=503&v=4')
      await call('answer=404&v=5')
      const outcomes = (await h.emu.userRoutes.recorded()).filter((r) => r.path === '/replace/doc').map((r) => `${r.status} ${r.outcome}`)
      expect(outcomes.slice(-6)).toEqual(['401 written', '200 replaced', '401 kept', '403 kept', '503 kept', '404 replaced'])
      expect(logs.filter((line) => /replaced/.test(line))).toHaveLength(2)
      expect(logs.filter((line) => /kept/.test(line))).toHaveLength(3)
      await call('answer=200&v=6')
      await h.emu.userRoutes.recorded()
      expect(routeFile(RECORDED, 'GET', '/replace/doc')?.routes[0]?.response).toMatchObject({ status: 200, body: { v: '6' } })
      await replayed(async (offline) => {
        expect((await replay(offline, '/replace/doc')).status).toBe(200)
        expect((await offline.handle(new Request('https://acme.svc-mock.test/replace/doc'))).status).toBe(401)
      })
    })
  },
  { clock: 'manual', proxy: team.url, record: RECORDED, log: logger },
)
