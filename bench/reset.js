// Reset: `await emulator.reset()` on the in-process emulator (dist/index.js createEmulator) with
// the default fixtures, timed call by call, in a child process:
//   - nothing changed since the last reset;
//   - after one versions GET (the journal holds an entry: the common case after a test);
//   - after adding one element with emulator.elements.add() (not timed; only the reset is).
//   node --expose-gc bench/reset.js [CALLS]     (prints JSON on stdout)
import { fileURLToPath } from 'node:url'
import { runNode } from './lib/proc.js'
import { summarize } from './lib/stats.js'

const SELF = fileURLToPath(import.meta.url)
const VERSIONS_PATH =
  '/acme-collection/acme-tenant/_api/rest/facets/processes/views/default/elements/0f8fad5b-d9cb-469f-a165-70867728950e/versions'

async function child(calls) {
  const { createEmulator } = await import('../dist/index.js')
  const emulator = await createEmulator({ log: 'silent' })
  const elementsAtStart = emulator.elements.list().length
  const element = { storage: 'acme-collection/acme-tenant', facet: 'processes', type: 'process', versions: [{ state: 'released', attributes: { name: { 1033: 'Bench element' } } }] }

  async function timed(before, warmup) {
    const us = new Float64Array(calls)
    for (let i = -warmup; i < calls; i++) {
      await before?.()
      const t = performance.now()
      await emulator.reset()
      const dt = (performance.now() - t) * 1000
      if (i >= 0) us[i] = dt
    }
    return summarize(us)
  }

  const unchanged = await timed(undefined, 500)
  const afterRequest = await timed(async () => {
    const res = await emulator.handle(new Request(emulator.urls.base + VERSIONS_PATH, { headers: { authorization: 'AppKey svcmock-app-key' } }))
    await res.arrayBuffer()
  }, 100)
  const afterAdd = await timed(async () => {
    await emulator.elements.add(element)
  }, 50)
  const elementsAtEnd = emulator.elements.list().length
  await emulator.close()
  return { calls, elements: elementsAtStart, back: elementsAtEnd === elementsAtStart, unchangedUs: unchanged, afterRequestUs: afterRequest, afterAddUs: afterAdd }
}

export async function measureReset({ calls = 2000, timeoutMs = 60_000, profileDir } = {}) {
  const args = ['--expose-gc']
  if (profileDir) args.push('--cpu-prof', `--cpu-prof-dir=${profileDir}`)
  const run = await runNode([...args, SELF, String(calls)], { timeoutMs })
  const last = run.stdout.trim().split('\n').pop()
  if (run.code !== 0 || !last?.startsWith('{')) {
    throw new Error(`bench/reset.js failed (code ${run.code}, signal ${run.signal}${run.timedOut ? ', time limit' : ''}): ${run.stderr.slice(-500)}`)
  }
  return JSON.parse(last)
}

if (process.argv[1] === SELF) {
  process.stdout.write(`${JSON.stringify(await child(Number(process.argv[2] ?? 2000)))}\n`)
}
