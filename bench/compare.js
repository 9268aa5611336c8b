#!/usr/bin/env node
// svc-mock side by side with its references (issue 11, "Proof"): a hand-written msw handler, a bare
// node:http server answering the same bytes, oauth2-mock-server, WireMock and Prism. Every row is
// measured in one run, systems interleaved A, B, A, B, … in rounds, ratios taken within a round,
// the median of per-round ratios reported with the raw medians. Servers are pinned to CPU 0, this
// process (the load generator) to CPU 1, when taskset exists. Only the public surface is used: the
// CLI (package.json "bin"), the packed tarball in a scratch consumer, HTTP. See bench/README.md.
//
//   npm run bench:compare [-- --quick] [-- --only vitest,fresh,inproc,coldstart,versions,webhook,token,memory]
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { gitCommit } from './lib/proc.js'
import { fmt, median, table } from './lib/stats.js'
import { measureFresh, measureInproc, measureVitest, prepareConsumer } from './compare/consumer.js'
import { loadAverage, machine, pinning, pinSelf, ROOT, rssMB, sleep } from './compare/env.js'
import {
  captureReference,
  oauth2MockServerCli,
  PEER_PACKAGES,
  preparePrism,
  prepareWiremock,
  request,
  sameBytes,
  startBare,
  startBareWebhook,
  startBareToken,
  startOauth2MockServer,
  startOauth2MockServerCli,
  startPrism,
  startSvcMock,
  startWiremock,
  TOKEN_BODY,
  TOKEN_HEADERS,
  VERSIONS_HEADERS,
  VERSIONS_PATH,
  WEBHOOK_BODY,
  WEBHOOK_HEADERS,
  WEBHOOK_PATH,
  WORK_DIR,
  writeBareRoutes,
} from './compare/servers.js'
import { interleave, load, roundRatio } from './compare/socket.js'

const SECTIONS = ['vitest', 'fresh', 'inproc', 'coldstart', 'versions', 'webhook', 'token', 'memory']
const { values: args } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    only: { type: 'string' },
    rounds: { type: 'string' },
    duration: { type: 'string' },
    warmup: { type: 'string' },
    connections: { type: 'string', default: '20' },
    'cold-runs': { type: 'string' },
    'vitest-rounds': { type: 'string' },
    'fresh-rounds': { type: 'string' },
    'inproc-seconds': { type: 'string' },
    'memory-seconds': { type: 'string' },
    help: { type: 'boolean', short: 'h', default: false },
  },
})
if (args.help) {
  console.log(`node bench/compare.js [--quick] [--only ${SECTIONS.join(',')}] [--rounds N] [--duration S] [--warmup S]
  [--connections 20] [--cold-runs N] [--vitest-rounds N] [--fresh-rounds N] [--inproc-seconds S] [--memory-seconds S]
("cpu" in --only means versions,webhook: row 8 comes from their runs.) See bench/README.md.`)
  process.exit(0)
}
const only = (args.only ?? SECTIONS.join(','))
  .split(',')
  .map((s) => s.trim())
  .filter(Boolean)
  .flatMap((s) => (s === 'cpu' ? ['versions', 'webhook'] : [s]))
for (const s of only) {
  if (!SECTIONS.includes(s)) {
    console.error(`--only: unknown section "${s}" (sections: ${SECTIONS.join(', ')}, or cpu)`)
    process.exit(2)
  }
}
const num = (name, full, quick) => Number(args[name] ?? (args.quick ? quick : full))
const S = {
  quick: args.quick,
  rounds: num('rounds', 3, 2),
  duration: num('duration', 5, 1.5),
  warmup: num('warmup', 2, 0.5),
  jvmWarmupFactor: 3,
  connections: num('connections', 20, 20),
  coldRuns: num('cold-runs', 7, 2),
  // Row 1 subtracts vitest's own cost from runs of ~4 s: one noisy run moves a round's ratio by
  // 0.2-0.5, so it takes more rounds than the others to give a median worth reading.
  vitestRounds: num('vitest-rounds', 8, 1),
  freshRounds: num('fresh-rounds', 10, 3),
  inprocSeconds: num('inproc-seconds', 2, 0.5),
  memorySeconds: num('memory-seconds', 30, 8),
  maxRequests: 2_000_000,
}
S.inprocRounds = S.rounds
S.memoryWarmupSeconds = Math.min(10, Math.round(S.memorySeconds / 3))

