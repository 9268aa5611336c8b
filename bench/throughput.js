// Throughput and memory: the built svc-mock server and a bare node:http server answering the same
// bytes, each in its own process, loaded in turn by autocannon (keep-alive, same settings) from
// this process: after a warm-up of each, `rounds` rounds of (svc-mock, bare, svc-mock query). Latencies are recorded per response (autocannon's own histogram
// keeps whole milliseconds only).
import http from 'node:http'
import { fileURLToPath } from 'node:url'
import autocannon from 'autocannon'
import { ask, startServerChild, stop } from './lib/proc.js'
import { percentile, sorted } from './lib/stats.js'
import { AUTH, VERSIONS_PATH } from './startup.js'

export const QUERY_PATH = `${VERSIONS_PATH}?$select=name,author&$filter=${encodeURIComponent("state -ne 'expired'")}`

const SVC_SERVER = fileURLToPath(new URL('./servers/svc-mock-server.js', import.meta.url))
const BARE_SERVER = fileURLToPath(new URL('./servers/bare-server.js', import.meta.url))

/** One keep-alive-less GET that keeps the whole answer. */
function fetchRaw(url, headers = {}) {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers, agent: false }, (res) => {
        const chunks = []
        res.on('data', (c) => chunks.push(c))
        res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }))
      })
      .on('error', reject)
  })
}

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'date'])

/** Runs autocannon for `duration` s; keeps every response's latency (ms, fractional). */
async function load(url, { connections, duration, headers }) {
  let latencies = new Float64Array(1 << 18)
  let n = 0
  const statuses = {}
  const instance = autocannon({ url, connections, pipelining: 1, duration, headers, timeout: 10 })
  instance.on('response', (_client, statusCode, _bytes, responseTime) => {
    statuses[statusCode] = (statuses[statusCode] ?? 0) + 1
    if (n === latencies.length) {
      const grown = new Float64Array(latencies.length * 2)
      grown.set(latencies)
      latencies = grown
    }
    latencies[n++] = responseTime
  })
  // A hard stop in case a run does not end on its own (autocannon stops at `duration`).
  const guard = setTimeout(() => instance.stop(), (duration + 15) * 1000)
  const result = await instance
  clearTimeout(guard)
  return { seconds: result.duration, latencies: latencies.subarray(0, n), statuses, errors: result.errors, timeouts: result.timeouts, non2xx: result.non2xx }
}

/** One measured run plus the CPU time of the server (over IPC) and of this process during it. */
async function timedLoad(child, url, options) {
  const before = await ask(child, 'cpu')
  const ownBefore = process.cpuUsage()
  const ownStart = performance.now()
  const run = await load(url, options)
  const own = process.cpuUsage(ownBefore)
  run.ownCpuMs = (own.user + own.system) / 1000
  run.ownMs = performance.now() - ownStart
  const after = await ask(child, 'cpu')
  run.serverCpuMs = (after.user + after.system - before.user - before.system) / 1000
  run.serverMs = after.at - before.at
  return run
}

/** Totals of a target's rounds: requests/s, latency percentiles over every response, CPU. */
function combine(runs) {
  const n = runs.reduce((sum, r) => sum + r.latencies.length, 0)
  const all = new Float64Array(n)
  let at = 0
  for (const r of runs) {
    all.set(r.latencies, at)
    at += r.latencies.length
  }
  const s = sorted(all)
  let sum = 0
  for (const v of s) sum += v
  const statuses = {}
  for (const r of runs) for (const [code, count] of Object.entries(r.statuses)) statuses[code] = (statuses[code] ?? 0) + count
  const total = (key) => runs.reduce((acc, r) => acc + r[key], 0)
  return {
    rounds: runs.length,
    seconds: total('seconds'),
    requests: n,
    requestsPerSecond: n / total('seconds'),
    requestsPerSecondByRound: runs.map((r) => r.latencies.length / r.seconds),
    statuses,
    errors: total('errors'),
    timeouts: total('timeouts'),
    non2xx: total('non2xx'),
    latencyMs: { mean: sum / n, p50: percentile(s, 50), p90: percentile(s, 90), p99: percentile(s, 99), max: s[s.length - 1] },
    serverCpuPercent: (100 * total('serverCpuMs')) / total('serverMs'),
    // Server CPU time per answered request: steadier than requests/s when the machine is shared.
    serverCpuUsPerRequest: (total('serverCpuMs') * 1000) / n,
    // The load generator (this process): near 100% means it, not the server, sets the pace.
    loadGeneratorCpuPercent: (100 * total('ownCpuMs')) / total('ownMs'),
  }
}

