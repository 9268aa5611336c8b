// The peers bench/compare.js installs itself into bench/.peers/ on first use (then reuses), each
// given svc-mock's own answers to serve: WireMock (run with the machine's Java) and Prism.
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { freePort, ROOT, runPinned } from './env.js'
import { VERSIONS_HEADERS, VERSIONS_PATH, WEBHOOK_PATH } from './requests.js'
import { startServer } from './start-server.js'

export const PEERS_DIR = join(ROOT, 'bench/.peers')
export const WORK_DIR = join(ROOT, 'bench/.work')

/** Pinned peer versions: Prism 5.14 is the last release that runs on Node 20 (5.15+ needs 24). */
export const PEER_PACKAGES = {
  wiremock: { package: 'wiremock', version: '3.13.2' },
  prism: { package: '@stoplight/prism-cli', version: '5.14.2' },
}

const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'))

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