// The bars: product.md's quality bars (raised for issues 23-27: every surface at least half a bare
// server's requests/s, tokens against a bare server that signs the same claims, cold start within
// 2x bare on Node.js 22+ and 2.5x on Node.js 20), and issue 11's against the peers.
const BARS = {
  vitestPerFile: 1.25,
  fresh: 1.25,
  mswVsHand: 1,
  coldVsBare: Number(process.versions.node.split('.')[0]) >= 22 ? 2 : 2.5,
  coldVsOauth2MockServer: 1,
  versionsVsBare: 0.5,
  webhookVsBare: 0.5,
  tokenVsFloor: 0.5,
  webhookVsWiremock: 2,
  aheadOfPeer: 1,
  p99VsBare: 5,
  tokenVsOauth2MockServer: 2.5,
  rssIdleMB: 70,
  rssGrowthAfterWarmupMB: 30,
}

const stamp = new Date().toISOString().replace(/[:.]/g, '-')
const resultsDir = fileURLToPath(new URL('./results/', import.meta.url))
mkdirSync(resultsDir, { recursive: true })
mkdirSync(WORK_DIR, { recursive: true })


const pinned = pinSelf()
const report = { startedAt: new Date().toISOString(), machine, commit: gitCommit(), settings: { ...S, only, pinned, pinning }, bars: BARS, sections: {}, rows: [], loadAverage: {}, notRun: {} }
const t0 = performance.now()
const log = (m) => console.log(m)
console.log(
  `svc-mock bench:compare: node ${process.version}, ${machine.cpus} CPUs (${machine.cpuModel}), commit ${report.commit ?? '?'}${S.quick ? ', --quick' : ''}\n` +
    (pinned ? `servers and in-process children pinned to CPU ${pinning.server}, load generator (this process) to CPU ${pinning.loadGenerator}; vitest on CPUs ${pinning.all}` : 'NOT pinned (taskset missing or a single CPU): figures are noisier'),
)

const ms = (v) => (Number.isFinite(v) ? `${fmt(v, v < 10 ? 2 : 0)} ms` : '-')
const us = (v) => (Number.isFinite(v) ? `${fmt(v, 0)} µs` : '-')
const rps = (v) => (Number.isFinite(v) ? `${fmt(v / 1000, v < 10_000 ? 2 : 1)}k/s` : '-')
const MB = (v) => (Number.isFinite(v) ? `${fmt(v, 0)} MB` : '-')
const x = (v) => (Number.isFinite(v) ? `${fmt(v, 2)}×` : '-')

/** One row of the final table. `ok`: true/false against the bar, or undefined for information. */
function row(n, measure, svc, reference, ratio, bar, ok) {
  report.rows.push({ n, measure, svc, reference, ratio, bar, verdict: ok === undefined ? 'info' : ok ? 'ok' : 'MISSED' })
}
function notRun(n, measure, why) {
  report.rows.push({ n, measure, svc: '-', reference: '-', ratio: '-', bar: '-', verdict: `not run: ${why}` })
}

async function section(name, fn) {
  if (!only.includes(name)) return
  const started = performance.now()
  const before = loadAverage()
  console.log(`\n== ${name}${before > machine.cpus / 2 ? ` (warning: load average ${fmt(before, 2)} on ${machine.cpus} CPUs: something else is busy, figures will be noisy)` : ''}`)
  try {
    await fn()
  } catch (error) {
    report.sections[name] = { ...report.sections[name], error: String(error?.stack ?? error) }
    console.log(`${name}: FAILED: ${error?.message ?? error}`)
    report.notRun[name] = error?.message ?? String(error)
  }
  report.loadAverage[name] = { before, after: loadAverage(), seconds: (performance.now() - started) / 1000 }
  console.log(`(${name}: ${fmt((performance.now() - started) / 1000, 1)} s; 1-minute load average ${fmt(before, 2)} before, ${fmt(loadAverage(), 2)} after)`)
}

// ---- shared set-up: svc-mock's own answers, the bare server's routes, the peers

