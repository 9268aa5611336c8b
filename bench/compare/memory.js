// Row 9 of bench/compare.js: each server started fresh, its RSS (VmRSS) 1 s after the first answer
// ("idle"), then a mixed load (token, versions GET, webhook POST in turn on each connection) with
// the RSS sampled every second: after the warm-up, the peak, the end.
import { rssMB, sleep } from './env.js'
import { TOKEN_BODY, TOKEN_HEADERS, VERSIONS_HEADERS, VERSIONS_PATH, WEBHOOK_BODY, WEBHOOK_HEADERS, WEBHOOK_PATH } from './requests.js'
import { load } from './socket.js'

const MIXED = [
  { method: 'POST', path: '/oauth2/token', headers: TOKEN_HEADERS, body: TOKEN_BODY },
  { method: 'GET', path: VERSIONS_PATH, headers: VERSIONS_HEADERS },
  { method: 'POST', path: WEBHOOK_PATH, headers: WEBHOOK_HEADERS, body: WEBHOOK_BODY },
]

/** `servers`: [label, start] pairs, measured one after the other. Resolves the figures by label. */
export async function measureMemory(servers, { connections, seconds, warmupSeconds, log }) {
  const out = {}
  for (const [label, start] of servers) {
    const server = await start()
    try {
      await sleep(1000)
      const idle = rssMB(server.pid)
      const samples = []
      const t = performance.now()
      const sampler = setInterval(() => samples.push({ s: (performance.now() - t) / 1000, rss: rssMB(server.pid) }), 1000)
      const run = await load({ url: server.url, requests: MIXED, connections, duration: seconds, maxRequests: 10_000_000 })
      clearInterval(sampler)
      const end = rssMB(server.pid)
      const afterWarmup = samples.find((p) => p.s >= warmupSeconds)?.rss ?? NaN
      const peak = Math.max(...samples.map((p) => p.rss), end)
      const bad = run.latencies.length - (run.statuses[200] ?? 0) + run.errors + run.timeouts
      out[label] = { idle, afterWarmup, peak, end, growthAfterWarmup: end - afterWarmup, requests: run.latencies.length, rps: run.latencies.length / run.seconds, bad, statuses: run.statuses, samples }
      log(`    ${label}: idle ${idle.toFixed(1)} MB, after ${warmupSeconds} s ${afterWarmup.toFixed(1)} MB, peak ${peak.toFixed(1)} MB, end ${end.toFixed(1)} MB (${run.latencies.length} requests, ${bad} bad answers)`)
    } finally {
      await server.stop()
    }
  }
  return out
}
