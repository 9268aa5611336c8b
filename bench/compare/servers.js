// The servers bench/compare.js measures, each started in its own process on 127.0.0.1 and pinned
// to the server CPU: svc-mock's CLI (found through package.json "bin", never a dist/ path), a bare
// node:http server answering svc-mock's own bytes, oauth2-mock-server (devDependency), WireMock
// and Prism (installed by the bench itself into bench/.peers/ on first use, then reused).
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import http from 'node:http'
import { dirname, join } from 'node:path'
import { freePort, pinning, ROOT, runPinned, spawnPinned, stop } from './env.js'

export const VERSIONS_PATH =
  '/acme-collection/acme-tenant/_api/rest/facets/processes/views/default/elements/0f8fad5b-d9cb-469f-a165-70867728950e/versions'
export const VERSIONS_HEADERS = { authorization: 'AppKey svcmock-app-key' }
export const WEBHOOK_PATH = '/hooks/orders'
export const WEBHOOK_BODY = '{"orderId":"A-1"}'
export const WEBHOOK_HEADERS = { 'content-type': 'application/json' }
export const TOKEN_BODY = 'grant_type=client_credentials&scope=audit.log%3Aread'
export const TOKEN_HEADERS = {
  authorization: `Basic ${Buffer.from('ci-client:ci-secret').toString('base64')}`,
  'content-type': 'application/x-www-form-urlencoded',
}

export const PEERS_DIR = join(ROOT, 'bench/.peers')
export const WORK_DIR = join(ROOT, 'bench/.work')

/** Pinned peer versions: Prism 5.14 is the last release that runs on Node 20 (5.15+ needs 24). */
export const PEER_PACKAGES = {
  wiremock: { package: 'wiremock', version: '3.13.2' },
  prism: { package: '@stoplight/prism-cli', version: '5.14.2' },
}

const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'))

/** svc-mock's CLI script, from package.json "bin" (so the bench follows it when files move). */
export function svcMockBin() {
  const pkg = readJson(join(ROOT, 'package.json'))
  const bin = typeof pkg.bin === 'string' ? pkg.bin : pkg.bin?.[pkg.name]
  if (!bin) throw new Error('package.json has no "bin" for svc-mock')
  return join(ROOT, bin)
}

/** A package's bin script, through its own package.json, found in node_modules above `fromDir`. */
function binOf(pkgName, binName, fromDir = ROOT) {
  for (let dir = fromDir; ; dir = dirname(dir)) {
    const pkgJson = join(dir, 'node_modules', pkgName, 'package.json')
    if (existsSync(pkgJson)) {
      const pkg = readJson(pkgJson)
      const bin = typeof pkg.bin === 'string' ? pkg.bin : pkg.bin?.[binName]
      return { script: join(dirname(pkgJson), bin), version: pkg.version, dir: dirname(pkgJson) }
    }
    if (dirname(dir) === dir) throw new Error(`${pkgName} is not installed (npm ci)`)
  }
}

export function oauth2MockServerCli() {
  return binOf('oauth2-mock-server', 'oauth2-mock-server')
}

/** One request without keep-alive; keeps the whole answer. Resolves { status, headers, body } or { status: 0, error }. */
export function request(url, { method = 'GET', headers = {}, body, timeoutMs = 5000 } = {}) {
  return new Promise((resolve) => {
    const req = http.request(url, { method, headers, agent: false, timeout: timeoutMs }, (res) => {
      const chunks = []
      res.on('data', (c) => chunks.push(c))
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }))
      res.on('error', (error) => resolve({ status: 0, error: error.message }))
    })
    req.on('timeout', () => req.destroy(new Error('timeout')))
    req.on('error', (error) => resolve({ status: 0, error: error.code ?? error.message }))
    req.end(body)
  })
}

const BANNER = /listening on (http:\/\/127\.0\.0\.1:\d+)/

/**
 * Starts a server: spawns it pinned to the server CPU, learns its URL (from a banner on stdout,
 * or the port it was given), then polls `ready` (every 2 ms, no keep-alive) until `expect`.
 * Times in ms from spawn: { banner, firstAnswer }. Rejects (after stopping it) at `timeoutMs`.
 */
/** The same bytes, once each server's own origin (svc-mock writes it into links) is set aside. */
export function sameBytes(a, b) {
  const strip = (buf) => buf.toString('latin1').replace(/http:\/\/127\.0\.0\.1:\d+/g, 'http://127.0.0.1:PORT')
  return a.length === b.length && strip(a) === strip(b)
}