const needsSockets = ['coldstart', 'versions', 'webhook', 'token', 'memory'].some((s) => only.includes(s))
let reference
let bareRoutes
const peers = {}
const peerErrors = {}
if (needsSockets) {
  reference = await captureReference()
  bareRoutes = writeBareRoutes(reference, join(WORK_DIR, 'bare-routes.json'))
  report.reference = Object.fromEntries(Object.entries(reference).map(([k, r]) => [k, { status: r.status, headers: r.headers, bytes: r.body.length }]))
  if (['coldstart', 'versions', 'webhook'].some((s) => only.includes(s))) {
    try {
      peers.wiremock = await prepareWiremock(reference, log)
    } catch (error) {
      peerErrors.wiremock = error.message
      console.log(`WireMock unavailable: ${error.message}`)
    }
  }
  if (['coldstart', 'versions'].some((s) => only.includes(s))) {
    try {
      peers.prism = await preparePrism(reference, log)
    } catch (error) {
      peerErrors.prism = error.message
      console.log(`Prism unavailable: ${error.message}`)
    }
  }
  report.peers = {
    wiremock: peers.wiremock ? { version: peers.wiremock.version, java: peers.wiremock.java } : { error: peerErrors.wiremock, wanted: PEER_PACKAGES.wiremock },
    prism: peers.prism ? { version: peers.prism.version } : { error: peerErrors.prism, wanted: PEER_PACKAGES.prism },
    oauth2MockServer: { version: oauth2MockServerCli().version },
  }
}

