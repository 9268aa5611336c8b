/**
 * Fuzz: `--proxy` and `--record` with a real team's credentials (issue 32), on every way in but
 * TLS. Each input is a few calls through the proxy to a node:http stand-in for the team, which
 * answers what the input says: random paths (`//`, `..`, `%2F`, `:x`, very long, unicode, one
 * naming a second "foreign" listener), random methods and statuses (a few HTTP does not have),
 * random headers, query parameters and JSON bodies with secret-looking names at any depth, in
 * the call and in the answer (JSON inline and in body files, mislabelled, urlencoded, gzipped),
 * and answers that echo the caller's credentials.
 *
 * Properties: no request ever reaches a host other than the team's, and the team gets each path
 * as it was sent; no value under a secret-looking name reaches disk in clear (every written file
 * is scanned), nor the journal's proxied entries; every recorded folder loads with the routes loader and replays
 * each recorded status.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import fc from 'fast-check'
import { afterAll, it } from 'vitest'
import { createEmulator } from '../../src/index.js'
import { OracleFailure, type Wire, describeWire, fresh, fuzz, runs, send, timeoutFor } from '../support/fuzz.js'
import { APP_KEY, contract } from '../support/harness.js'
import { folderText, routeFiles, startForeign, startTeam } from '../support/upstream.js'

/** Every secret the inputs hold has this mark, so a scan finds any that got through. */
const MARK = 'SEKRET'

interface Answer {
  status: number
  headers: Array<[string, string]>
  kind: 'json' | 'problem' | 'mislabelled' | 'form' | 'gzip'
  body: Record<string, unknown>
  large: boolean
  echo: boolean
}

const answers = new Map<string, Answer>()
const foreign = await startForeign()
const team = await startTeam((req, res) => {
  const answer = answers.get(String(req.headers['x-fuzz-answer']))
  if (answer === undefined) {
    res.writeHead(404).end()
    return
  }
  const echoed = Object.entries(req.headers).find(([name]) => SECRET_NAMES.some((word) => name.includes(word.toLowerCase())))?.[1]
  const body = { ...answer.body, ...(answer.echo ? { echo: String(echoed) } : {}), ...(answer.large ? { rows: Array.from({ length: 2000 }, (_, i) => ({ i, note: 'padding the answer past the inline limit' })) } : {}) }
  const headers: Array<[string, string]> = [...answer.headers, ...(answer.echo ? ([['x-echo', String(echoed)]] as Array<[string, string]>) : [])]
  const json = JSON.stringify(body)
  const text = answer.kind === 'form' ? formOf(answer.body) : json
  const type = { json: 'application/json', problem: 'application/problem+json', mislabelled: 'text/plain', form: 'application/x-www-form-urlencoded', gzip: 'application/json' }[answer.kind]
  headers.push(['content-type', type])
  if (answer.kind === 'gzip') headers.push(['content-encoding', 'gzip'])
  res.writeHead(answer.status, headers.flat())
  res.end(answer.kind === 'gzip' ? gzipSync(text) : text)
})
/** A form of the body's members: a secret-named one whatever it holds, a plain one only when it holds no secret (a form has no depth). */
function formOf(body: Record<string, unknown>): string {
  const pairs: string[] = []
  for (const [name, value] of Object.entries(body)) {
    const text = typeof value === 'string' ? value : JSON.stringify(value)
    if (SECRET_NAMES.some((word) => name.toLowerCase().includes(word)) || !text.includes(MARK)) pairs.push(`${encodeURIComponent(name)}=${encodeURIComponent(text)}`)
  }
  return pairs.join('&')
}

const RECORDED = mkdtempSync(join(tmpdir(), 'svc-mock-fuzz-recorded-'))

afterAll(async () => {
  await Promise.all([team.close(), foreign.close()])
  rmSync(RECORDED, { recursive: true, force: true })
})

// --- Inputs ----------------------------------------------------------------------------------------