export async function startServer({ name, command, args, url, ready, expect = 200, timeoutMs = 30_000, cwd = ROOT }) {
  const t0 = performance.now()
  const child = spawnPinned(pinning.server, command, args, { cwd, detached: false })
  let out = ''
  let err = ''
  child.stdout.setEncoding('utf8').on('data', (d) => (out += d.length + out.length < 65536 ? d : ''))
  child.stderr.setEncoding('utf8').on('data', (d) => (err += d.length + err.length < 65536 ? d : ''))
  let exited = null
  child.once('exit', (code, signal) => (exited = { code, signal }))
  child.once('error', (error) => (exited = { error: error.message }))
  const fail = async (why) => {
    await stop(child)
    throw new Error(`${name}: ${why}${out || err ? `\n--- its output:\n${(out + err).slice(-2000)}` : ''}`)
  }
  let banner
  while (!url) {
    const m = BANNER.exec(out)
    if (m) {
      url = m[1]
      banner = performance.now() - t0
    } else if (exited) return fail(`exited before its banner (${JSON.stringify(exited)})`)
    else if (performance.now() - t0 > timeoutMs) return fail(`no banner within ${timeoutMs} ms`)
    else await new Promise((r) => setTimeout(r, 2))
  }
  let last
  for (;;) {
    last = await request(url + ready.path, { method: ready.method, headers: ready.headers, body: ready.body, timeoutMs: 2000 })
    if (last.status === expect) break
    if (exited) return fail(`exited before answering (${JSON.stringify(exited)})`)
    if (performance.now() - t0 > timeoutMs) return fail(`no ${expect} on ${ready.path} within ${timeoutMs} ms (last: ${last.status || last.error})`)
    await new Promise((r) => setTimeout(r, 2))
  }
  const firstAnswer = performance.now() - t0
  return {
    name,
    child,
    pid: child.pid,
    url,
    timings: { banner, firstAnswer },
    output: () => out + err,
    stop: () => stop(child, 5000),
  }
}

// ---- svc-mock and the bare server

// Given a free port and `--log silent` (which prints nothing, not even a banner: `--log json` or
// the default would log every request, which is not what is measured); polled from spawn on.
export async function startSvcMock({ tokenAlgorithm, name = 'svc-mock' } = {}) {
  const port = await freePort()
  const args = [svcMockBin(), '--port', String(port), '--log', 'silent']
  if (tokenAlgorithm) args.push('--token-algorithm', tokenAlgorithm)
  return startServer({ name, command: process.execPath, args, url: `http://127.0.0.1:${port}`, ready: { path: VERSIONS_PATH, headers: VERSIONS_HEADERS } })
}

/** routesFile: see bench/servers/bare-routes.js. */
export function startBare(routesFile, { ready = { path: VERSIONS_PATH, headers: VERSIONS_HEADERS } } = {}) {
  return startServer({ name: 'bare node:http', command: process.execPath, args: [join(ROOT, 'bench/servers/bare-routes.js'), routesFile], ready })
}

/** Row 6, for information (bench/servers/bare-webhook.js): a receiver that does the webhook's work by hand for the bench's one call. */
export function startBareWebhook(routesFile) {
  const ready = { path: WEBHOOK_PATH, method: 'POST', headers: WEBHOOK_HEADERS, body: WEBHOOK_BODY }
  return startServer({ name: 'bare webhook receiver', command: process.execPath, args: [join(ROOT, 'bench/servers/bare-webhook.js'), routesFile], ready })
}

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'date'])
const endToEnd = (headers) => Object.fromEntries(Object.entries(headers).filter(([k]) => !HOP_BY_HOP.has(k)))

/**
 * svc-mock's own answers (status, end-to-end headers, body bytes) to the three requests the
 * socket rows send, from a fresh CLI server: what the bare server, WireMock and Prism serve.
 */
export async function captureReference() {
  const svc = await startSvcMock()
  try {
    const versions = await request(svc.url + VERSIONS_PATH, { headers: VERSIONS_HEADERS })
    const webhook = await request(svc.url + WEBHOOK_PATH, { method: 'POST', headers: WEBHOOK_HEADERS, body: WEBHOOK_BODY })
    const token = await request(`${svc.url}/oauth2/token`, { method: 'POST', headers: TOKEN_HEADERS, body: TOKEN_BODY })
    for (const [what, r] of Object.entries({ versions, webhook, token })) {
      if (r.status !== 200) throw new Error(`svc-mock answered ${r.status || r.error} to the ${what} request: ${r.body}`)
    }
    const pack = (r) => ({ status: r.status, headers: endToEnd(r.headers), body: r.body })
    return { versions: pack(versions), webhook: pack(webhook), token: pack(token) }
  } finally {
    await svc.stop()
  }
}

