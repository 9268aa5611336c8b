/**
 * What svc-mock says once it listens: the banner a person reads (addresses, default credentials,
 * commands to try, the local CA to trust over HTTPS), or the same as one JSON object with
 * `--log json`; and a warning when it is bound beyond loopback, since its control plane needs no
 * credential.
 */
import type { RunningServer } from '../adapters/server.js'
import { CONTROL_PREFIX } from '../kernel/control.js'
import { teamsBannerLines } from '../teams/index.js'
import { VERSION } from '../version.js'
import type { CliOptions } from './options.js'

/** The start-up banner as one JSON object (`--log json`): addresses, and the credentials' labels (never their values). */
export function listeningEvent(server: RunningServer): Record<string, unknown> {
  const emu = server.emulator
  const base = emu.urls.base
  const warning = exposure(server)
  return {
    level: 'info',
    time: new Date().toISOString(),
    event: 'listening',
    version: VERSION,
    pid: process.pid,
    url: server.url,
    host: server.host,
    port: server.port,
    urls: { auth: emu.urls.auth, base, webhook: emu.urls.webhook },
    dashboard: `${base}${CONTROL_PREFIX}/`,
    controlPlane: `${base}${CONTROL_PREFIX}`,
    openapi: `${base}${CONTROL_PREFIX}/openapi.json`,
    webhooks: emu.webhooks.list().map((w) => w.url),
    credentials: emu.credentials().map((c) => ({ kind: c.kind, id: c.id, label: c.label })),
    clock: emu.clock.state(),
    seed: emu.seed,
    scenarios: emu.scenarios.list().filter((s) => s.active).map((s) => s.name),
    ...(server.caFile === undefined ? {} : { caFile: server.caFile }),
    teams: server.teams.list(),
    ...(warning ? { warning } : {}),
  }
}

function isLoopback(host: string): boolean {
  return ['127.0.0.1', 'localhost', '::1'].includes(host) || host.startsWith('127.')
}

/** The warning for a server bound beyond loopback, or undefined. */
export function exposure(server: RunningServer): string | undefined {
  if (isLoopback(server.host)) return undefined
  return `svc-mock listens beyond loopback, and its control plane (${server.url}/__svc-mock/) needs no credential: anyone who can reach this port can reset it, switch scenarios on and mint tokens. Bind to 127.0.0.1 unless you need this.`
}

/** The banner's lines on the user's own routes and the proxy, when there are any. */
function userRouteLines(server: RunningServer, options: CliOptions): string[] {
  const routes = server.emulator.userRoutes.list()
  const resources = server.emulator.resources.list()
  const lines: string[] = []
  if (routes.length > 0) {
    const counted = `${routes.length} route${routes.length === 1 ? '' : 's'}${resources.length === 0 ? '' : `, ${resources.length} resource${resources.length === 1 ? '' : 's'} (${resources.map((r) => r.name).join(', ')})`}`
    lines.push(`  Your routes             ${counted}: GET ${server.emulator.urls.base}/__svc-mock/routes lists them`)
  }
  if (options.proxy !== undefined) lines.push(`  Proxy                   every other path goes to ${options.proxy}${options.record === undefined ? '' : `, recorded into ${options.record}`}`)
  return lines
}

