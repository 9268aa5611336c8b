// Saved states (issue 34, docs/state.md), in-process against dist/: for N generated elements with
// 1% of them changed (a version added to each: N = 100,000 changes 1,000), in a fresh child
// process each (pinned to CPU 0 with taskset where it is, with a time limit):
//   - export: `emu.exportState()` then JSON.stringify (what GET /__svc-mock/state/export sends);
//   - import: the document's JSON text into a fresh emulator of the same options;
//   - side by side, a reset of the loaded emulator after adding one element (what every test pays);
//   - the document's size.
// The first export and import of a process load the writer and reader (import()); they are shown
// apart, and the medians are of the rounds after them. Then two documents' sizes and times: the
// default fixtures', and a busy run's (100,000 generated elements with 1,000 changed, 100 OAuth
// clients, 100 code grants with their refresh tokens, 1,000 webhook executions, 10 calls queued,
// 100 resource records).
//   node bench/state.js [--sizes 1000,10000,100000] [--rounds 7] [--timeout 120]
//   npm run bench:state builds first
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { loadAverage, machine, pinning, runPinned } from './compare/env.js'
import { gitCommit } from './lib/proc.js'
import { fmt, median, table } from './lib/stats.js'

const SELF = fileURLToPath(import.meta.url)
const APP_KEY = { authorization: 'AppKey svcmock-app-key' }

/** Times `fn` `rounds` times after one untimed (cold) call; ms. */
async function timed(rounds, fn) {
  let t = performance.now()
  await fn()
  const cold = performance.now() - t
  const ms = []
  for (let i = 0; i < rounds; i++) {
    t = performance.now()
    await fn()
    ms.push(performance.now() - t)
  }
  return { cold, median: median(ms), max: Math.max(...ms) }
}

async function makeBusy(emu) {
  const h = (path, init) => emu.handle(new Request(`${emu.urls.base}${path}`, init))
  for (let i = 0; i < 100; i++) await emu.oauth.clients.create({ name: `client ${i}`, grantType: 'client_credentials', authMethod: 'client_secret_basic' })
  for (let i = 0; i < 100; i++) {
    const authorize = await h(`/oauth2/authorize?${new URLSearchParams({ response_type: 'code', client_id: 'web-app', redirect_uri: 'http://127.0.0.1/callback', state: 's' })}`, { redirect: 'manual' })
    const code = new URL(authorize.headers.get('location') ?? '').searchParams.get('code') ?? ''
    await h('/oauth2/token', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: 'http://127.0.0.1/callback', client_id: 'web-app', client_secret: 'web-app-secret' }) })
  }
  for (let i = 0; i < 1000; i++) await h('/hooks/orders', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ orderId: `order-${i}`, amount: i, lines: [{ sku: 'A-1', qty: 2 }] }) })
  for (let i = 0; i < 10; i++) await h('/hooks/paused', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ n: i }) })
  await emu.userRoutes.add({ resources: [{ name: 'pools', path: '/integration/api/pools', records: [] }] })
  for (let i = 0; i < 100; i++) await emu.resources.get('pools').create({ name: `pool ${i}`, region: 'eu' })
}

async function child(kind, n, rounds) {
  const { createEmulator } = await import('../dist/index.js')
  const options = { log: 'silent', clock: 'manual', ...(n > 0 ? { fixtures: [{ generate: { elements: n } }] } : {}) }
  const emu = await createEmulator(options)
  const generated = emu.elements.list({ facet: 'processes' }).slice(-n)
  const changed = kind === 'default' ? 0 : Math.max(1, Math.round(n / 100))
  for (let i = 0; i < changed; i++) {
    const element = generated[Math.floor((i * generated.length) / changed)]
    await emu.elements.addVersion(element.id, { state: 'released', attributes: { name: { 1033: `Changed ${i}` } } }, {})
  }
  if (kind === 'busy') await makeBusy(emu)
  let text = ''
  const exported = await timed(rounds, async () => {
    text = JSON.stringify(await emu.exportState())
  })
  const copy = await createEmulator(options)
  const imported = await timed(rounds, async () => {
    await copy.importState(text)
  })
  // The copy answers as the original: one changed element read from each.
  const probe = generated[0] ? `/acme-collection/acme-tenant/_api/rest/facets/processes/views/default/elements/${generated[0].id}/versions` : undefined
  const same = probe === undefined || (await (await emu.handle(new Request(emu.urls.base + probe, { headers: APP_KEY }))).text()) === (await (await copy.handle(new Request(copy.urls.base + probe, { headers: APP_KEY }))).text())
  const element = { storage: 'acme-collection/acme-tenant', facet: 'processes', type: 'process', versions: [{ state: 'released' }] }
  const resetOnly = []
  for (let i = 0; i < rounds * 10; i++) {
    await copy.elements.add(element)
    const t = performance.now()
    await copy.reset()
    resetOnly.push(performance.now() - t)
  }
  await Promise.all([emu.close(), copy.close()])
  return { kind, n, changed, bytes: Buffer.byteLength(text), exported, imported, resetMs: median(resetOnly), same }
}

