// Teams: what a team costs, against what a user would do without teams (a svc-mock process each).
// Pinned with taskset (servers on CPU 0, this process, the client and load generator, on CPU 1),
// interleaved, medians. Three measures, in one run:
//  1. making a team: POST /__svc-mock/teams to its 201, and to the team's first 200 on the
//     versions GET, 100 times; against spawning `node bin/svc-mock.js --port 0 --log json` to its
//     first 200, 20 times; interleaved 5 teams, 1 process, 20 rounds;
//  2. memory: the server's RSS before and after those 100 teams (each answered one versions GET),
//     per team; against 10 separate svc-mock processes started fresh, each answered one GET;
//  3. requests/s of one team under load while 99 others idle (the server of measure 1, one team
//     closed: main + 99) against a server with only its main team, autocannon rounds interleaved.
// Usage: node bench/teams.js [--teams 100] [--processes 20] [--rss-processes 10] [--rounds 5]
//        [--duration 5] [--warmup 2]   (npm run bench:teams builds first)
import { mkdirSync, writeFileSync } from 'node:fs'
import http from 'node:http'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { loadAverage, machine, pinSelf, pinning, rssMB, spawnPinned, stop } from './compare/env.js'
import { interleave, roundRatio } from './compare/socket.js'
import { gitCommit } from './lib/proc.js'
import { fmt, median, summarize, table } from './lib/stats.js'
import { AUTH, VERSIONS_PATH } from './startup.js'

const { values } = parseArgs({
  options: {
    teams: { type: 'string', default: '100' },
    processes: { type: 'string', default: '20' },
    'rss-processes': { type: 'string', default: '10' },
    rounds: { type: 'string', default: '5' },
    duration: { type: 'string', default: '5' },
    warmup: { type: 'string', default: '2' },
  },
})
const TEAMS = Number(values.teams)
const PROCESSES = Number(values.processes)
const RSS_PROCESSES = Number(values['rss-processes'])
const SERVER = fileURLToPath(new URL('./servers/teams-server.js', import.meta.url))
const CLI = fileURLToPath(new URL('../bin/svc-mock.js', import.meta.url))

/** One request without keep-alive; resolves with status and body. */
function request(port, method, path, { headers = {}, body } = {}) {
  return new Promise((resolve) => {
    const req = http.request({ host: '127.0.0.1', port, method, path, headers, agent: false }, (res) => {
      let text = ''
      res.setEncoding('utf8').on('data', (d) => (text += d))
      res.on('end', () => resolve({ status: res.statusCode, text }))
    })
    req.on('error', () => resolve({ status: 0, text: '' }))
    req.end(body)
  })
}

/** Spawns a child pinned to the servers' CPU; resolves with it and its port once a line of stdout names it. */
function started(command, args, pattern, env = {}) {
  const t0 = performance.now()
  const child = spawnPinned(pinning.server, command, args, { env: { ...process.env, ...env } })
  return new Promise((resolve, reject) => {
    let out = ''
    child.stdout.setEncoding('utf8').on('data', (d) => {
      out += d
      const m = pattern.exec(out)
      if (m) resolve({ child, pid: child.pid, port: Number(m[1]), url: `http://127.0.0.1:${m[1]}`, bannerMs: performance.now() - t0, t0 })
    })
    child.stderr.resume()
    child.once('exit', (code) => reject(new Error(`${command} ${args.join(' ')} exited (${code}) before listening: ${out}`)))
  })
}

const teamsServer = (teams = 0) => started(process.execPath, [SERVER], /"port":(\d+)/, { TEAMS: String(teams) })

/** Polls the versions GET until 200; resolves the time since `t0`. */
async function firstAnswer(port, t0) {
  for (;;) {
    if ((await request(port, 'GET', VERSIONS_PATH, { headers: AUTH })).status === 200) return performance.now() - t0
    await new Promise((resolve) => setTimeout(resolve, 2))
  }
}

