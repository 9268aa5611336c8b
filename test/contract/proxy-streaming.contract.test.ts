/**
 * `--proxy` and `--record` with a real team's credentials (issue 32, items 1 and 5), on every way
 * in, against node:http stand-ins on 127.0.0.1: the upstream URL is a prefix (a `//host/…` path
 * goes to the team as that path, and a second "foreign" listener receives nothing); the proxy
 * streams with `--record` too (the head and each chunk as they come, an answer that stops
 * mid-body aborts the client's body and records nothing, a body over 5 MB is recorded as its head
 * and a note); an upstream status HTTP does not have (999) is answered and recorded as 502.
 * Nothing here waits on the wall clock: the team's answers are written by the tests themselves,
 * and `emu.userRoutes.recorded()` says when the recordings are on disk.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeEach, expect, it } from 'vitest'
import { createEmulator } from '../../src/index.js'
import { type Harness, contract } from '../support/harness.js'
import { HeldAnswers, drain, readUntil, routeFile, routeFiles, startForeign, startRawStatus, startTeam } from '../support/upstream.js'

const SIX_MB = Buffer.alloc(6 * 1024 * 1024, 'svc-mock ')
const held = new HeldAnswers()
const foreign = await startForeign()
const FOREIGN = new URL(foreign.url).host
const team = await startTeam((req, res) => {
  const path = req.url ?? ''
  if (path.startsWith('/held/')) return held.park(path.slice('/held/'.length), res)
  if (path === '/huge') {
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(SIX_MB.length) })
    res.end(SIX_MB)
    return
  }
  res.writeHead(200, { 'content-type': 'application/json' })
  res.end(JSON.stringify({ path, authorization: req.headers.authorization ?? null }))
})
const RECORDED = mkdtempSync(join(tmpdir(), 'svc-mock-streaming-'))
const REAL = { authorization: 'Bearer the-real-teams-token' }

afterAll(async () => {
  await held.closeAll()
  await Promise.all([team.close(), foreign.close()])
  rmSync(RECORDED, { recursive: true, force: true })
})

function bodyReader(response: Response): ReadableStreamDefaultReader<Uint8Array> {
  if (response.body === null) throw new Error(`the answer (${response.status}) has no body`)
  return response.body.getReader()
}

contract(
  'proxy safety: the upstream URL is a prefix, and the proxy streams while it records',
  { tls: true },
  (h: Harness) => {
    beforeEach(async () => {
      await h.emu.userRoutes.recorded()
      for (const file of readdirSync(RECORDED)) rmSync(join(RECORDED, file))
      team.seen.length = 0
      foreign.seen.length = 0
    })

    it('sends a //host/… path to the team as that path, with the credential: the host it names receives nothing, and its page is never served', async () => {
      const stolen = await h.fetch(`${h.origin}//${FOREIGN}/steal?x=1`, { headers: REAL })
      expect(stolen.status).toBe(200)
      expect(stolen.headers.get('content-type')).toBe('application/json')
      expect(await stolen.json()).toEqual({ path: `//${FOREIGN}/steal?x=1`, authorization: REAL.authorization })
      // A client whose base URL ends in "/" sends "//" by accident.
      expect((await h.fetch(`${h.origin}//integration/api/pools`, { headers: REAL })).status).toBe(200)
      expect(foreign.seen).toEqual([])
      expect(team.seen.map((s) => s.url)).toEqual([`//${FOREIGN}/steal?x=1`, '//integration/api/pools'])
      expect(team.seen.every((s) => s.headers.host === new URL(team.url).host)).toBe(true)
      // The journal's HAR export names the address the client called, not the host in the path.
      expect(h.emu.journal.har({ route: 'proxied' }).log.entries.map((e) => e.request.url)[0]).toBe(`${h.origin}//${FOREIGN}/steal?x=1`)
    })

    it('gives the client the head and each chunk as they come, with --record, and records the whole stream once it ended', { timeout: 10_000 }, async () => {
      const tag = `sse-${h.kind}`
      const pending = h.fetch(`/held/${tag}`, { headers: REAL })
      const upstream = await held.take(tag)
      upstream.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
      upstream.flushHeaders()
      // The head arrives before the team sends any event.
      const response = await pending
      expect(response.status).toBe(200)
      expect(response.headers.get('content-type')).toBe('text/event-stream')
      const reader = bodyReader(response)
      upstream.write('data: one\n\n')
      // The first event arrives while the team holds the stream open, quiet.
      expect(await readUntil(reader, 'data: one\n\n')).toBe('data: one\n\n')
      upstream.end('data: two\n\n')
      expect(await drain(reader)).toBe('data: two\n\n')
      const [recording] = (await h.emu.userRoutes.recorded()).filter((r) => r.path === `/held/${tag}`)
      expect(recording).toMatchObject({ method: 'GET', status: 200, outcome: 'written' })
      const file = routeFile(RECORDED, 'GET', `/held/${tag}`)
      const bodyFile = file?.routes[0]?.response.bodyFile
      expect(bodyFile).toBeDefined()
      expect(readFileSync(join(RECORDED, bodyFile ?? ''), 'utf8')).toBe('data: one\n\ndata: two\n\n')
    })

    it('gives the client what came of an answer that stops mid-body, then an aborted body; nothing of it is recorded', { timeout: 10_000 }, async () => {
      const tag = `cut-${h.kind}`
      const pending = h.fetch(`/held/${tag}`, { headers: REAL })
      const upstream = await held.take(tag)
      upstream.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' })
      upstream.write('{"first":"part"')
      const response = await pending
      expect(response.status).toBe(200)
      const reader = bodyReader(response)
      expect(await readUntil(reader, '"part"')).toBe('{"first":"part"')
      upstream.destroy()
      await expect(drain(reader)).rejects.toThrow()
      const recordings = (await h.emu.userRoutes.recorded()).filter((r) => r.path === `/held/${tag}`)
      expect(recordings.map((r) => r.outcome)).toEqual(['not-recorded'])
      expect(routeFiles(RECORDED)).toEqual([])
      expect(readdirSync(RECORDED)).toEqual([])
    })

    it('records a body over 5 MB as its head and a note that the body was too large (the client gets it whole)', async () => {
      const body = new Uint8Array(await (await h.fetch('/huge', { headers: REAL })).arrayBuffer())
      expect(body.byteLength).toBe(SIX_MB.length)
      expect(Buffer.from(body).equals(SIX_MB)).toBe(true)
      const [recording] = (await h.emu.userRoutes.recorded()).filter((r) => r.path === '/huge')
      expect(recording?.outcome).toBe('written')
      const file = routeFile(RECORDED, 'GET', '/huge')
      expect(file?.routes[0]?.response).toEqual({ status: 200, headers: { 'content-type': 'application/octet-stream' } })
      expect(file?.$comment).toContain(`the body (${SIX_MB.length} bytes) was larger than 5 MB`)
      expect(readdirSync(RECORDED).filter((name) => !name.endsWith('.json'))).toEqual([])
    })
  },
  { clock: 'manual', proxy: team.url, record: RECORDED },
)

const raw = await startRawStatus(999, 'weird')
const RAW_RECORDED = mkdtempSync(join(tmpdir(), 'svc-mock-status-'))
afterAll(async () => {
  await raw.close()
  rmSync(RAW_RECORDED, { recursive: true, force: true })
})

contract(
  'proxy safety: an upstream status HTTP does not have',
  (h: Harness) => {
    it('answers and records an upstream status outside 100-599 as 502, with a note saying what came; the recording replays', async () => {
      const response = await h.fetch('/odd/status', { headers: REAL })
      expect(response.status).toBe(502)
      const body = (await response.json()) as { error: string; message: string }
      expect(body.error).toBe('Bad Gateway')
      expect(body.message).toContain('status 999')
      const [recording] = (await h.emu.userRoutes.recorded()).filter((r) => r.path === '/odd/status')
      expect(recording).toMatchObject({ status: 502 })
      const file = routeFile(RAW_RECORDED, 'GET', '/odd/status')
      expect(file?.routes[0]?.response.status).toBe(502)
      expect(file?.$comment).toContain('status 999')
      const offline = await createEmulator({ routes: RAW_RECORDED })
      try {
        const replayed = await offline.handle(new Request('https://acme.svc-mock.test/odd/status', { headers: { authorization: 'AppKey svcmock-app-key' } }))
        expect(replayed.status).toBe(502)
        expect(((await replayed.json()) as { message: string }).message).toContain('status 999')
      } finally {
        await offline.close()
      }
    })
  },
  { clock: 'manual', proxy: raw.url, record: RAW_RECORDED },
)