/** Writes the bare server's routes file for the reference answers. */
export function writeBareRoutes(reference, file) {
  const route = (r) => ({ status: r.status, headers: r.headers, body: r.body.toString('base64') })
  writeFileSync(
    file,
    JSON.stringify({
      [`GET ${VERSIONS_PATH}`]: route(reference.versions),
      [`POST ${WEBHOOK_PATH}`]: route(reference.webhook),
      'POST /oauth2/token': route(reference.token),
    }),
  )
  return file
}

// ---- oauth2-mock-server

/** Cold start: its own CLI, key generated at start, first 200 on its discovery document. */
export async function startOauth2MockServerCli() {
  const port = await freePort()
  return startServer({
    name: 'oauth2-mock-server',
    command: process.execPath,
    args: [oauth2MockServerCli().script, '-a', '127.0.0.1', '-p', String(port)],
    url: `http://127.0.0.1:${port}`,
    ready: { path: '/.well-known/openid-configuration' },
  })
}

/** Token throughput: signing with `alg`, token endpoint at /token. */
export function startOauth2MockServer(alg) {
  return startServer({
    name: `oauth2-mock-server ${alg}`,
    command: process.execPath,
    args: [join(ROOT, 'bench/servers/oauth2-mock-server.js'), alg],
    ready: { path: '/.well-known/openid-configuration' },
  })
}

/** Row 7's floor (bench/servers/bare-token.js): parse, check, sign with `alg`, answer; token endpoint at /token. */
export function startBareToken(alg) {
  const ready = { path: '/token', method: 'POST', headers: TOKEN_HEADERS, body: TOKEN_BODY }
  return startServer({ name: `bare token ${alg}`, command: process.execPath, args: [join(ROOT, 'bench/servers/bare-token.js'), alg], ready })
}

// ---- peers installed by the bench (WireMock, Prism)

/**
 * Installs a peer into bench/.peers/<key>/ with `npm install --prefix` at its pinned version, or
 * reuses what is there. Resolves { dir, version } or throws with npm's own words.
 */
export async function ensurePeer(key, log = () => {}) {
  const { package: pkgName, version } = PEER_PACKAGES[key]
  const prefix = join(PEERS_DIR, key)
  const installed = join(prefix, 'node_modules', pkgName, 'package.json')
  if (existsSync(installed) && readJson(installed).version === version) return { dir: dirname(installed), version }
  mkdirSync(prefix, { recursive: true })
  writeFileSync(join(prefix, 'package.json'), `${JSON.stringify({ name: `svc-mock-bench-peer-${key}`, private: true, dependencies: { [pkgName]: version } }, null, 2)}\n`)
  log(`installing ${pkgName}@${version} into ${prefix} (once; reused afterwards)`)
  const r = await runPinned(null, 'npm', ['install', '--prefix', prefix, '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel', 'error'], { timeoutMs: 300_000 })
  if (r.code !== 0 || !existsSync(installed)) {
    throw new Error(`npm install ${pkgName}@${version} failed (exit ${r.code}${r.timedOut ? ', timed out after 300 s' : ''}): ${(r.stderr || r.stdout).trim().split('\n').slice(-6).join(' | ')}`)
  }
  return { dir: dirname(installed), version: readJson(installed).version }
}

/** The major version of the `java` on PATH (it prints its version to stderr), or undefined. */
function javaMajor() {
  const r = spawnSync('java', ['-version'], { encoding: 'utf8', timeout: 20_000 })
  const m = /version "(\d+)(?:\.(\d+))?/.exec(`${r.stderr ?? ''}${r.stdout ?? ''}`)
  if (!m) return undefined
  return m[1] === '1' ? Number(m[2]) : Number(m[1])
}

/**
 * WireMock from the npm `wiremock` package (it ships the standalone jar), run with the machine's
 * Java. Its root dir holds two stubs serving svc-mock's bytes: the versions GET (matching the
 * AppKey header) and the webhook POST (matching a JSON body with an orderId, as svc-mock's data
 * structure requires one). Request journal off, as measured in the issue.
 */
