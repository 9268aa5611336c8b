// What your routes cost (issue 26), against the built dist/:
// 1. per request: a route of yours against a built-in route of the same size in the same run,
//    through emu.handle() (no transport), in interleaved batches; medians of the per-request time
//    of each batch. The built-in route is the who-am-I probe (GET /api/cloud/team: the gate, then
//    a small JSON answer); yours answers the same bytes through the same gate, from a route file.
//    A placeholder route and a resource's list are measured beside them.
// 2. at start: createEmulator() with a route file of 1,000 routes against none, each in a fresh
//    process (module loading excluded: timed from before createEmulator() to its return).
//
//   node bench/user-routes.js [--batches 30] [--batch 2000] [--runs 9]
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { median } from './lib/stats.js'

const { values } = parseArgs({ options: { batches: { type: 'string', default: '30' }, batch: { type: 'string', default: '2000' }, runs: { type: 'string', default: '9' }, child: { type: 'string' } } })
const DIST = new URL('../dist/index.js', import.meta.url).href
const ORIGIN = 'https://acme.svc-mock.test'
const HEADERS = { authorization: 'AppKey svcmock-app-key' }

if (values.child !== undefined) {
  // One timed start, in a fresh process: `--child none` or `--child FILE`.
  const { createEmulator } = await import(DIST)
  const started = performance.now()
  const emu = await createEmulator(values.child === 'none' ? {} : { routes: values.child })
  const ms = performance.now() - started
  const routes = emu.routes().length
  await emu.close()
  process.stdout.write(JSON.stringify({ ms, routes }))
  process.exit(0)
}

const { createEmulator } = await import(DIST)

async function perRequest() {
  const emu = await createEmulator({
    routes: {
      routes: [
        { id: 'team.copy', method: 'GET', path: '/api/cloud/team-copy', response: { body: { id: 'acme', name: 'Acme', domain: 'acme.svc-mock.test' } } },
        { id: 'team.placeholders', method: 'GET', path: '/api/cloud/teams/{teamId}', response: { body: { id: '{{path.teamId}}', name: 'Acme', domain: 'acme.svc-mock.test', at: '{{now}}' } } },
      ],
      resources: [{ name: 'pools', path: '/integration/api/pools', records: [{ id: 'p-1', name: 'SAP ECC' }, { id: 'p-2', name: 'Salesforce' }] }],
    },
  })
  const targets = {
    'built-in auth.team (GET /api/cloud/team)': `${ORIGIN}/api/cloud/team`,
    'yours, the same bytes (GET /api/cloud/team-copy)': `${ORIGIN}/api/cloud/team-copy`,
    'yours, with placeholders (GET /api/cloud/teams/{teamId})': `${ORIGIN}/api/cloud/teams/acme`,
    'your resource, list of 2 (GET /integration/api/pools)': `${ORIGIN}/integration/api/pools`,
  }
  const first = await (await emu.handle(new Request(targets['built-in auth.team (GET /api/cloud/team)'], { headers: HEADERS }))).text()
  const copy = await (await emu.handle(new Request(targets['yours, the same bytes (GET /api/cloud/team-copy)'], { headers: HEADERS }))).text()
  if (first !== copy) throw new Error(`not the same bytes: ${first} vs ${copy}`)
  const batches = Number(values.batches)
  const size = Number(values.batch)
  const samples = Object.fromEntries(Object.keys(targets).map((name) => [name, []]))
  const names = Object.keys(targets)
  for (let b = -2; b < batches; b++) {
    // Interleaved, in a rotating order, so whatever else the machine does hits every target alike; two warm-up rounds.
    const order = names.map((_, i) => names[(i + Math.max(0, b)) % names.length])
    for (const name of order) {
      const url = targets[name]
      const started = performance.now()
      for (let i = 0; i < size; i++) await (await emu.handle(new Request(url, { headers: HEADERS }))).arrayBuffer()
      if (b >= 0) samples[name].push(((performance.now() - started) * 1000) / size)
      emu.journal.clear()
    }
  }
  await emu.close()
  const base = median(samples[names[0]])
  return names.map((name) => ({ target: name, 'µs/request (median of batches)': median(samples[name]).toFixed(1), 'vs built-in': `${(median(samples[name]) / base).toFixed(2)}x` }))
}

function atStart() {
  const dir = mkdtempSync(join(tmpdir(), 'svc-mock-bench-routes-'))
  const file = join(dir, 'thousand.json')
  const routes = Array.from({ length: 1000 }, (_, i) => ({
    id: `bench.r${i}`,
    method: ['GET', 'POST', 'PUT', 'DELETE'][i % 4],
    path: `/bench/area${Math.floor(i / 20)}/things${i % 20}/{thingId}`,
    ...(i % 3 === 0 ? { auth: { scopes: ['studio'] } } : {}),
    response: { status: 200, headers: { 'x-bench': `{{path.thingId}}-${i}` }, body: { id: '{{path.thingId}}', n: i, at: '{{now}}', items: [1, 2, 3] } },
  }))
  writeFileSync(file, JSON.stringify({ routes }))
  const runs = Number(values.runs)
  const once = (arg) => {
    const result = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--child', arg], { encoding: 'utf8' })
    if (result.status !== 0) throw new Error(result.stderr)
    return JSON.parse(result.stdout)
  }
  const none = []
  const thousand = []
  let counts = {}
  for (let i = 0; i < runs; i++) {
    // Alternated, so a busy moment hits both alike.
    none.push(once('none').ms)
    const t = once(file)
    thousand.push(t.ms)
    counts = t
  }
  rmSync(dir, { recursive: true, force: true })
  return [
    { 'createEmulator()': 'no route file', 'ms (median)': median(none).toFixed(1), 'min..max': `${Math.min(...none).toFixed(1)}..${Math.max(...none).toFixed(1)}` },
    { 'createEmulator()': `a route file of 1,000 routes (${counts.routes} routes served)`, 'ms (median)': median(thousand).toFixed(1), 'min..max': `${Math.min(...thousand).toFixed(1)}..${Math.max(...thousand).toFixed(1)}` },
    { 'createEmulator()': 'the route file costs', 'ms (median)': (median(thousand) - median(none)).toFixed(1), 'min..max': `${((median(thousand) - median(none)) / 1000 * 1000).toFixed(1)} µs a route` },
  ]
}

console.log(`Per request, emu.handle(), ${values.batches} interleaved batches of ${values.batch}:`)
console.table(await perRequest())
console.log(`At start, fresh processes, ${values.runs} runs each:`)
console.table(atStart())
