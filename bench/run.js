#!/usr/bin/env node
// svc-mock benchmarks, against the built dist/ (`npm run bench` builds first). Loopback only; every
// load is bounded in time. Prints a table per section and writes the raw figures to
// bench/results/<timestamp>.json. See bench/README.md.
//
//   node bench/run.js [--only startup,throughput,reset,scale] [--duration 10] [--warmup 2]
//                     [--connections 20] [--rounds 2] [--runs 7] [--sizes 1000,10000,100000] [--lookups 5000]
//                     [--scale-timeout 90] [--scale-heap MB] [--reset-calls 2000] [--profile]
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { ROOT, gitCommit } from './lib/proc.js'
import { fmt, table } from './lib/stats.js'
import { measureReset } from './reset.js'
import { measureStartup } from './startup.js'
import { measureStoreScale } from './store-scale.js'
import { measureThroughput } from './throughput.js'

const BARS = {
  startupAimMs: 300,
  startupBarMs: 1000,
  throughputPercentOfBare: 30,
  resetMeanUs: 1000,
  lookupGrowthFactor: 2,
  generatedReadyMs: 5000,
}

const argv = process.argv.slice(2)
const flag = (name) => argv.includes(`--${name}`)
const opt = (name, fallback) => {
  const i = argv.indexOf(`--${name}`)
  return i >= 0 && argv[i + 1] !== undefined ? argv[i + 1] : fallback
}
const SECTIONS = ['startup', 'throughput', 'reset', 'scale']
const only = opt('only', SECTIONS.join(',')).split(',')
for (const s of only) {
  if (!SECTIONS.includes(s)) {
    console.error(`--only: unknown section "${s}" (sections: ${SECTIONS.join(', ')})`)
    process.exit(2)
  }
}

const stamp = new Date().toISOString().replace(/[:.]/g, '-')
const resultsDir = fileURLToPath(new URL('./results/', import.meta.url))
mkdirSync(resultsDir, { recursive: true })
const profileDir = flag('profile') ? join(resultsDir, `profiles-${stamp}`) : undefined
if (profileDir) mkdirSync(profileDir, { recursive: true })


const report = {
  startedAt: new Date().toISOString(),
  machine: { node: process.version, platform: `${os.platform()} ${os.release()}`, cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model, memoryMB: Math.round(os.totalmem() / 2 ** 20) },
  commit: gitCommit(),
  bars: BARS,
  verdicts: {},
  loadAverage: {},
  sections: {},
}
const t0 = performance.now()
console.log(`svc-mock bench: node ${process.version}, ${report.machine.cpus} CPUs (${report.machine.cpuModel}), commit ${report.commit ?? '?'}`)

const ms = (v) => `${fmt(v, 1)} ms`
const us = (v) => `${fmt(v, 1)} µs`
const MB = (bytes) => `${fmt(bytes / 2 ** 20, 1)} MB`
const verdict = (key, ok, text) => {
  report.verdicts[key] = { ok, text }
  console.log(`${ok ? 'ok    ' : 'MISSED'}  ${text}`)
}

async function section(name, fn) {
  if (!only.includes(name)) return
  const started = performance.now()
  const before = os.loadavg()[0]
  if (before > report.machine.cpus / 2) {
    console.log(`\n(warning: load average ${fmt(before, 2)} on ${report.machine.cpus} CPUs before "${name}": something else is busy, figures will be noisy)`)
  }
  try {
    await fn()
  } catch (error) {
    report.sections[name] = { error: String(error?.stack ?? error) }
    console.log(`\n${name}: FAILED: ${error?.message ?? error}`)
  }
  report.loadAverage[name] = { before, after: os.loadavg()[0] }
  console.log(`(${name}: ${fmt((performance.now() - started) / 1000, 1)} s; 1-minute load average ${fmt(before, 2)} before, ${fmt(report.loadAverage[name].after, 2)} after)`)
}

await section('startup', async () => {
  const runs = Number(opt('runs', '7'))
  const r = await measureStartup({ runs })
  report.sections.startup = r
  const row = (label, s) => [label, ms(s.min), ms(s.median), ms(s.max)]
  table(`1. Start-up, spawn to first answer (${runs} runs, after one untimed run)`, ['', 'min', 'median', 'max'], [
    row('svc-mock: first 200 of the versions GET', r.svcMock.firstAnswer),
    row('svc-mock: banner on stdout', r.svcMock.banner),
    row('bare node:http: first 200 (baseline)', r.bare.firstAnswer),
  ])
  const median = r.svcMock.firstAnswer.median
  verdict('startup', median < BARS.startupBarMs, `start-up median ${ms(median)}: bar well under ${BARS.startupBarMs} ms; aim ${BARS.startupAimMs} ms ${median <= BARS.startupAimMs ? 'met' : 'not met'}`)
})

