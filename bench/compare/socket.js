// Socket rows of bench/compare.js: the same request sent to several servers by autocannon from this
// process (pinned to the load generator's CPU), targets interleaved A, B, C, A, B, C, … in rounds.
// Every run is bounded in time and in count. Per run: requests/s, latency p50/p99 over every
// response, the server's CPU time from /proc/<pid>/stat (µs per request) and this process's CPU.
import autocannon from 'autocannon'
import { cpuMs, rssMB, sleep } from './env.js'
import { request, sameBytes } from './requests.js'
import { median, percentile, sorted } from '../lib/stats.js'

/**
 * One autocannon run: 20 keep-alive connections by default, pipelining 1. Stops at `duration` s
 * or `maxRequests` answers, whichever comes first (and a hard stop 15 s later regardless).
 */
export async function load({ url, method = 'GET', headers, body, requests, connections = 20, duration, maxRequests = 2_000_000 }) {
  let latencies = new Float64Array(1 << 16)
  let n = 0
  const statuses = {}
  const instance = autocannon({ url, method, headers, body, requests, connections, pipelining: 1, duration, timeout: 10 })
  instance.on('response', (_client, statusCode, _bytes, responseTime) => {
    statuses[statusCode] = (statuses[statusCode] ?? 0) + 1
    if (n === latencies.length) {
      const grown = new Float64Array(latencies.length * 2)
      grown.set(latencies)
      latencies = grown
    }
    latencies[n++] = responseTime
    if (n === maxRequests) instance.stop()
  })
  const guard = setTimeout(() => instance.stop(), (duration + 15) * 1000)
  const result = await instance
  clearTimeout(guard)
  return { seconds: result.duration, latencies: latencies.subarray(0, n), statuses, errors: result.errors, timeouts: result.timeouts }
}

/** One measured run against one target: load + the server's and this process's CPU time. */
export async function measuredRun(target, { duration, connections, maxRequests }) {
  const serverBefore = cpuMs(target.server.pid)
  const ownBefore = process.cpuUsage()
  const t0 = performance.now()
  const run = await load({ ...target.request, url: target.server.url + target.request.path, connections, duration, maxRequests })
  const wallMs = performance.now() - t0
  const own = process.cpuUsage(ownBefore)
  const serverCpu = cpuMs(target.server.pid) - serverBefore
  const s = sorted(run.latencies)
  const n = s.length
  const expected = run.statuses[target.expect ?? 200] ?? 0
  return {
    requests: n,
    seconds: run.seconds,
    rps: n / run.seconds,
    p50: percentile(s, 50),
    p99: percentile(s, 99),
    unexpected: n - expected + run.errors + run.timeouts,
    statuses: run.statuses,
    serverCpuMs: serverCpu,
    serverCpuUsPerRequest: (serverCpu * 1000) / n,
    serverCpuPercent: (100 * serverCpu) / wallMs,
    loadGeneratorCpuPercent: (100 * (own.user + own.system)) / 1000 / wallMs,
  }
}


/**
 * Warms every target up (`warmupFor(target)` seconds), then `rounds` rounds of one run per target
 * in the same order. Returns per target the runs and the medians of requests/s, p50, p99 and CPU
 * µs per request; ratios are computed by the caller within each round (see ratios()).
 */
