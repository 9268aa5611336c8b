#!/usr/bin/env node
// svc-mock side by side with its references (issue 11, "Proof"): a hand-written msw handler, bare
// node:http servers (the same bytes; for webhooks, one doing the same work; for tokens, one signing
// the same claims), oauth2-mock-server, WireMock and Prism. Every row is
// measured in one run, systems interleaved A, B, A, B, … in rounds, ratios taken within a round,
// the median of per-round ratios reported with the raw medians. Servers are pinned to CPU 0, this
// process (the load generator) to CPU 1, when taskset exists. Only the public surface is used: the
// CLI (package.json "bin"), the packed tarball in a scratch consumer, HTTP. See bench/README.md.
//
//   npm run bench:compare [-- --quick] [-- --only vitest,fresh,inproc,coldstart,versions,webhook,token,memory]
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gitCommit } from './lib/proc.js'
import { fmt, median, table } from './lib/stats.js'
import { buildRows, MB, ms, us, x } from './compare/rows.js'
import { BARS, only, S } from './compare/settings.js'
import { measureFresh, measureInproc, measureVitest, prepareConsumer } from './compare/consumer.js'
import { loadAverage, machine, pinning, pinSelf } from './compare/env.js'
import { PEER_PACKAGES, preparePrism, prepareWiremock, startPrism, startWiremock, WORK_DIR } from './compare/peers.js'
import { TOKEN_BODY, TOKEN_HEADERS, VERSIONS_HEADERS, VERSIONS_PATH, WEBHOOK_BODY, WEBHOOK_HEADERS, WEBHOOK_PATH } from './compare/requests.js'
import {
  captureReference,
  oauth2MockServerCli,
  startBare,
  startBareToken,
  startBareWebhook,
  startOauth2MockServer,
  startOauth2MockServerCli,
  startSvcMock,
  writeBareRoutes,
} from './compare/servers.js'
import { measureMemory } from './compare/memory.js'
import { bodyCheck, interleave, startAll, stopAll, tokenCheck } from './compare/socket.js'

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
  const line = (label, m, kind) => [label, fmt(m.rps, 0), us(m.p50Us), us(m.p99Us), us(m.cpuUs), String(r.bytes[kind])]
  table(`3. In-process steady state: sequential versions GETs (answer and body awaited), ${r.seconds} s per system per round, median of ${r.rounds} rounds`, ['', 'req/s', 'p50', 'p99', 'CPU/req', 'bytes'], [
    line('svc-mock through msw fetch', r.emuMsw, 'emu-msw'),
    line('hand-written msw handler, same bytes', r.handMsw, 'hand-msw'),
    line('svc-mock emu.handle(new Request(...))', r.emuHandle, 'emu-handle'),
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
    { label: 'bare receiver', start: () => startBareWebhook(bareRoutes) },
    { label: 'bare node:http', start: () => startBare(bareRoutes) },
    { label: 'WireMock', start: () => startWiremock(peers.wiremock), unavailable: peerErrors.wiremock, jvm: true },
  ].map((s) => ({ ...s, request: webhookRequest, check: bodyCheck(reference.webhook) }))
  const servers = await startAll(specs)
  try {
    const live = specs.filter((s) => s.server)
    const results = await interleave(live, loadOptions())
    results.forEach((r, i) => (r.idleRssMB = live[i].idleRssMB))
    report.sections.webhook = { results }
    socketTable(`6. Webhook POST ${WEBHOOK_PATH} ${WEBHOOK_BODY} (answer 200 Accepted; the floor: a bare receiver doing the same work, bench/servers/bare-webhook.js), ${S.connections} connections, ${S.duration} s per system per round, ${S.rounds} rounds (medians)`, results)
  } finally {
    await stopAll(servers)
  }
})

// ---- row 7: token endpoint

await section('token', async () => {
  report.sections.token = {}
  for (const alg of ['RS256', 'ES256']) {
    const specs = [
      { label: `svc-mock ${alg}`, start: () => startSvcMock({ tokenAlgorithm: alg }), request: { path: '/oauth2/token', method: 'POST', headers: TOKEN_HEADERS, body: TOKEN_BODY } },
      { label: `oauth2-mock-server ${alg}`, start: () => startOauth2MockServer(alg), request: { path: '/token', method: 'POST', headers: TOKEN_HEADERS, body: TOKEN_BODY } },
      { label: `bare node:http ${alg} (floor)`, start: () => startBareToken(alg), request: { path: '/token', method: 'POST', headers: TOKEN_HEADERS, body: TOKEN_BODY } },
    ].map((s) => ({ ...s, check: tokenCheck(alg) }))
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
  const out = await measureMemory([
    ['svc-mock', () => startSvcMock()],
    ['bare node:http', () => startBare(bareRoutes)],
  ], { connections: S.connections, seconds: S.memorySeconds, warmupSeconds: S.memoryWarmupSeconds, log })
  report.sections.memory = { seconds: S.memorySeconds, warmupSeconds: S.memoryWarmupSeconds, mix: 'token (RS256), versions GET, webhook POST in turn on each connection', ...out }
  table(`9. RSS (/proc VmRSS): idle 1 s after the first answer, then ${S.memorySeconds} s of mixed load (token, versions, webhook in turn, ${S.connections} connections)`, ['', 'idle', `after ${S.memoryWarmupSeconds} s`, 'peak', 'end', 'growth after warm-up', 'req/s', 'bad answers'], Object.entries(out).map(([label, m]) => [label, MB(m.idle), MB(m.afterWarmup), MB(m.peak), MB(m.end), MB(m.growthAfterWarmup), fmt(m.rps, 0), String(m.bad)]))
})

// ---- the comparison table

buildRows({ report, only, BARS, peerErrors })
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