await section('throughput', async () => {
  const r = await measureThroughput({
    connections: Number(opt('connections', '20')),
    duration: Number(opt('duration', '10')),
    warmup: Number(opt('warmup', '2')),
    rounds: Number(opt('rounds', '2')),
    profileDir,
  })
  report.sections.throughput = r
  const s = r.settings
  const row = (label, x, pct) => [
    label,
    fmt(x.requestsPerSecond, 0),
    ms(x.latencyMs.p50),
    ms(x.latencyMs.p99),
    ms(x.latencyMs.mean),
    `${fmt(x.serverCpuPercent, 0)}%`,
    us(x.serverCpuUsPerRequest),
    `${fmt(x.loadGeneratorCpuPercent, 0)}%`,
    String(x.requests - (x.statuses['200'] ?? 0) + x.errors + x.timeouts),
    pct === undefined ? '' : `${fmt(pct, 1)}%`,
  ]
  table(
    `2. Throughput: ${s.connections} keep-alive connections, ${s.duration} s each in ${s.rounds} alternating rounds, after a ${s.warmup} s warm-up (${s.tool}); versions answer ${r.response.bytes} bytes, query answer ${r.queryResponse.bytes} bytes`,
    ['', 'req/s', 'p50', 'p99', 'mean', 'server CPU', 'CPU/request', 'load gen CPU', 'non-200/errors', '% of bare'],
    [
      row('svc-mock: versions GET', r.svcMock, r.ratioPercent),
      row('bare node:http: same bytes', r.bare, 100),
      row('svc-mock: $select=name,author&$filter=state -ne \'expired\'', r.svcMockQuery, r.queryRatioPercent),
    ],
  )
  verdict('throughput', r.ratioPercent >= BARS.throughputPercentOfBare, `svc-mock versions GET at ${fmt(r.ratioPercent, 1)}% of bare node:http (bar: at least ${BARS.throughputPercentOfBare}%); by server CPU per request: ${fmt((100 * r.bare.serverCpuUsPerRequest) / r.svcMock.serverCpuUsPerRequest, 1)}%`)
  if (profileDir) console.log(`CPU profiles: svc-mock server pid ${r.pids.svcMock}, bare server pid ${r.pids.bare} (the pid is in each file name)`)
  const m = r.memory
  table('3. Memory of the svc-mock server process', ['', 'RSS', 'heap used', 'heap total', 'external'], [
    ['after start', MB(m.afterStart.rss), MB(m.afterStart.heapUsed), MB(m.afterStart.heapTotal), MB(m.afterStart.external)],
    ['after the load', MB(m.afterLoad.rss), MB(m.afterLoad.heapUsed), MB(m.afterLoad.heapTotal), MB(m.afterLoad.external)],
    ['after the load and a full GC', MB(m.afterLoadGc.rss), MB(m.afterLoadGc.heapUsed), MB(m.afterLoadGc.heapTotal), MB(m.afterLoadGc.external)],
  ])
})

await section('reset', async () => {
  const r = await measureReset({ calls: Number(opt('reset-calls', '2000')), profileDir })
  report.sections.reset = r
  const row = (label, x) => [label, us(x.mean), us(x.p50), us(x.p99), us(x.max)]
  table(`5. Reset, in-process, default fixtures (${r.elements} elements), ${r.calls} timed calls each`, ['', 'mean', 'p50', 'p99', 'max'], [
    row('nothing changed', r.unchangedUs),
    row('after one versions GET', r.afterRequestUs),
    row('after elements.add() of one element', r.afterAddUs),
  ])
  const worst = Math.max(r.unchangedUs.mean, r.afterRequestUs.mean, r.afterAddUs.mean)
  verdict('reset', worst < BARS.resetMeanUs && r.back, `reset mean at most ${us(worst)} (bar: under 1 ms)${r.back ? '' : '; the store did NOT return to the fixtures'}`)
})