export async function interleave(targets, { rounds, duration, warmup, connections = 20, maxRequests, log = () => {}, warmupFor = () => warmup }) {
  for (const t of targets) {
    const w = warmupFor(t)
    if (w > 0) await load({ ...t.request, url: t.server.url + t.request.path, connections, duration: w, maxRequests })
    t.rssAfterWarmupMB = rssMB(t.server.pid)
  }
  for (const t of targets) t.runs = []
  for (let round = 0; round < rounds; round++) {
    // The order turns each round, so no system always runs right after the same one; and each run
    // starts once the other servers are quiet. A server keeps working after its load stops (the
    // JVM compiles and collects for seconds), pinned to the same core as the next one measured:
    // without the wait, the system that always ran after WireMock paid for it (p99 and req/s).
    for (let k = 0; k < targets.length; k++) {
      const t = targets[(round + k) % targets.length]
      const others = targets.filter((o) => o !== t).map((o) => o.server.pid)
      const waitedMs = await quiet(others)
      const before = others.map(cpuMs)
      const r = await measuredRun(t, { duration, connections, maxRequests })
      r.waitedForQuietMs = waitedMs
      r.othersCpuMs = others.reduce((sum, pid, i) => sum + (cpuMs(pid) - (before[i] ?? 0)), 0)
      t.runs[round] = r
      log(`    round ${round + 1}/${rounds} ${t.label.padEnd(22)} ${Math.round(r.rps).toString().padStart(7)} req/s  p50 ${r.p50.toFixed(2)} ms  p99 ${r.p99.toFixed(2)} ms  CPU ${r.serverCpuUsPerRequest.toFixed(0)} µs/req  (others ${Math.round(r.othersCpuMs)} ms CPU during it, ${Math.round(waitedMs)} ms waited for quiet)${r.unexpected ? `  (${r.unexpected} unexpected answers or errors: ${JSON.stringify(r.statuses)})` : ''}`)
    }
  }
  return targets.map((t) => ({
    label: t.label,
    runs: t.runs,
    rps: median(t.runs.map((r) => r.rps)),
    p50: median(t.runs.map((r) => r.p50)),
    p99: median(t.runs.map((r) => r.p99)),
    cpuUs: median(t.runs.map((r) => r.serverCpuUsPerRequest)),
    loadGeneratorCpuPercent: median(t.runs.map((r) => r.loadGeneratorCpuPercent)),
    unexpected: t.runs.reduce((sum, r) => sum + r.unexpected, 0),
  }))
}

/**
 * Waits until the processes together use at most one clock tick (10 ms) of CPU in a 250 ms
 * window, for at most 5 s. Resolves the time waited, in ms.
 */
export async function quiet(pids, { windowMs = 250, maxMs = 5000 } = {}) {
  const t0 = performance.now()
  if (pids.length === 0) return 0
  const total = () => pids.reduce((sum, pid) => sum + (cpuMs(pid) || 0), 0)
  let last = total()
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, windowMs))
    const now = total()
    if (now - last <= 10 || performance.now() - t0 >= maxMs) return performance.now() - t0
    last = now
  }
}

/** Median over rounds of (a's figure / b's figure) within the same round. */
export function roundRatio(a, b, key = 'rps') {
  const n = Math.min(a.runs.length, b.runs.length)
  return median(Array.from({ length: n }, (_, i) => a.runs[i][key] / b.runs[i][key]))
}

/** Starts every server of a row, checks each answers what it must, notes its idle RSS. */
export async function startAll(specs) {
  const started = []
  try {
    for (const spec of specs) {
      if (spec.unavailable) continue
      const server = await spec.start()
      started.push(server)
      spec.server = server
      const r = await request(server.url + spec.request.path, { method: spec.request.method, headers: spec.request.headers, body: spec.request.body })
      const problem = spec.check(r)
      if (problem) throw new Error(`${spec.label} does not answer as svc-mock does: ${problem}`)
    }
    await sleep(1000)
    for (const spec of specs) if (spec.server) spec.idleRssMB = rssMB(spec.server.pid)
    return started
  } catch (error) {
    for (const s of started) await s.stop()
    throw error
  }
}
export const stopAll = async (servers) => {
  for (const s of servers) await s.stop()
}
/** A check that an answer has the reference's status and bytes. */
export const bodyCheck = (ref) => (r) => (r.status !== ref.status ? `status ${r.status || r.error}` : !sameBytes(r.body, ref.body) ? `body differs (${r.body.length} bytes, svc-mock ${ref.body.length})` : undefined)

/** A check that a token answer is a 200 whose JWT header names `alg`. */
export const tokenCheck = (alg) => (r) => {
  let signed
  try {
    signed = JSON.parse(Buffer.from(JSON.parse(r.body.toString()).access_token.split('.')[0], 'base64url').toString()).alg
  } catch {
    signed = undefined
  }
  return r.status !== 200 ? `status ${r.status || r.error}: ${r.body}` : signed !== alg ? `signed with ${signed}, not ${alg}` : undefined
}