/** A new svc-mock process: spawn to its first 200. */
async function processStart() {
  const p = await started(process.execPath, [CLI, '--port', '0', '--log', 'json'], /"event":"listening".*?"url":"http:\/\/127\.0\.0\.1:(\d+)"/)
  const ms = await firstAnswer(p.port, p.t0)
  return { ...p, ms }
}

/** POST /__svc-mock/teams: times to the 201 and to the team's first 200. */
async function makeTeam(port) {
  const t0 = performance.now()
  const made = await request(port, 'POST', '/__svc-mock/teams', { headers: { 'content-type': 'application/json' }, body: '{}' })
  const createdMs = performance.now() - t0
  if (made.status !== 201) throw new Error(`POST /__svc-mock/teams answered ${made.status}: ${made.text}`)
  const team = JSON.parse(made.text)
  return { name: team.name, port: team.port, createdMs, firstAnswerMs: await firstAnswer(team.port, t0) }
}

const log = (line) => console.log(line)
const pinned = pinSelf()
const loadBefore = loadAverage()
log(`svc-mock teams bench: ${machine.node}, ${machine.cpus} CPUs, ${pinned ? `servers on CPU ${pinning.server}, this process on CPU ${pinning.loadGenerator}` : 'NOT pinned'}; load average ${fmt(loadBefore, 2)}`)

// 1. Making a team, against a new process.
const server = await teamsServer(0)
for (let i = 0; i < 3; i++) {
  const warm = await makeTeam(server.port)
  await request(server.port, 'DELETE', `/__svc-mock/teams/${warm.name}`)
}
await stop((await processStart()).child)
await new Promise((resolve) => setTimeout(resolve, 500))
const rssBeforeMB = rssMB(server.pid)
const teams = []
const processes = []
const perRound = Math.max(1, Math.round(TEAMS / PROCESSES))
while (teams.length < TEAMS || processes.length < PROCESSES) {
  for (let i = 0; i < perRound && teams.length < TEAMS; i++) teams.push(await makeTeam(server.port))
  if (processes.length < PROCESSES) {
    const p = await processStart()
    processes.push(p.ms)
    await stop(p.child)
  }
}
const created = summarize(teams.map((t) => t.createdMs))
const teamFirst = summarize(teams.map((t) => t.firstAnswerMs))
const procFirst = summarize(processes)
table(
  `1. Making a team (${TEAMS}) against starting a svc-mock process (${PROCESSES}), interleaved`,
  ['', 'median', 'min', 'p99', 'max'],
  [
    ['team: POST to 201', `${fmt(created.median, 2)} ms`, `${fmt(created.min, 2)} ms`, `${fmt(created.p99, 2)} ms`, `${fmt(created.max, 2)} ms`],
    ['team: POST to first 200', `${fmt(teamFirst.median, 2)} ms`, `${fmt(teamFirst.min, 2)} ms`, `${fmt(teamFirst.p99, 2)} ms`, `${fmt(teamFirst.max, 2)} ms`],
    ['process: spawn to first 200', `${fmt(procFirst.median, 1)} ms`, `${fmt(procFirst.min, 1)} ms`, `${fmt(procFirst.p99, 1)} ms`, `${fmt(procFirst.max, 1)} ms`],
  ],
)
log(`${created.median < 10 ? 'ok' : 'MISSED'}: making a team, median ${fmt(created.median, 2)} ms (bar: under 10 ms); ${fmt(procFirst.median / teamFirst.median, 0)}x faster to a first answer than a new process`)