const SECRET_NAMES = ['token', 'secret', 'password', 'apikey', 'api_key', 'credential', 'session']
const secretValue = fc.nat({ max: 1e6 }).map((n) => `${MARK}${n}x`)
const casing = (name: string, upper: number): string => (upper === 0 ? name : upper === 1 ? name.toUpperCase() : `${name.charAt(0).toUpperCase()}${name.slice(1)}`)
/** A name holding a secret-looking word, or a credential header's own name, in any case. */
const secretName = fc.oneof(
  fc.tuple(fc.constantFrom('', 'x-', 'my', 'user_', 'X-Refresh-', 'client'), fc.constantFrom(...SECRET_NAMES), fc.constantFrom('', 'Id', '_value', 's', '-Key'), fc.nat({ max: 2 })).map(([a, w, b, upper]) => casing(`${a}${w}${b}`, upper)),
  fc.tuple(fc.constantFrom('authorization', 'proxy-authorization', 'cookie', 'x-api-key', 'x-auth-token'), fc.nat({ max: 2 })).map(([name, upper]) => casing(name, upper)),
)
const plainName = fc.constantFrom('name', 'id', 'page', 'data', 'items', 'note', 'x-trace', 'kind')
const plainLeaf = fc.oneof(fc.integer(), fc.boolean(), fc.constant(null), fc.string({ maxLength: 8 }))

const { node: jsonNode } = fc.letrec<{ node: unknown }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    plainLeaf,
    fc.array(tie('node'), { maxLength: 3 }),
    fc.array(fc.oneof(fc.tuple(plainName, tie('node')), fc.tuple(secretName, fc.oneof(secretValue, tie('node')))), { maxLength: 4 }).map((entries) => Object.fromEntries(entries)),
  ),
}))
const secretBody = fc.array(fc.oneof(fc.tuple(plainName, jsonNode), fc.tuple(secretName, secretValue), fc.tuple(fc.constantFrom('deep', 'data'), jsonNode)), { minLength: 1, maxLength: 5 }).map((entries) => Object.fromEntries(entries) as Record<string, unknown>)

const headerPairs = (count: number): fc.Arbitrary<Array<[string, string]>> =>
  fc.array(fc.oneof(fc.tuple(secretName, secretValue), fc.tuple(plainName.map((n) => `x-${n}`), fc.string({ unit: fc.constantFrom('a', 'b', '1', ' ', '-'), maxLength: 8 }))), { maxLength: count })

const segment = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom('integration', 'api', 'pools', 'v1', 'count', '3fa85f64-5717-4562-b3fc-2c963f66afa6', '12345', 'job42abcd', '..', '.', '', '%2F', 'a%2Fb', '%2e%2e', ':x', 'é€', '日本', '{id}', '__svc-mock', 'p.q') },
  { weight: 1, arbitrary: fc.string({ unit: fc.constantFrom('a', 'b', '-', '_', '.', '1'), minLength: 200, maxLength: 900 }) },
  { weight: 1, arbitrary: fc.string({ maxLength: 6 }) },
)
const path = fc
  .tuple(fc.constantFrom('/', '//', '//FOREIGN/', '/x//', '/p/../'), fc.array(segment, { minLength: 1, maxLength: 5 }))
  .map(([start, parts]) => `${start}${parts.map((p) => (/^[\x21-\x7e]*$/.test(p) && !/[?#\\]/.test(p) ? p : encodeURIComponent(p))).join('/')}`)
const query = fc.array(fc.oneof(fc.tuple(secretName, secretValue), fc.tuple(plainName, fc.string({ unit: fc.constantFrom('a', '1', ' ', '&'), maxLength: 5 }))), { maxLength: 3 })

