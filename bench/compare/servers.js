// The servers bench/compare.js measures that come with svc-mock's own install: svc-mock's CLI
// (found through package.json "bin", never a dist/ path), the bare node:http servers answering
// svc-mock's own bytes (or doing a webhook's or a token's work by hand), and oauth2-mock-server
// (devDependency). WireMock and Prism, which the bench installs itself, are in peers.js.
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { freePort, ROOT } from './env.js'
import { TOKEN_BODY, TOKEN_HEADERS, VERSIONS_HEADERS, VERSIONS_PATH, WEBHOOK_BODY, WEBHOOK_HEADERS, WEBHOOK_PATH, request } from './requests.js'
import { startServer } from './start-server.js'

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

// ---- svc-mock and the bare servers

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