await section('scale', async () => {
  const sizes = opt('sizes', '1000,10000,100000').split(',').map(Number)
  const lookups = Number(opt('lookups', '5000'))
  const timeoutMs = Number(opt('scale-timeout', '90')) * 1000
  const maxOldSpaceMB = opt('scale-heap', undefined)
  const results = await measureStoreScale({
    sizes,
    lookups,
    timeoutMs,
    maxOldSpaceMB,
    profileDir,
    onResult: (x) => console.log(`  N=${x.elements.toLocaleString('en-US')}: ${x.ok ? `ready in ${fmt(x.readyMs / 1000, 2)} s` : `FAILED after ${fmt(x.elapsedMs / 1000, 1)} s: ${x.reason}`}`),
  })
  report.sections.scale = { sizes, lookups, timeoutMs, maxOldSpaceMB: maxOldSpaceMB ?? 'node default', results }
  table(
    `4. Store scale: in-process buildEmulator with N generated elements${maxOldSpaceMB ? ` (--max-old-space-size=${maxOldSpaceMB})` : ' (default heap limit)'}; ${lookups} versions lookups of random elements each, through emulator.handle() and reading the body: "ready" = build + the first list of every element; heap after GC once listed; "first read" = an element no lookup asked for before (500 of them, once each), "stored" = the default answer from the stored bytes (500 elements, warmed), "rendered" = ?$select=name,version (parsed and reshaped)`,
    ['N', 'build', 'ready', 'heap used', 'peak RSS', 'first read p50', 'stored p50', 'stored p99', 'rendered p50', 'rendered p99', 'reset after add (median)'],
    results.map((x) =>
      x.ok
        ? [
            x.elements.toLocaleString('en-US'),
            `${fmt(x.buildMs / 1000, 2)} s`,
            `${fmt(x.readyMs / 1000, 2)} s`,
            `${fmt(x.heapUsedMB, 0)} MB`,
            `${fmt(x.peakRssMB, 0)} MB`,
            us(x.lookups.first.withBodyUs.p50),
            us(x.lookups.cached.withBodyUs.p50),
            us(x.lookups.cached.withBodyUs.p99),
            us(x.lookups.rendered.withBodyUs.p50),
            us(x.lookups.rendered.withBodyUs.p99),
            us(x.resetAfterAddUs.median),
          ]
        : [x.elements.toLocaleString('en-US'), `failed after ${fmt(x.elapsedMs / 1000, 1)} s`, '-', '-', `${fmt(x.peakRssMB, 0)} MB`, x.reason, '-', '-', '-', '-', '-'],
    ),
  )
  const ok = results.filter((x) => x.ok)
  const failed = results.filter((x) => !x.ok)
  if (ok.length >= 2) {
    const first = ok[0]
    const last = ok[ok.length - 1]
    const growth = (kind) => last.lookups[kind].withBodyUs.p50 / first.lookups[kind].withBodyUs.p50
    const flat = growth('cached') < BARS.lookupGrowthFactor && growth('rendered') < BARS.lookupGrowthFactor
    verdict(
      'lookupsFlat',
      flat && failed.length === 0,
      `lookup p50 from N=${first.elements} to N=${last.elements}: stored x${fmt(growth('cached'), 2)}, rendered x${fmt(growth('rendered'), 2)} (flat: under x${BARS.lookupGrowthFactor})${failed.length ? `; N=${failed.map((x) => x.elements).join(', ')} could not be built (${failed.map((x) => x.reason).join('; ')})` : ''}`,
    )
  } else if (failed.length) {
    verdict('lookupsFlat', false, `N=${failed.map((x) => x.elements).join(', ')} could not be built`)
  }
  const largest = results.find((x) => x.elements === 100_000)
  if (largest) {
    verdict('generatedReady', largest.ok && largest.readyMs < BARS.generatedReadyMs, `100,000 generated elements ready (built and listed) in ${largest.ok ? `${fmt(largest.readyMs / 1000, 2)} s` : `- (${largest.reason})`} (bar: under ${BARS.generatedReadyMs / 1000} s)`)
  }
})

report.totalSeconds = (performance.now() - t0) / 1000
if (profileDir) report.profiles = readdirSync(profileDir).map((f) => join(profileDir, f))
const file = join(resultsDir, `${stamp}.json`)
writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`)
console.log(`\nTotal ${fmt(report.totalSeconds, 1)} s. Raw figures: ${file}`)
if (profileDir) console.log(`CPU profiles in ${profileDir}; summarise one with: node bench/tools/profile-summary.js FILE`)