const proxiedCall = fc.record({
  method: fc.constantFrom('GET', 'GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'),
  path,
  query,
  caller: headerPairs(3),
  requestBody: secretBody,
  answer: fc.record({
    status: fc.oneof({ weight: 8, arbitrary: fc.integer({ min: 200, max: 599 }) }, { weight: 1, arbitrary: fc.constantFrom(401, 403, 500, 503) }, { weight: 1, arbitrary: fc.constantFrom(600, 700, 999) }),
    headers: headerPairs(4),
    kind: fc.constantFrom('json', 'json', 'problem', 'mislabelled', 'form', 'gzip'),
    body: secretBody,
    large: fc.oneof({ weight: 5, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
    echo: fc.boolean(),
  }),
})
const calls = fc.array(proxiedCall, { minLength: 1, maxLength: 4 })
type ProxiedCall = typeof proxiedCall extends fc.Arbitrary<infer E> ? E : never

// --- The property ----------------------------------------------------------------------------------

let seq = 0

function wireOf(call: ProxiedCall, id: string): Wire {
  const q = call.query.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&')
  const hasBody = call.method === 'POST' || call.method === 'PUT' || call.method === 'PATCH'
  return {
    method: call.method,
    path: `${call.path.replace('FOREIGN', new URL(foreign.url).host)}${q === '' ? '' : `?${q}`}`,
    headers: [...call.caller, ['x-fuzz-answer', id], ...(hasBody ? ([['content-type', 'application/json']] as Array<[string, string]>) : [])],
    ...(hasBody ? { body: JSON.stringify(call.requestBody) } : {}),
  }
}

contract(
  'fuzz: proxy and recorder',
  (h) => {
    const n = runs(15)
    it(`keeps ${n} generated sequences of proxied calls on the team, their secrets off disk and out of the journal, and their recordings loadable`, { timeout: timeoutFor(n, 400) }, async () => {
      await fuzz(`proxy and recorder [${h.kind}]`, n, calls, async (input) => {
        await h.emu.userRoutes.recorded()
        await fresh(h)
        for (const file of readdirSync(RECORDED)) rmSync(join(RECORDED, file))
        foreign.seen.length = 0
        const seenBefore = team.seen.length
        const sent: string[] = []
        const wires: Wire[] = []
        for (const call of input) {
          const id = `${h.kind}-${++seq}`
          answers.set(id, call.answer)
          const wire = wireOf(call, id)
          wires.push(wire)
          const url = new URL(`${h.origin}${wire.path}`)
          sent.push(`${url.pathname}${url.search}`)
          const outcome = await send(h, wire)
          if (outcome.kind === 'hang') throw new OracleFailure(`HANG\n  request: ${describeWire(h, wire)}`, 'HANG')
        }
        await h.emu.userRoutes.recorded()
        const requests = wires.map((w) => describeWire(h, w)).join('\n  ')
        if (foreign.seen.length > 0) throw new OracleFailure(`A FOREIGN HOST GOT ${foreign.seen.map((s) => s.url).join(', ')}\n  requests: ${requests}`, 'FOREIGN HOST REACHED')
        for (const got of team.seen.slice(seenBefore)) {
          if (!sent.includes(got.url)) throw new OracleFailure(`THE TEAM GOT ${got.url}, WHICH WAS NOT SENT (${sent.join(', ')})\n  requests: ${requests}`, 'PATH CHANGED')
        }
        for (const [name, text] of folderText(RECORDED)) {
          if (text.includes(MARK)) throw new OracleFailure(`A SECRET REACHED DISK in ${name}: ${text.slice(Math.max(0, text.indexOf(MARK) - 200), text.indexOf(MARK) + 40)}\n  requests: ${requests}`, 'SECRET ON DISK')
        }
        // What svc-mock answered itself (a path under /__svc-mock/) is shown through the journal's own rule.
        const journal = JSON.stringify(h.emu.journal.list({ route: 'proxied' }))
        if (journal.includes(MARK)) throw new OracleFailure(`A SECRET IS IN THE JOURNAL: ${journal.slice(Math.max(0, journal.indexOf(MARK) - 200), journal.indexOf(MARK) + 40)}\n  requests: ${requests}`, 'SECRET IN THE JOURNAL')
        let offline
        try {
          offline = await createEmulator({ routes: RECORDED })
        } catch (error) {
          throw new OracleFailure(`THE RECORDED FOLDER DOES NOT LOAD: ${error instanceof Error ? error.message : String(error)}\n  requests: ${requests}`, 'FOLDER DOES NOT LOAD')
        }
        try {
          for (const file of routeFiles(RECORDED)) {
            const route = file.routes[0]
            if (route === undefined) throw new OracleFailure(`${file.name} HOLDS NO ROUTE`, 'NO ROUTE')
            const replay = await offline.handle(new Request(`https://acme.svc-mock.test${route.path.replace(/\{[^}]+\}/g, 'x1234567')}`, { method: route.method, headers: APP_KEY }))
            if (replay.status !== route.response.status) {
              throw new OracleFailure(`${file.name} (${route.method} ${route.path}) REPLAYS ${replay.status}, RECORDED ${route.response.status}\n  requests: ${requests}`, 'REPLAYS ANOTHER STATUS')
            }
          }
        } finally {
          await offline.close()
        }
      })
    })
  },
  { clock: 'manual', proxy: team.url, record: RECORDED },
)