export async function prepareWiremock(reference, log) {
  const major = javaMajor()
  if (!major) throw new Error('no `java` on PATH (WireMock needs Java 11 or later; Java 17 expected here)')
  if (major < 11) throw new Error(`java ${major} found; WireMock 3 needs Java 11 or later`)
  const peer = await ensurePeer('wiremock', log)
  const pkg = readJson(join(peer.dir, 'package.json'))
  const pattern = new RegExp(pkg['runnable-jar-regexp'] ?? 'build/.*\\.jar')
  const jar = readdirSync(join(peer.dir, 'build'))
    .map((f) => `build/${f}`)
    .find((f) => pattern.test(f))
  if (!jar) throw new Error(`no jar matching ${pattern} in ${peer.dir}/build`)
  const root = join(WORK_DIR, 'wiremock-root')
  mkdirSync(join(root, 'mappings'), { recursive: true })
  mkdirSync(join(root, '__files'), { recursive: true })
  writeFileSync(join(root, '__files', 'versions.json'), reference.versions.body)
  writeFileSync(join(root, '__files', 'accepted.txt'), reference.webhook.body)
  const stub = (request, r, file) => ({ request, response: { status: r.status, headers: r.headers, bodyFileName: file } })
  writeFileSync(
    join(root, 'mappings', 'versions.json'),
    JSON.stringify(stub({ method: 'GET', url: VERSIONS_PATH, headers: { Authorization: { equalTo: VERSIONS_HEADERS.authorization } } }, reference.versions, 'versions.json'), null, 2),
  )
  writeFileSync(
    join(root, 'mappings', 'webhook.json'),
    JSON.stringify(
      stub({ method: 'POST', url: WEBHOOK_PATH, headers: { 'Content-Type': { contains: 'json' } }, bodyPatterns: [{ matchesJsonPath: '$.orderId' }] }, reference.webhook, 'accepted.txt'),
      null,
      2,
    ),
  )
  return { jar: join(peer.dir, jar), root, version: peer.version, java: major }
}

export async function startWiremock(wm) {
  const port = await freePort()
  return startServer({
    name: 'WireMock',
    command: 'java',
    args: ['-jar', wm.jar, '--port', String(port), '--bind-address', '127.0.0.1', '--root-dir', wm.root, '--no-request-journal', '--disable-banner', '--disable-request-logging'],
    url: `http://127.0.0.1:${port}`,
    ready: { path: VERSIONS_PATH, headers: VERSIONS_HEADERS },
    timeoutMs: 60_000,
  })
}

/**
 * Prism (`prism mock`) with an OpenAPI 3.0 document whose one operation is the versions GET,
 * its 200 example svc-mock's answer (Prism serialises it again: the body is checked byte for byte
 * before measuring) and its `deprecation` header; the AppKey as an apiKey security scheme, so
 * Prism checks the header as svc-mock does. CORS headers off, log silent.
 */
export async function preparePrism(reference, log) {
  const peer = await ensurePeer('prism', log)
  const pkg = readJson(join(peer.dir, 'package.json'))
  const script = join(peer.dir, typeof pkg.bin === 'string' ? pkg.bin : pkg.bin.prism)
  const contentType = reference.versions.headers['content-type'] ?? 'application/json'
  const headers = Object.fromEntries(
    Object.entries(reference.versions.headers)
      .filter(([k]) => k !== 'content-type')
      .map(([k, v]) => [k, { schema: { type: 'string' }, example: v }]),
  )
  const spec = {
    openapi: '3.0.3',
    info: { title: 'svc-mock bench: versions', version: '1' },
    servers: [{ url: 'http://127.0.0.1' }],
    components: { securitySchemes: { appKey: { type: 'apiKey', in: 'header', name: 'Authorization' } } },
    security: [{ appKey: [] }],
    paths: {
      [VERSIONS_PATH]: {
        get: {
          operationId: 'listVersions',
          responses: {
            200: {
              description: 'the versions',
              headers,
              content: { [contentType]: { schema: { type: 'object' }, example: JSON.parse(reference.versions.body.toString('utf8')) } },
            },
          },
        },
      },
    },
  }
  const file = join(WORK_DIR, 'prism-openapi.json')
  mkdirSync(WORK_DIR, { recursive: true })
  writeFileSync(file, JSON.stringify(spec, null, 2))
  return { script, spec: file, version: peer.version }
}

export async function startPrism(pr) {
  const port = await freePort()
  return startServer({
    name: 'Prism',
    command: process.execPath,
    args: [pr.script, 'mock', pr.spec, '--port', String(port), '--host', '127.0.0.1', '--cors', 'false', '--verboseLevel', 'silent'],
    url: `http://127.0.0.1:${port}`,
    ready: { path: VERSIONS_PATH, headers: VERSIONS_HEADERS },
    timeoutMs: 60_000,
  })
}