async function main() {
  const { values } = parseArgs({ options: { sizes: { type: 'string', default: '1000,10000,100000' }, rounds: { type: 'string', default: '7' }, timeout: { type: 'string', default: '120' } } })
  const rounds = Number(values.rounds)
  const runs = [{ kind: 'default', n: 0 }, ...values.sizes.split(',').map((n) => ({ kind: 'changed', n: Number(n) })), { kind: 'busy', n: 100_000 }]
  const load = [loadAverage()]
  const results = []
  for (const { kind, n } of runs) {
    const args = ['--expose-gc', SELF, '--child', kind, String(n), String(rounds)]
    const run = await runPinned(pinning.server, process.execPath, args, { timeoutMs: Number(values.timeout) * 1000 })
    const last = run.stdout.trim().split('\n').pop() ?? ''
    results.push(run.code === 0 && last.startsWith('{') ? JSON.parse(last) : { kind, n, failed: `${run.timedOut ? 'time limit; ' : ''}${run.stderr.slice(-300)}` })
  }
  load.push(loadAverage())
  table(
    `Saved states (Node ${machine.node}, ${pinning.available ? 'pinned to CPU 0' : 'not pinned'}, load ${load.map((l) => fmt(l, 2)).join(' -> ')}, commit ${gitCommit() ?? '?'}; medians of ${rounds} rounds after a cold one)`,
    ['document', 'elements', 'changed', 'size', 'export (cold)', 'export', 'import (cold)', 'import', 'reset after an add', 'same answers'],
    results.map((r) =>
      r.failed
        ? [r.kind, r.n, '-', '-', '-', '-', '-', '-', '-', r.failed]
        : [r.kind, r.n, r.changed, `${fmt(r.bytes / 1024, 1)} KB`, `${fmt(r.exported.cold, 1)} ms`, `${fmt(r.exported.median, 1)} ms`, `${fmt(r.imported.cold, 1)} ms`, `${fmt(r.imported.median, 1)} ms`, `${fmt(r.resetMs * 1000, 0)} µs`, r.same ? 'yes' : 'NO'],
    ),
  )
  const largest = results.find((r) => r.kind === 'changed' && r.n === 100_000 && !r.failed)
  const defaults = results.find((r) => r.kind === 'default' && !r.failed)
  if (defaults) console.log(`${defaults.bytes < 20 * 1024 ? 'ok' : 'MISSED'}: the default fixtures' document is ${fmt(defaults.bytes / 1024, 1)} KB (bar: under 20 KB)`)
  if (largest) console.log(`${Math.max(largest.exported.median, largest.imported.median) < 1000 ? 'ok' : 'MISSED'}: 100,000 generated elements with 1,000 changed export in ${fmt(largest.exported.median, 0)} ms and import in ${fmt(largest.imported.median, 0)} ms (bar: under 1 s each)`)
  console.log(JSON.stringify({ pinned: pinning.available, rounds, results }))
}

if (process.argv[2] === '--child') {
  const [, , , kind, n, rounds] = process.argv
  process.stdout.write(`${JSON.stringify(await child(kind, Number(n), Number(rounds)))}\n`)
} else {
  await main()
}