/** Starts every server of a row, checks each answers what it must, notes its idle RSS. */
async function startAll(specs) {
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
const stopAll = async (servers) => {
  for (const s of servers) await s.stop()
}
const bodyCheck = (ref) => (r) => (r.status !== ref.status ? `status ${r.status || r.error}` : !sameBytes(r.body, ref.body) ? `body differs (${r.body.length} bytes, svc-mock ${ref.body.length})` : undefined)
const warmupFor = (t) => (t.jvm ? S.warmup * S.jvmWarmupFactor : S.warmup)
const loadOptions = () => ({ rounds: S.rounds, duration: S.duration, warmup: S.warmup, connections: S.connections, maxRequests: S.maxRequests, log, warmupFor })

function socketTable(title, results) {
  table(
    title,
    ['', 'req/s', 'p50', 'p99', 'server CPU/req', 'load gen CPU', 'idle RSS', 'bad answers'],
    results.map((r) => [r.label, fmt(r.rps, 0), ms(r.p50), ms(r.p99), us(r.cpuUs), `${fmt(r.loadGeneratorCpuPercent, 0)}%`, MB(r.idleRssMB), String(r.unexpected)]),
  )
}

// ---- rows 2 and 3: a fresh process, steady state in-process; row 1: 10 vitest files (after them:
// the file cache is warm)

let consumer
async function ensureConsumer() {
  if (!consumer) {
    consumer = await prepareConsumer(log)
    report.consumer = consumer
    console.log(`scratch consumer ${consumer.dir}: ${consumer.tarball} (npm pack of this tree, ${consumer.tarballFiles} files)${consumer.reinstalled ? ', installed now' : ', reused'}; ${Object.entries(consumer.versions).map(([k, v]) => `${k} ${v}`).join(', ')}`)
  }
  return consumer
}

await section('fresh', async () => {
  await ensureConsumer()
  const r = await measureFresh({ rounds: S.freshRounds, log })
  report.sections.fresh = r
  const marks = (m) => [ms(m.imported), ms(m.created), ms(m.listening), ms(m.answered)]
  table(`2. Fresh process, spawn to exit (median of ${r.rounds} rounds); marks inside the process (ms since it began, then each step)`, ['', 'spawn to exit', 'imports', 'create', 'listen', 'first answer'], [
    ['svc-mock: import + createEmulator + setupServer + first versions answer', ms(r.emuMs), ...marks(r.emuMarks)],
    ['hand-written msw handler, same bytes', ms(r.handMs), ...marks(r.handMarks)],
    ['node -e 0', ms(r.nodeMs), '-', '-', '-', '-'],
  ])
})

await section('inproc', async () => {
  await ensureConsumer()
  const r = await measureInproc({ rounds: S.inprocRounds, seconds: S.inprocSeconds, warmupSeconds: Math.max(0.5, S.inprocSeconds / 2), log })
  report.sections.inproc = r
  table(`3. In-process steady state: sequential versions GETs (answer and body awaited), ${r.seconds} s per system per round, median of ${r.rounds} rounds`, ['', 'req/s', 'p50', 'p99', 'bytes'], [
    ['svc-mock through msw fetch', fmt(r.emuMsw.rps, 0), us(r.emuMsw.p50Us), us(r.emuMsw.p99Us), String(r.bytes['emu-msw'])],
    ['hand-written msw handler, same bytes', fmt(r.handMsw.rps, 0), us(r.handMsw.p50Us), us(r.handMsw.p99Us), String(r.bytes['hand-msw'])],
    ['svc-mock emu.handle(new Request(...))', fmt(r.emuHandle.rps, 0), us(r.emuHandle.p50Us), us(r.emuHandle.p99Us), String(r.bytes['emu-handle'])],
  ])
})

await section('vitest', async () => {
  await ensureConsumer()
  const r = await measureVitest({ rounds: S.vitestRounds, log })
  report.sections.vitest = r
  table(`1. 10 vitest files, \`vitest run\` spawn to exit (median of ${r.rounds} rounds)`, ['', 'wall', 'extra per file'], [
    ['svc-mock through msw (setupServer(...emu.handlers))', ms(r.emuMs), ms(r.emuPerFileMs)],
    ['hand-written msw handler, same bytes', ms(r.handMs), ms(r.handPerFileMs)],
    ['10 trivial files (vitest alone)', ms(r.baseMs), '-'],
  ])
})

// ---- row 4: cold start

await section('coldstart', async () => {
  const systems = [
    { label: 'svc-mock', start: () => startSvcMock() },
    { label: 'bare node:http', start: () => startBare(bareRoutes) },
    { label: 'oauth2-mock-server', start: () => startOauth2MockServerCli() },
    { label: 'WireMock', start: () => startWiremock(peers.wiremock), unavailable: peerErrors.wiremock },
    { label: 'Prism', start: () => startPrism(peers.prism), unavailable: peerErrors.prism },
  ]
  const live = systems.filter((s) => !s.unavailable)
  const once = async (s) => {
    const server = await s.start()
    const t = server.timings.firstAnswer
    await server.stop()
    return t
  }
  for (const s of live) await once(s) // untimed: file cache, the JVM's class data
  for (const s of live) s.samples = []
  for (let round = 0; round < S.coldRuns; round++) {
    for (const s of live) s.samples.push(await once(s))
    log(`    round ${round + 1}/${S.coldRuns}: ${live.map((s) => `${s.label} ${s.samples[round].toFixed(0)} ms`).join(', ')}`)
  }
  const svc = live[0]
  const ratioTo = (other) => median(svc.samples.map((v, i) => v / other.samples[i]))
  for (const s of live) {
    s.median = median(s.samples)
    s.ratio = ratioTo(s)
  }
  report.sections.coldstart = { runs: S.coldRuns, systems: systems.map((s) => ({ label: s.label, samples: s.samples, median: s.median, svcMockRatio: s.ratio, unavailable: s.unavailable })) }
  table(`4. Cold start, spawn to first 200 (svc-mock, bare, WireMock, Prism: the versions GET; oauth2-mock-server: its discovery document); ${S.coldRuns} rounds after one untimed run`, ['', 'median', 'min', 'max', 'svc-mock ÷ this'], systems.map((s) => (s.unavailable ? [s.label, 'not run', '-', '-', '-'] : [s.label, ms(s.median), ms(Math.min(...s.samples)), ms(Math.max(...s.samples)), x(s.ratio)])))
})

// ---- rows 5 and 6: versions GET and webhook POST over sockets

const versionsRequest = { path: VERSIONS_PATH, method: 'GET', headers: VERSIONS_HEADERS }
const webhookRequest = { path: WEBHOOK_PATH, method: 'POST', headers: WEBHOOK_HEADERS, body: WEBHOOK_BODY }

await section('versions', async () => {
  const specs = [
    { label: 'svc-mock', start: () => startSvcMock() },
    { label: 'bare node:http', start: () => startBare(bareRoutes) },
    { label: 'WireMock', start: () => startWiremock(peers.wiremock), unavailable: peerErrors.wiremock, jvm: true },
    { label: 'Prism', start: () => startPrism(peers.prism), unavailable: peerErrors.prism },
  ].map((s) => ({ ...s, request: versionsRequest, check: bodyCheck(reference.versions) }))
  const servers = await startAll(specs)
  try {
    const live = specs.filter((s) => s.server)
    const results = await interleave(live, loadOptions())
    results.forEach((r, i) => (r.idleRssMB = live[i].idleRssMB))
    report.sections.versions = { bytes: reference.versions.body.length, results }
    socketTable(`5. Versions GET (${reference.versions.body.length} bytes), ${S.connections} keep-alive connections, ${S.duration} s per system per round, ${S.rounds} rounds (medians)`, results)
  } finally {
    await stopAll(servers)
  }
})

await section('webhook', async () => {
  const specs = [
    { label: 'svc-mock', start: () => startSvcMock() },
    { label: 'bare node:http', start: () => startBare(bareRoutes) },
    { label: 'WireMock', start: () => startWiremock(peers.wiremock), unavailable: peerErrors.wiremock, jvm: true },
    { label: 'bare receiver', start: () => startBareWebhook(bareRoutes) },
  ].map((s) => ({ ...s, request: webhookRequest, check: bodyCheck(reference.webhook) }))
  const servers = await startAll(specs)
  try {
    const live = specs.filter((s) => s.server)
    const results = await interleave(live, loadOptions())
    results.forEach((r, i) => (r.idleRssMB = live[i].idleRssMB))
    report.sections.webhook = { results }
    socketTable(`6. Webhook POST ${WEBHOOK_PATH} ${WEBHOOK_BODY} (answer 200 Accepted), ${S.connections} connections, ${S.duration} s per system per round, ${S.rounds} rounds (medians)`, results)
  } finally {
    await stopAll(servers)
  }
})

// ---- row 7: token endpoint

const jwtAlg = (r) => {
  try {
    return JSON.parse(Buffer.from(JSON.parse(r.body.toString()).access_token.split('.')[0], 'base64url').toString()).alg
  } catch {
    return undefined
  }
}

await section('token', async () => {
  report.sections.token = {}
  for (const alg of ['RS256', 'ES256']) {
    const tokenCheck = (r) => (r.status !== 200 ? `status ${r.status || r.error}: ${r.body}` : jwtAlg(r) !== alg ? `signed with ${jwtAlg(r)}, not ${alg}` : undefined)
    const specs = [
      { label: `svc-mock ${alg}`, start: () => startSvcMock({ tokenAlgorithm: alg }), request: { path: '/oauth2/token', method: 'POST', headers: TOKEN_HEADERS, body: TOKEN_BODY } },
      { label: `oauth2-mock-server ${alg}`, start: () => startOauth2MockServer(alg), request: { path: '/token', method: 'POST', headers: TOKEN_HEADERS, body: TOKEN_BODY } },
      { label: `bare node:http ${alg} (floor)`, start: () => startBareToken(alg), request: { path: '/token', method: 'POST', headers: TOKEN_HEADERS, body: TOKEN_BODY } },
    ].map((s) => ({ ...s, check: tokenCheck }))
    const servers = await startAll(specs)
    try {
      const results = await interleave(specs, loadOptions())
      results.forEach((r, i) => (r.idleRssMB = specs[i].idleRssMB))
      report.sections.token[alg] = { results }
      socketTable(`7. Token, client credentials (ci-client, Basic), ${alg}, ${S.connections} connections, ${S.duration} s per system per round, ${S.rounds} rounds (medians)`, results)
    } finally {
      await stopAll(servers)
    }
  }
})

// ---- row 9: memory under mixed load

await section('memory', async () => {
  const mixed = [
    { method: 'POST', path: '/oauth2/token', headers: TOKEN_HEADERS, body: TOKEN_BODY },
    { method: 'GET', path: VERSIONS_PATH, headers: VERSIONS_HEADERS },
    { method: 'POST', path: WEBHOOK_PATH, headers: WEBHOOK_HEADERS, body: WEBHOOK_BODY },
  ]
  const out = {}
  for (const [label, start] of [
    ['svc-mock', () => startSvcMock()],
    ['bare node:http', () => startBare(bareRoutes)],
  ]) {
    const server = await start()
    try {
      await sleep(1000)
      const idle = rssMB(server.pid)
      const samples = []
      const t = performance.now()
      const sampler = setInterval(() => samples.push({ s: (performance.now() - t) / 1000, rss: rssMB(server.pid) }), 1000)
      const run = await load({ url: server.url, requests: mixed, connections: S.connections, duration: S.memorySeconds, maxRequests: 10_000_000 })
      clearInterval(sampler)
      const end = rssMB(server.pid)
      const afterWarmup = samples.find((p) => p.s >= S.memoryWarmupSeconds)?.rss ?? NaN
      const peak = Math.max(...samples.map((p) => p.rss), end)
      const bad = run.latencies.length - (run.statuses[200] ?? 0) + run.errors + run.timeouts
      out[label] = { idle, afterWarmup, peak, end, growthAfterWarmup: end - afterWarmup, requests: run.latencies.length, rps: run.latencies.length / run.seconds, bad, statuses: run.statuses, samples }
      log(`    ${label}: idle ${idle.toFixed(1)} MB, after ${S.memoryWarmupSeconds} s ${afterWarmup.toFixed(1)} MB, peak ${peak.toFixed(1)} MB, end ${end.toFixed(1)} MB (${run.latencies.length} requests, ${bad} bad answers)`)
    } finally {
      await server.stop()
    }
  }
  report.sections.memory = { seconds: S.memorySeconds, warmupSeconds: S.memoryWarmupSeconds, mix: 'token (RS256), versions GET, webhook POST in turn on each connection', ...out }
  table(`9. RSS (/proc VmRSS): idle 1 s after the first answer, then ${S.memorySeconds} s of mixed load (token, versions, webhook in turn, ${S.connections} connections)`, ['', 'idle', `after ${S.memoryWarmupSeconds} s`, 'peak', 'end', 'growth after warm-up', 'req/s', 'bad answers'], Object.entries(out).map(([label, m]) => [label, MB(m.idle), MB(m.afterWarmup), MB(m.peak), MB(m.end), MB(m.growthAfterWarmup), fmt(m.rps, 0), String(m.bad)]))
})

// ---- the comparison table

function buildRows() {
  const sec = report.sections
  const failed = (name) => report.notRun[name]
  // 1
  if (sec.vitest && !failed('vitest')) {
    const r = sec.vitest
    row(1, '10 vitest files through msw: extra wall time per file', ms(r.emuPerFileMs), `hand-written msw ${ms(r.handPerFileMs)} (above ${ms(r.baseMs / 10)}/file of vitest alone)`, x(r.perFileRatio), `≤ ${BARS.vitestPerFile}×`, r.perFileRatio <= BARS.vitestPerFile)
    row(1, '10 vitest files: whole `vitest run`, spawn to exit', ms(r.emuMs), `hand-written msw ${ms(r.handMs)}`, x(r.wallRatio), `≤ ${BARS.vitestPerFile}×`, r.wallRatio <= BARS.vitestPerFile)
  } else if (only.includes('vitest')) notRun(1, '10 vitest files', failed('vitest'))
  // 2
  if (sec.fresh && !failed('fresh')) {
    const r = sec.fresh
    row(2, 'fresh process: import + createEmulator + msw + first answer', ms(r.emuMs), `hand-written msw ${ms(r.handMs)} (node alone ${ms(r.nodeMs)})`, x(r.ratio), `≤ ${BARS.fresh}×`, r.ratio <= BARS.fresh)
  } else if (only.includes('fresh')) notRun(2, 'fresh process', failed('fresh'))
  // 3
  if (sec.inproc && !failed('inproc')) {
    const r = sec.inproc
    row(3, 'in-process req/s through msw fetch', rps(r.emuMsw.rps), `hand-written msw ${rps(r.handMsw.rps)}`, x(r.mswRatio), `≥ ${BARS.mswVsHand}×`, r.mswRatio >= BARS.mswVsHand)
    row(3, 'in-process req/s, emu.handle() alone', rps(r.emuHandle.rps), `svc-mock through msw ${rps(r.emuMsw.rps)}; hand-written msw ${rps(r.handMsw.rps)} (${x(r.handleRatio)})`, x(r.handleVsMsw), '> 1× ("faster still")', r.handleVsMsw > 1 && r.handleRatio > 1)
  } else if (only.includes('inproc')) notRun(3, 'in-process steady state', failed('inproc'))
  // 4
  if (sec.coldstart && !failed('coldstart')) {
    const systems = sec.coldstart.systems
    const svc = systems[0]
    const other = (label) => systems.find((s) => s.label === label)
    const bare = other('bare node:http')
    row(4, 'cold start, spawn to first 200', ms(svc.median), `bare node:http ${ms(bare.median)}`, x(bare.svcMockRatio), `≤ ${BARS.coldVsBare}×`, bare.svcMockRatio <= BARS.coldVsBare)
    const o2 = other('oauth2-mock-server')
    row(4, 'cold start vs oauth2-mock-server', ms(svc.median), `oauth2-mock-server ${ms(o2.median)}`, x(o2.svcMockRatio), '< 1× (below it)', o2.svcMockRatio < BARS.coldVsOauth2MockServer)
    for (const label of ['WireMock', 'Prism']) {
      const p = other(label)
      if (p.unavailable) notRun(4, `cold start vs ${label}`, p.unavailable)
      else row(4, `cold start vs ${label}`, ms(svc.median), `${label} ${ms(p.median)}`, x(p.svcMockRatio), '-', undefined)
    }
  } else if (only.includes('coldstart')) notRun(4, 'cold start', failed('coldstart'))
  // 5, 6, 8
  const socketRows = (n, name, results, vsBareBar, peerBars) => {
    const [svc, bare] = results
    const r = roundRatio(svc, bare)
    row(n, `${name} req/s vs bare (same bytes)`, `${fmt(svc.rps, 0)}/s`, `bare ${fmt(bare.rps, 0)}/s`, x(r), `≥ ${vsBareBar}× (${Math.round(vsBareBar * 100)}%)`, r >= vsBareBar)
    const p99 = roundRatio(svc, bare, 'p99')
    row(n, `${name} p50 / p99 vs bare`, `${ms(svc.p50)} / ${ms(svc.p99)}`, `bare ${ms(bare.p50)} / ${ms(bare.p99)}`, `p99 ${x(p99)}`, `p99 ≤ ${BARS.p99VsBare}×`, p99 <= BARS.p99VsBare)
    for (const [label, bar, barText] of peerBars) {
      const peer = results.find((p) => p.label === label)
      if (!peer) {
        notRun(n, `${name} vs ${label}`, peerErrors[label.toLowerCase()] ?? 'not started')
        continue
      }
      const pr = roundRatio(svc, peer)
      row(n, `${name} req/s vs ${label}`, `${fmt(svc.rps, 0)}/s`, `${label} ${fmt(peer.rps, 0)}/s (p50 ${ms(peer.p50)}, p99 ${ms(peer.p99)})`, x(pr), barText, pr >= bar && (bar > 1 || pr > 1))
    }
  }
  if (sec.versions && !failed('versions')) {
    socketRows(5, 'versions GET', sec.versions.results, BARS.versionsVsBare, [
      ['WireMock', BARS.aheadOfPeer, '> 1× (ahead of every peer)'],
      ['Prism', BARS.aheadOfPeer, '> 1× (ahead of every peer)'],
    ])
  } else if (only.includes('versions')) notRun(5, 'versions GET', failed('versions'))
  if (sec.webhook && !failed('webhook')) {
    socketRows(6, 'webhook POST', sec.webhook.results, BARS.webhookVsBare, [['WireMock', BARS.webhookVsWiremock, `≥ ${BARS.webhookVsWiremock}×`]])
    // For information: a receiver written by hand for this one call (parse, check, keep a record).
    const [svc] = sec.webhook.results
    const receiver = sec.webhook.results.find((p) => p.label === 'bare receiver')
    if (svc && receiver) {
      row(6, 'webhook POST req/s vs a bare receiver doing the work by hand', `${fmt(svc.rps, 0)}/s`, `receiver ${fmt(receiver.rps, 0)}/s (parses, checks orderId, keeps 10,000 records)`, x(roundRatio(svc, receiver)))
    }
  } else if (only.includes('webhook')) notRun(6, 'webhook POST', failed('webhook'))
  // 7
  if (sec.token && !failed('token')) {
    for (const alg of ['RS256', 'ES256']) {
      const t = sec.token[alg]
      if (!t) continue
      const [svc, o2] = t.results
      const r = roundRatio(svc, o2)
      row(7, `token, client credentials, ${alg}`, `${fmt(svc.rps, 0)}/s (p99 ${ms(svc.p99)})`, `oauth2-mock-server ${fmt(o2.rps, 0)}/s (p99 ${ms(o2.p99)})`, x(r), `≥ ${BARS.tokenVsOauth2MockServer}×`, r >= BARS.tokenVsOauth2MockServer)
      const floor = t.results[2]
      // The floor's own ratio to the peer is the most any server could show in this run; svc-mock's
      // ratio to the floor is product.md's bar for tokens.
      if (floor) {
        const vsFloor = roundRatio(svc, floor)
        row(7, `token vs the floor (bare node:http signing the same claims), ${alg}`, `${fmt(svc.rps, 0)}/s`, `floor ${fmt(floor.rps, 0)}/s (floor ÷ oauth2-mock-server ${x(roundRatio(floor, o2))})`, x(vsFloor), `≥ ${BARS.tokenVsFloor}×`, vsFloor >= BARS.tokenVsFloor)
      }
    }
  } else if (only.includes('token')) notRun(7, 'token', failed('token'))
  // 8: from the runs of rows 5 and 6; the bars are rows 5 and 6's, by CPU instead of req/s.
  for (const [name, key, bar] of [
    ['versions GET', 'versions', BARS.versionsVsBare],
    ['webhook POST', 'webhook', BARS.webhookVsBare],
  ]) {
    const s = sec[key]
    if (!s || failed(key)) continue
    const [svc, bare] = s.results
    const r = roundRatio(svc, bare, 'serverCpuUsPerRequest')
    const peersText = s.results.slice(2).map((p) => `; ${p.label} ${us(p.cpuUs)}`).join('')
    row(8, `server CPU per ${name}`, us(svc.cpuUs), `bare ${us(bare.cpuUs)}${peersText}`, x(r), `≤ ${fmt(1 / bar, 1)}× (row ${key === 'versions' ? 5 : 6}'s bar by CPU)`, r <= 1 / bar)
  }
  if (sec.token && !failed('token')) {
    for (const alg of ['RS256', 'ES256']) {
      const t = sec.token[alg]
      if (t) row(8, `server CPU per token, ${alg}`, us(t.results[0].cpuUs), `oauth2-mock-server ${us(t.results[1].cpuUs)}${t.results[2] ? `; floor ${us(t.results[2].cpuUs)}` : ''}`, x(roundRatio(t.results[0], t.results[1], 'serverCpuUsPerRequest')), '-', undefined)
    }
  }
  // 9
  if (sec.memory && !failed('memory')) {
    const m = sec.memory
    const svc = m['svc-mock']
    const bare = m['bare node:http']
    const peersIdle = []
    for (const key of ['versions', 'webhook']) for (const r of sec[key]?.results?.slice(2) ?? []) if (!peersIdle.some((p) => p.startsWith(r.label))) peersIdle.push(`${r.label} ${MB(r.idleRssMB)}`)
    const o2 = sec.token?.RS256?.results?.[1]
    if (o2) peersIdle.push(`oauth2-mock-server ${MB(o2.idleRssMB)}`)
    row(9, 'RSS idle after start', MB(svc.idle), `bare ${MB(bare.idle)}${peersIdle.length ? `; ${peersIdle.join(', ')}` : ''}`, x(svc.idle / bare.idle), `≤ ${BARS.rssIdleMB} MB`, svc.idle <= BARS.rssIdleMB)
    row(9, `RSS after ${m.seconds} s mixed load (growth after ${m.warmupSeconds} s)`, `${MB(svc.end)} (+${MB(svc.growthAfterWarmup)})`, `bare ${MB(bare.end)} (+${MB(bare.growthAfterWarmup)})`, x(svc.end / bare.end), `flat: ≤ +${BARS.rssGrowthAfterWarmupMB} MB`, svc.growthAfterWarmup <= BARS.rssGrowthAfterWarmupMB && svc.bad === 0)
  } else if (only.includes('memory')) notRun(9, 'memory', failed('memory'))
}

buildRows()
report.totalSeconds = (performance.now() - t0) / 1000
table(
  `svc-mock side by side (issue 11): medians of per-round ratios, ${S.rounds} rounds for the socket rows${pinned ? ', pinned' : ', NOT pinned'}${S.quick ? ', --quick (short runs: development figures only)' : ''}`,
  ['#', 'measure', 'svc-mock', 'reference, same run', 'ratio', 'bar', 'verdict'],
  report.rows.map((r) => [String(r.n), r.measure, r.svc, r.reference, r.ratio, r.bar, r.verdict]),
)
const missed = report.rows.filter((r) => r.verdict === 'MISSED').length
const notRunCount = report.rows.filter((r) => r.verdict.startsWith('not run')).length
const file = join(resultsDir, `compare-${stamp}.json`)
writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`)
console.log(`\n${report.rows.filter((r) => r.verdict === 'ok').length} ok, ${missed} MISSED, ${notRunCount} not run. Total ${fmt(report.totalSeconds, 1)} s. Raw figures: ${file}`)
