/**
 * Recording from a real team (issue 26, part 4), against a plain node:http server standing in for
 * the team: `proxy` forwards every request no route serves (method, path, query, headers, the
 * caller's credential and the body, streamed both ways; never a request for a path svc-mock
 * emulates) and journals it as `proxied`; an upstream that is down is a 502 with a clear body, a
 * slow one a 504 after a bounded wait on the emulator clock (not the webhooks' 40 s rule), a 5 MB
 * answer arrives whole. `record` writes each exchange as a route file (id segments as parameters,
 * the newest answer per method and template winning, secrets redacted), which `routes` then
 * answers offline.
 */
import { createHash } from 'node:crypto'
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http'
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeEach, describe, expect, it } from 'vitest'
import { createEmulator } from '../../src/index.js'
import { APP_KEY, contract } from '../support/harness.js'

const FIVE_MB = Buffer.alloc(5 * 1024 * 1024, 'svc-mock ')
const sha = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex')

/** What the stand-in team saw. */
const seen: Array<{ method: string; url: string; headers: IncomingMessage['headers']; bytes: number; sha: string }> = []
const hanging = new Set<ServerResponse>()
let counter = 0

function team(req: IncomingMessage, res: ServerResponse): void {
  const chunks: Buffer[] = []
  req.on('data', (chunk: Buffer) => chunks.push(chunk))
  req.on('end', () => {
    const body = Buffer.concat(chunks)
    seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, bytes: body.length, sha: sha(body) })
    const path = req.url ?? ''
    if (path.startsWith('/slow')) {
      hanging.add(res)
      res.on('close', () => hanging.delete(res))
      return
    }
    if (path.startsWith('/big')) {
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(FIVE_MB.length) })
      res.end(FIVE_MB)
      return
    }
    counter += 1
    res.writeHead(path.includes('missing') ? 404 : 200, {
      'content-type': 'application/json; charset=utf-8',
      'set-cookie': 'session=team-secret; HttpOnly',
      'x-team': 'acme',
    })
    res.end(JSON.stringify({ method: req.method, path, authorization: req.headers.authorization ?? null, body: body.toString('utf8'), answer: counter, access_token: 'team-token' }))
  })
}

const upstream: Server = createServer(team)
await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', () => resolve()))
const UPSTREAM = `http://127.0.0.1:${(upstream.address() as { port: number }).port}`
const RECORDED = mkdtempSync(join(tmpdir(), 'svc-mock-recorded-'))
const TIMEOUT_MS = 5000

afterAll(async () => {
  for (const res of hanging) res.destroy()
  // The proxy's keep-alive connections would hold close() until they time out.
  upstream.closeAllConnections()
  await new Promise<void>((resolve) => upstream.close(() => resolve()))
  rmSync(RECORDED, { recursive: true, force: true })
})

