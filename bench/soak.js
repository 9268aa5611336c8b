// Load and soak: the built server under mixed traffic (token, versions, webhook, control) from 50
// keep-alive connections for a bounded time, its memory sampled every second. Prints errors, p99,
// RSS at start, after warm-up, at the peak and at the end, the heap after a full GC, and the
// sizes of what the emulator keeps (journal, executions). The bar (issue 12): 0 errors, RSS after
// warm-up flat within 30 MB.
//
//   node bench/soak.js [--duration 45] [--warmup 10] [--connections 50]
import { parseArgs } from 'node:util'
import { fileURLToPath } from 'node:url'
import autocannon from 'autocannon'
import { ask, startServerChild, stop } from './lib/proc.js'
import { percentile, sorted } from './lib/stats.js'

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '45' },
    warmup: { type: 'string', default: '10' },
    connections: { type: 'string', default: '50' },
  },
})
const duration = Number(values.duration)
const warmup = Number(values.warmup)
const connections = Number(values.connections)

const SERVER = fileURLToPath(new URL('./servers/svc-mock-server.js', import.meta.url))
const VERSIONS = '/acme-collection/acme-tenant/_api/rest/facets/processes/views/default/elements/0f8fad5b-d9cb-469f-a165-70867728950e/versions'
const BASIC = `Basic ${Buffer.from('ci-client:ci-secret').toString('base64')}`

// One cycle of the mix each connection repeats: mostly API and webhook calls, some tokens, some control reads.
const MIX = [
  { method: 'GET', path: VERSIONS, headers: { authorization: 'AppKey svcmock-app-key' } },
  { method: 'POST', path: '/hooks/orders', headers: { 'content-type': 'application/json' }, body: '{"orderId":"A-1","lines":[{"sku":"x","qty":2}],"password":"p"}' },
  { method: 'GET', path: `${VERSIONS}?$select=name,author&$filter=${encodeURIComponent("state -ne 'expired'")}`, headers: { authorization: 'AppKey svcmock-app-key' } },
  { method: 'POST', path: '/hooks/orders', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'orderId=A-2&note=form' },
  { method: 'POST', path: '/oauth2/token', headers: { authorization: BASIC, 'content-type': 'application/x-www-form-urlencoded' }, body: 'grant_type=client_credentials&scope=studio' },
  { method: 'GET', path: VERSIONS, headers: { authorization: 'AppKey svcmock-app-key' } },
  { method: 'GET', path: '/__svc-mock/journal?limit=5' },
  { method: 'GET', path: '/__svc-mock/state' },
]

const MB = 1024 * 1024
const { child, url } = await startServerChild(SERVER, { execArgv: ['--expose-gc'] })
try {
  const memory = async (gc = false) => await ask(child, 'memory', { gc })
  const start = await memory(true)
  const samples = []
  const sampler = setInterval(() => {
    memory().then((m) => samples.push({ at: (performance.now() - began) / 1000, rss: m.rss, heap: m.heapUsed }), () => undefined)
  }, 1000)
  const latencies = []
  let non2xx = 0
  const began = performance.now()
  const result = await new Promise((resolve, reject) => {
    const instance = autocannon({ url, connections, pipelining: 1, duration, requests: MIX, timeout: 10 }, (error, out) => (error ? reject(error) : resolve(out)))
    instance.on('response', (_client, status, _bytes, ms) => {
      latencies.push(ms)
      if (status < 200 || status >= 300) non2xx++
    })
  })
  clearInterval(sampler)
  const end = await memory()
  const afterGc = await memory(true)
  const state = await (await fetch(`${url}/__svc-mock/state`)).json()
  const journal = await (await fetch(`${url}/__svc-mock/journal`)).json()
  const afterWarmup = samples.filter((s) => s.at >= warmup)
  const warm = afterWarmup[0]?.rss ?? start.rss
  const peak = Math.max(...samples.map((s) => s.rss), start.rss)
  const peakAfterWarmup = Math.max(...afterWarmup.map((s) => s.rss), warm)
  const p = sorted(latencies)
  const executions = state.webhooks.reduce((n, w) => n + w.executions.count, 0)
  const report = {
    seconds: duration,
    connections,
    requests: result.requests.total,
    rps: Math.round(result.requests.average),
    errors: result.errors + result.timeouts,
    non2xx,
    p50ms: percentile(p, 50),
    p99ms: percentile(p, 99),
    rssMB: { start: +(start.rss / MB).toFixed(1), afterWarmup: +(warm / MB).toFixed(1), peak: +(peak / MB).toFixed(1), end: +(end.rss / MB).toFixed(1) },
    growthAfterWarmupMB: +((peakAfterWarmup - warm) / MB).toFixed(1),
    heapAfterGcMB: +(afterGc.heapUsed / MB).toFixed(1),
    kept: { journalEntries: journal.length, journalCapacity: state.journalCapacity, executions },
  }
  console.log(JSON.stringify(report, null, 2))
  const ok = report.errors === 0 && report.non2xx === 0 && report.growthAfterWarmupMB <= 30
  console.log(`${ok ? 'ok' : 'MISSED'}: ${report.errors} errors, ${report.non2xx} non-2xx, RSS after warm-up grew ${report.growthAfterWarmupMB} MB (bar: 0, 0, 30 MB)`)
  process.exitCode = ok ? 0 : 1
} finally {
  await stop(child)
}