/**
 * Warms each target up, then runs the targets in turn, `rounds` times (each round a share of the
 * duration), so that a change in what else the machine runs affects them alike.
 */
async function measureAll(targets, { duration, warmup, rounds, ...options }) {
  for (const t of targets) await load(t.url, { ...options, duration: warmup })
  const runs = targets.map(() => [])
  const share = duration / rounds
  for (let round = 0; round < rounds; round++) {
    for (const [i, t] of targets.entries()) runs[i].push(await timedLoad(t.child, t.url, { ...options, duration: share }))
  }
  return runs.map(combine)
}

const memoryOf = async (child, gc = false) => {
  const m = await ask(child, 'memory', { gc })
  return { rss: m.rss, heapUsed: m.heapUsed, heapTotal: m.heapTotal, external: m.external, gc: gc && m.gcAvailable }
}

export async function measureThroughput({ connections = 20, duration = 10, warmup = 2, rounds = 2, profileDir } = {}) {
  const options = { connections, duration, warmup, rounds, headers: AUTH }
  const execArgv = ['--expose-gc']
  if (profileDir) execArgv.push('--cpu-prof', `--cpu-prof-dir=${profileDir}`)
  const svc = await startServerChild(SVC_SERVER, { execArgv })
  let bare
  try {
    const memory = { afterStart: await memoryOf(svc.child) }

    // The bytes the bare server will answer: svc-mock's own answer to the versions GET.
    const reference = await fetchRaw(svc.url + VERSIONS_PATH, AUTH)
    if (reference.status !== 200) throw new Error(`svc-mock answered ${reference.status} to the versions GET`)
    const query = await fetchRaw(svc.url + QUERY_PATH, AUTH)
    if (query.status !== 200) throw new Error(`svc-mock answered ${query.status} to the query GET: ${query.body}`)
    const headers = Object.fromEntries(Object.entries(reference.headers).filter(([k]) => !HOP_BY_HOP.has(k)))

    bare = await startServerChild(BARE_SERVER, { execArgv })
    await ask(bare.child, 'respond', { status: reference.status, headers, body: reference.body.toString('base64') })
    const copy = await fetchRaw(bare.url + VERSIONS_PATH, AUTH)
    if (copy.status !== reference.status || !copy.body.equals(reference.body) || copy.headers['content-type'] !== reference.headers['content-type']) {
      throw new Error('the bare server does not answer the same bytes as svc-mock')
    }

    const [svcVersions, bareVersions, svcQuery] = await measureAll(
      [
        { child: svc.child, url: svc.url + VERSIONS_PATH },
        { child: bare.child, url: bare.url + VERSIONS_PATH },
        { child: svc.child, url: svc.url + QUERY_PATH },
      ],
      options,
    )
    memory.afterLoad = await memoryOf(svc.child)
    memory.afterLoadGc = await memoryOf(svc.child, true)

    return {
      pids: { svcMock: svc.child.pid, bare: bare.child.pid },
      settings: { connections, pipelining: 1, duration, rounds, warmup, keepAlive: true, tool: 'autocannon 8' },
      response: { status: reference.status, contentType: reference.headers['content-type'], bytes: reference.body.length, headers },
      queryResponse: { path: QUERY_PATH, status: query.status, bytes: query.body.length },
      svcMock: svcVersions,
      bare: bareVersions,
      svcMockQuery: svcQuery,
      ratioPercent: (100 * svcVersions.requestsPerSecond) / bareVersions.requestsPerSecond,
      queryRatioPercent: (100 * svcQuery.requestsPerSecond) / bareVersions.requestsPerSecond,
      memory,
    }
  } finally {
    if (bare) await stop(bare.child)
    await stop(svc.child)
  }
}