contract(
  'proxy to your team',
  (h) => {
    beforeEach(() => {
      seen.length = 0
    })

    it('forwards a request no route serves, credential and body included, and answers what the team answered', async () => {
      const response = await h.fetch('/integration/api/pools/3fa85f64-5717-4562-b3fc-2c963f66afa6/tables?limit=5', {
        method: 'POST',
        headers: { authorization: 'Bearer the-real-teams-token', 'content-type': 'text/plain', 'x-custom': 'kept', 'x-svc-mock-scenario': 'latency:ms=0' },
        body: 'rows',
      })
      expect(response.status).toBe(200)
      expect(response.headers.get('x-team')).toBe('acme')
      const body = (await response.json()) as Record<string, unknown>
      expect(body).toMatchObject({ method: 'POST', path: '/integration/api/pools/3fa85f64-5717-4562-b3fc-2c963f66afa6/tables?limit=5', authorization: 'Bearer the-real-teams-token', body: 'rows' })
      const [request] = seen
      expect(request?.headers['x-custom']).toBe('kept')
      expect(request?.headers['x-svc-mock-scenario']).toBeUndefined()
      expect(request?.headers.host).toBe(new URL(UPSTREAM).host)
    })

    it('journals the exchange as proxied, the credential redacted', async () => {
      await h.fetch('/package-manager/api/spaces', { headers: { authorization: 'Bearer the-real-teams-token' } })
      const [entry] = h.emu.journal.list({ route: 'proxied' })
      expect(entry).toMatchObject({ route: 'proxied', method: 'GET', path: '/package-manager/api/spaces', status: 200 })
      expect(entry?.request.headers.authorization).toBe('Bearer [redacted]')
      expect(JSON.stringify(h.emu.journal.list())).not.toContain('the-real-teams-token')
      expect((await h.control<unknown[]>('GET', '/journal?route=proxied')).body).toHaveLength(1)
    })

    it('never forwards a request for a path svc-mock emulates: its routes, a wrong method, the control plane, your routes', async () => {
      expect((await h.fetch('/api/cloud/team')).status).toBe(401)
      expect((await h.fetch('/oauth2/token', { method: 'DELETE' })).status).toBe(405)
      expect((await h.fetch('/__svc-mock/nothing')).status).toBe(404)
      expect(await (await h.fetch('/mine/ping')).text()).toBe('pong')
      expect(seen).toEqual([])
    })

    it('streams a 5 MB answer back whole, and a 2 MB upload up whole', async () => {
      const big = new Uint8Array(await (await h.fetch('/big/export')).arrayBuffer())
      expect(big.byteLength).toBe(FIVE_MB.length)
      expect(sha(big)).toBe(sha(FIVE_MB))
      const upload = Buffer.alloc(2 * 1024 * 1024, 7)
      const uploaded = await h.fetch('/integration/api/upload', { method: 'PUT', body: upload })
      expect(uploaded.status).toBe(200)
      await uploaded.text()
      expect(seen.at(-1)).toMatchObject({ method: 'PUT', bytes: upload.length, sha: sha(upload) })
    })

    it('answers 504 when the team does not begin to answer within the bounded wait, on the emulator clock', async () => {
      let status: number | undefined
      let text = ''
      const pending = h.fetch('/slow/report').then(async (r) => {
        status = r.status
        text = await r.text()
      })
      await h.emu.clock.waitForParked(1)
      await h.emu.clock.advance(TIMEOUT_MS - 1)
      expect(status).toBeUndefined()
      await h.emu.clock.advance(1)
      await pending
      expect(status).toBe(504)
      expect(JSON.parse(text)).toEqual({ error: 'Gateway Timeout', upstream: UPSTREAM, message: expect.stringContaining(`did not begin to answer GET /slow/report within ${TIMEOUT_MS} ms`) })
      expect(h.emu.journal.list({ route: 'proxied' }).at(-1)?.status).toBe(504)
    })

    it('records each exchange as a route file (id segments as parameters, newest answer winning, secrets left out), which routes then answers offline', async () => {
      await h.emu.userRoutes.recorded()
      for (const file of readdirSync(RECORDED)) rmSync(join(RECORDED, file))
      const pool = (id: string): Promise<Response> => h.fetch(`/integration/api/pools/${id}`, { headers: { authorization: 'Bearer the-real-teams-token' } })
      await (await pool('3fa85f64-5717-4562-b3fc-2c963f66afa6')).text()
      const newest = (await (await pool('9b1deb4d-3b7d-4bad-9bdd-2b0d7b3dcb6d')).json()) as { answer: number }
      await (await h.fetch('/big/export')).arrayBuffer()
      await (await h.fetch('/public/status')).text()
      await h.emu.userRoutes.recorded()
      const names = readdirSync(RECORDED).sort()
      expect(names).toHaveLength(4)
      expect(names).toEqual([
        expect.stringMatching(/^get\.0\.big\.export\.[0-9a-f]{10}\.body$/),
        expect.stringMatching(/^get\.0\.big\.export\.[0-9a-f]{10}\.json$/),
        expect.stringMatching(/^get\.0\.public\.status\.[0-9a-f]{10}\.json$/),
        expect.stringMatching(/^get\.1\.integration\.api\.pools\.by-poolid\.[0-9a-f]{10}\.json$/),
      ])
      const poolFile = names[3] ?? ''
      const file = readFileSync(join(RECORDED, poolFile), 'utf8')
      expect(file).not.toContain('the-real-teams-token')
      expect(file).not.toContain('team-secret')
      expect(file).not.toContain('team-token')
      const recorded = JSON.parse(file) as { routes: Array<{ id: string; path: string; auth?: unknown; response: { headers: Record<string, string> } }> }
      expect(recorded.routes[0]).toMatchObject({ id: poolFile.replace(/\.json$/, ''), path: '/integration/api/pools/{poolId}' })
      expect(recorded.routes[0]?.auth).toBeUndefined()
      expect(Object.keys(recorded.routes[0]?.response.headers ?? {})).toEqual(['content-type', 'x-team'])
      expect(JSON.parse(readFileSync(join(RECORDED, names[2] ?? ''), 'utf8')).routes[0].auth).toBe('none')

      const offline = await createEmulator({ routes: RECORDED })
      try {
        const replayed = await offline.handle(new Request('https://acme.svc-mock.test/integration/api/pools/any-other-id-1234', { headers: APP_KEY }))
        expect(replayed.status).toBe(200)
        expect(replayed.headers.get('x-team')).toBe('acme')
        expect(replayed.headers.get('set-cookie')).toBeNull()
        expect(await replayed.json()).toMatchObject({ answer: newest.answer, access_token: '[redacted]' })
        expect((await offline.handle(new Request('https://acme.svc-mock.test/integration/api/pools/x'))).status).toBe(401)
        const big = new Uint8Array(await (await offline.handle(new Request('https://acme.svc-mock.test/big/export'))).arrayBuffer())
        expect(sha(big)).toBe(sha(FIVE_MB))
      } finally {
        await offline.close()
      }
    })
  },
  {
    clock: 'manual',
    proxy: UPSTREAM,
    record: RECORDED,
    proxyTimeoutMs: TIMEOUT_MS,
    routes: { routes: [{ id: 'mine.ping', method: 'GET', path: '/mine/ping', auth: 'none', response: { body: 'pong' } }] },
  },
)