// 2. Memory: the server with its teams, against separate processes.
await new Promise((resolve) => setTimeout(resolve, 1000))
const rssAfterMB = rssMB(server.pid)
const separate = []
for (let i = 0; i < RSS_PROCESSES; i++) separate.push(await processStart())
await new Promise((resolve) => setTimeout(resolve, 1000))
const separateRss = separate.map((p) => rssMB(p.pid))
for (const p of separate) await stop(p.child)
const separateTotal = separateRss.reduce((a, b) => a + b, 0)
const perTeam = (rssAfterMB - rssBeforeMB) / TEAMS
table(
  `2. Memory: one server with ${TEAMS} teams against ${RSS_PROCESSES} separate processes (RSS)`,
  ['', 'RSS'],
  [
    ['server, main team only', `${fmt(rssBeforeMB)} MB`],
    [`server, main + ${TEAMS} teams`, `${fmt(rssAfterMB)} MB`],
    ['per team', `${fmt(perTeam, 2)} MB`],
    [`${RSS_PROCESSES} svc-mock processes, total`, `${fmt(separateTotal)} MB`],
    ['one svc-mock process (median)', `${fmt(median(separateRss))} MB`],
  ],
)
log(`${rssAfterMB < separateTotal ? 'ok' : 'MISSED'}: ${TEAMS} teams in one process ${fmt(rssAfterMB)} MB against ${RSS_PROCESSES} processes ${fmt(separateTotal)} MB (bar: below)`)

// 3. One team under load while 99 others idle, against a one-team server.
const closed = teams.pop()
if (closed) await request(server.port, 'DELETE', `/__svc-mock/teams/${closed.name}`)
const loaded = teams[0]
const single = await teamsServer(0)
const request3 = { path: VERSIONS_PATH, headers: AUTH }
log(`\n3. Requests/s (versions GET): ${loaded.name} of a server with ${teams.length + 1} teams (the others idle) against a server with one team`)
const results = await interleave(
  [
    { label: `${loaded.name} of ${teams.length + 1} teams`, server: { pid: server.pid, url: `http://127.0.0.1:${loaded.port}` }, request: request3 },
    { label: 'one-team server', server: { pid: single.pid, url: single.url }, request: request3 },
  ],
  { rounds: Number(values.rounds), duration: Number(values.duration), warmup: Number(values.warmup), log },
)
const [many, one] = results
const ratio = roundRatio(many, one)
table(
  '   medians of the rounds',
  ['', 'req/s', 'p50', 'p99', 'CPU/req'],
  results.map((r) => [r.label, fmt(r.rps, 0), `${fmt(r.p50, 2)} ms`, `${fmt(r.p99, 2)} ms`, `${fmt(r.cpuUs, 0)} µs`]),
)
log(`${ratio >= 0.9 ? 'ok' : 'MISSED'}: one team among ${teams.length + 1} answers ${fmt(ratio * 100, 0)}% of a one-team server's requests/s (median of per-round ratios; bar: within 10%); CPU per request ${fmt(roundRatio(many, one, 'serverCpuUsPerRequest'), 2)}x`)
await stop(single.child)
await stop(server.child)

const loadAfter = loadAverage()
log(`\nload average ${fmt(loadBefore, 2)} before, ${fmt(loadAfter, 2)} after${loadBefore > machine.cpus / 2 ? ' (a busy machine: compare ratios, not milliseconds)' : ''}`)
const resultsDir = fileURLToPath(new URL('./results/', import.meta.url))
mkdirSync(resultsDir, { recursive: true })
const file = `${resultsDir}teams-${new Date().toISOString().replace(/[:.]/g, '-')}.json`
writeFileSync(
  file,
  JSON.stringify(
    {
      machine,
      commit: gitCommit(),
      pinned,
      loadAverage: { before: loadBefore, after: loadAfter },
      making: { teams: teams.length + 1, createdMs: created, teamFirstAnswerMs: teamFirst, processFirstAnswerMs: procFirst },
      memory: { rssBeforeMB, rssAfterMB, perTeamMB: perTeam, separateRssMB: separateRss, separateTotalMB: separateTotal },
      throughput: { ratio, results: results.map(({ runs, ...rest }) => ({ ...rest, runs: runs.map(({ statuses, ...r }) => r) })) },
    },
    null,
    2,
  ),
)
log(`raw figures: ${file}`)
