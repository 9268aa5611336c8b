// Store scale: the in-process emulator (dist/index.js createEmulator) with N generated elements.
// For each N, in a fresh child process (`--expose-gc`, so heap figures are after a full GC): the
// time to build, then to list every element (the first need of generated elements: "ready" is
// both), heap and RSS, the latency of versions lookups of random generated elements through
// emulator.handle() (the first read of an element; the default answer of elements read before;
// a reshaped $select answer), and the cost of a reset after adding one element.
//   node --expose-gc bench/store-scale.js N [LOOKUPS]     (one size; prints JSON on stdout)
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { runNode } from './lib/proc.js'
import { mean, median, prng, summarize } from './lib/stats.js'

const SELF = fileURLToPath(import.meta.url)
const SEED_ELEMENT = '0f8fad5b-d9cb-469f-a165-70867728950e'
/** How many distinct elements the default-answer lookups use. */
const SAMPLE = 500

const gc = () => {
  if (typeof globalThis.gc === 'function') {
    globalThis.gc()
    globalThis.gc()
  }
}

async function child(n, lookups) {
  const { createEmulator: buildEmulator } = await import('../dist/index.js')
  gc()
  const heapBefore = process.memoryUsage().heapUsed
  const t0 = performance.now()
  const emulator = await buildEmulator({ fixtures: [{ generate: { elements: n } }], log: 'silent' })
  const buildMs = performance.now() - t0
  gc()
  const heapBuiltMB = (process.memoryUsage().heapUsed - heapBefore) / 2 ** 20

  const t1 = performance.now()
  const ids = emulator.elements
    .list({ facet: 'processes' })
    .map((e) => e.id)
    .filter((id) => id !== SEED_ELEMENT)
  const listMs = performance.now() - t1
  gc()
  const mem = process.memoryUsage()
  const versionsUrl = (id) => `${emulator.urls.base}/acme-collection/acme-tenant/_api/rest/facets/processes/views/default/elements/${id}/versions`
  const headers = { authorization: 'AppKey svcmock-app-key' }
  const random = prng(42)
  const pick = () => ids[Math.floor(random() * ids.length)]

  // Two kinds of lookup, both by a random generated element:
  //  - cached (shown as "stored"): the default answer, joined from the versions' stored JSON
  //    bytes; a fixed sample of elements is requested once first (the index lookup path);
  //  - rendered: with `$select=name,version`, so every call finds the versions, parses and
  //    reshapes them.
  const statuses = {}
  async function time(urls, count) {
    const handleUs = new Float64Array(count)
    const totalUs = new Float64Array(count)
    for (let i = 0; i < count; i++) {
      const request = new Request(urls(), { headers })
      const t = performance.now()
      const response = await emulator.handle(request)
      const th = performance.now()
      await response.arrayBuffer()
      const tb = performance.now()
      statuses[response.status] = (statuses[response.status] ?? 0) + 1
      handleUs[i] = (th - t) * 1000
      totalUs[i] = (tb - t) * 1000
    }
    return { handleUs: summarize(handleUs), withBodyUs: summarize(totalUs) }
  }
  // First reads: elements no lookup asked for before (each once).
  const unread = [...new Set(Array.from({ length: Math.min(SAMPLE, ids.length) }, pick))]
  const first = await time(() => versionsUrl(unread.pop()), Math.min(SAMPLE, ids.length, unread.length))
  const sample = Array.from({ length: Math.min(SAMPLE, ids.length) }, pick)
  const cachedUrl = () => versionsUrl(sample[Math.floor(random() * sample.length)])
  const renderedUrl = () => `${versionsUrl(pick())}?$select=name,version`
  for (const id of sample) await (await emulator.handle(new Request(versionsUrl(id), { headers }))).arrayBuffer()
  await time(cachedUrl, Math.min(1000, lookups))
  await time(renderedUrl, Math.min(1000, lookups))
  gc()
  const cached = await time(cachedUrl, lookups)
  gc()
  const rendered = await time(renderedUrl, lookups)

  // Reset after one change, at this size (the bar for the default fixtures is in bench/reset.js).
  const resetUs = []
  for (let i = 0; i < 20; i++) {
    await emulator.elements.add({ storage: 'acme-collection/acme-tenant', facet: 'processes', type: 'process', versions: [{ state: 'released' }] })
    const t = performance.now()
    await emulator.reset()
    resetUs.push((performance.now() - t) * 1000)
  }
  await emulator.close()

  return {
    elements: n,
    storeElements: ids.length + 1,
    buildMs,
    listMs,
    readyMs: buildMs + listMs,
    heapBuiltMB,
    heapUsedMB: (mem.heapUsed - heapBefore) / 2 ** 20,
    heapUsedTotalMB: mem.heapUsed / 2 ** 20,
    rssMB: mem.rss / 2 ** 20,
    lookups: { count: lookups, sample: sample.length, statuses, first, cached, rendered },
    resetAfterAddUs: { mean: mean(resetUs), median: median(resetUs), max: Math.max(...resetUs) },
  }
}

/** Peak RSS of a child process so far, from /proc (Linux); undefined elsewhere. */
function rssOf(pid) {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
    return m ? Number(m[1]) / 1024 : undefined
  } catch {
    return undefined
  }
}

/** Runs each size in its own process with a time limit; a size that fails is reported, not fatal. */
export async function measureStoreScale({ sizes = [1_000, 10_000, 100_000], lookups = 5_000, timeoutMs = 90_000, maxOldSpaceMB, profileDir, onResult } = {}) {
  const results = []
  for (const n of sizes) {
    const args = ['--expose-gc']
    if (maxOldSpaceMB) args.push(`--max-old-space-size=${maxOldSpaceMB}`)
    if (profileDir) args.push('--cpu-prof', `--cpu-prof-dir=${profileDir}`)
    args.push(SELF, String(n), String(lookups))
    const run = await runNode(args, { timeoutMs, watchRss: rssOf })
    const last = run.stdout.trim().split('\n').pop()
    let result
    if (run.code === 0 && last?.startsWith('{')) {
      result = { ...JSON.parse(last), ok: true, peakRssMB: run.peakRssMB }
    } else {
      const oom = /heap out of memory|Allocation failed/i.test(run.stderr)
      const errorLine = run.stderr.split('\n').find((line) => /^\w*Error\b|^Error:/.test(line.trim()))
      result = {
        elements: n,
        ok: false,
        reason: run.timedOut ? `killed after the ${timeoutMs / 1000} s time limit` : oom ? 'JavaScript heap out of memory' : `exit code ${run.code}, signal ${run.signal}${errorLine ? `: ${errorLine.trim()}` : ''}`,
        elapsedMs: run.ms,
        peakRssMB: run.peakRssMB,
        stderrTail: run.stderr.trim().split('\n').slice(-6).join('\n'),
      }
    }
    results.push(result)
    onResult?.(result)
  }
  return results
}

if (process.argv[1] === SELF) {
  const n = Number(process.argv[2] ?? 1000)
  const lookups = Number(process.argv[3] ?? 5000)
  process.stdout.write(`${JSON.stringify(await child(n, lookups))}\n`)
}