// A port nothing listens on: a server that was there and is gone.
const gone = createServer()
await new Promise<void>((resolve) => gone.listen(0, '127.0.0.1', () => resolve()))
const DOWN = `http://127.0.0.1:${(gone.address() as { port: number }).port}`
await new Promise<void>((resolve) => gone.close(() => resolve()))

contract(
  'proxy to a team that is down',
  (h) => {
    it('answers 502 with a clear body, journals it, and keeps serving', async () => {
      const response = await h.fetch('/integration/api/pools', { headers: { authorization: 'Bearer t' } })
      expect(response.status).toBe(502)
      expect(await response.json()).toEqual({
        error: 'Bad Gateway',
        upstream: DOWN,
        message: `svc-mock could not get an answer from ${DOWN} for GET /integration/api/pools: the connection was refused (is it running, and is the URL right?).`,
      })
      expect(h.emu.journal.list({ route: 'proxied' }).map((e) => e.status)).toEqual([502])
      expect((await h.fetch('/api/cloud/team', { headers: APP_KEY })).status).toBe(200)
    })
  },
  { proxy: DOWN },
)

describe('proxy options', () => {
  it('refuses a proxy URL that is not http(s), and record without a proxy, naming the option', async () => {
    await expect(createEmulator({ proxy: 'ftp://team.example' })).rejects.toThrow(/Invalid option proxy: must use http or https/)
    await expect(createEmulator({ proxy: 'team.example' })).rejects.toThrow(/Invalid option proxy: must be an absolute URL/)
    await expect(createEmulator({ record: RECORDED })).rejects.toThrow(/Invalid option record: records what the proxy forwards/)
  })
})