/** The start-up banner for `--log pretty`. */
export function banner(server: RunningServer, options: CliOptions): string {
  const emu = server.emulator
  const base = emu.urls.base
  const on = emu.scenarios.list().filter((s) => s.active)
  const clock = emu.clock.state()
  const loopback = isLoopback(server.host)
  const bound = server.host.includes(':') ? `[${server.host}]` : server.host
  const scheme = new URL(server.url).protocol.replace(':', '')
  const lines = [
    loopback
      ? `svc-mock ${VERSION} listening on ${server.url}`
      : `svc-mock ${VERSION} listening on ${scheme}://${bound}:${server.port}${bound === '0.0.0.0' || bound === '[::]' ? ' (every network interface of this machine)' : ''}; from here: ${server.url}`,
    ...(loopback
      ? []
      : [
          `WARNING: svc-mock listens beyond loopback, and its control plane (${server.url}${CONTROL_PREFIX}/) needs no credential:`,
          '  anyone who can reach this port can reset it, switch scenarios on and mint tokens. Bind to 127.0.0.1 unless you need this.',
        ]),
    '',
    `  REST API ({base_url})   ${base}/{collectionId}/{storageId}/_api/rest/facets/{facetId}/views/{viewId}/elements/{elementId}/versions`,
    `  OAuth ({auth_url})      ${emu.urls.auth}/oauth2/token, ${emu.urls.auth}/oauth2/authorize, ${emu.urls.auth}/.well-known/openid-configuration`,
    `  Webhooks                ${emu.urls.webhook}/hooks/{token}  (${emu.webhooks.list().map((w) => w.id).join(', ') || 'none'})`,
    `  Dashboard               ${base}${CONTROL_PREFIX}/  (open it in a browser: see the requests, steer scenarios, flows, clock)`,
    ...wrapped(`  Control plane           ${base}${CONTROL_PREFIX}/{${controlPaths(server).join(', ')}}`, ' '.repeat(26)),
    `  OpenAPI document        ${base}${CONTROL_PREFIX}/openapi.json`,
    ...userRouteLines(server, options),
    ...(server.caFile === undefined
      ? []
      : [
          `  TLS                     signed by svc-mock's local CA; trust ${server.caFile}`,
          `                          (REQUESTS_CA_BUNDLE, NODE_EXTRA_CA_CERTS; also at ${base}${CONTROL_PREFIX}/ca.pem)`,
        ]),
    ...teamsBannerLines(server.teams, base),
    '',
    'Credentials (from the fixtures; the defaults are public test values):',
    ...emu.credentials().map((c) => `  ${c.kind.padEnd(17)} ${c.value}  (${c.label})`),
    ...tryLines(server),
    '',
    `Clock: ${clock.mode}${clock.mode === 'real' && clock.timeScale !== 1 ? `, time scale ${clock.timeScale}` : ''}; seed ${emu.seed}.` +
      (on.length > 0 ? ` Scenarios on: ${on.map((s) => s.name).join(', ')}.` : ''),
    options.log === 'pretty' ? 'Requests are logged below. Ctrl+C stops.' : '',
  ]
  return lines.join('\n')
}

/** The first segment of every control-plane path served (`health`, `webhooks`, …), each once, in the route table's order. */
export function controlPaths(server: RunningServer): string[] {
  const segments = server.emulator
    .routes()
    .filter((route) => route.id.startsWith('control.') && route.path.startsWith(`${CONTROL_PREFIX}/`))
    .map((route) => route.path.slice(CONTROL_PREFIX.length + 1).split('/')[0] ?? '')
  return [...new Set(segments.filter((segment) => segment !== '' && !segment.startsWith(':')))]
}

/**
 * The requests the domains suggest from what they loaded, with curl: a protected path with the
 * first credential that presents itself simply (an application key first), a token request with
 * its own arguments; with the local CA, each says which certificate to trust.
 */
function tryLines(server: RunningServer): string[] {
  const curl = server.caFile === undefined ? 'curl' : `curl --cacert ${server.caFile}`
  const key = server.emulator.credentials().find((c) => c.curl !== undefined)?.curl
  const examples = server.emulator.examples()
  const lines = [...examples.filter((e) => e.curl === undefined), ...examples.filter((e) => e.curl !== undefined)].flatMap((example) => {
    const args = example.curl ?? key
    return args === undefined ? [] : [`  ${curl} ${args} ${example.url}`]
  })
  return lines.length === 0 ? [] : ['', 'Try:', ...lines]
}

/** A long line broken between list items at about 110 characters, the rest indented. */
function wrapped(line: string, indent: string): string[] {
  const lines: string[] = []
  let current = ''
  for (const part of line.split(/(?<=, )/)) {
    if (current !== '' && current.length + part.length > 110) {
      lines.push(current.trimEnd())
      current = indent
    }
    current += part
  }
  return [...lines, current]
}
