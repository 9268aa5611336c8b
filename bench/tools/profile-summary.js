#!/usr/bin/env node
// Summarises a V8 CPU profile written by `node --cpu-prof`: the functions with the most self time
// and the most total (inclusive) time, each with its file and line.
//   node bench/tools/profile-summary.js PROFILE.cpuprofile [--top 25] [--filter dist/]
import { readFileSync } from 'node:fs'
import { relative } from 'node:path'
import { fileURLToPath } from 'node:url'

const args = process.argv.slice(2)
const file = args.find((a) => !a.startsWith('--') && !/^\d+$/.test(a))
if (!file) {
  process.stderr.write('usage: node bench/tools/profile-summary.js PROFILE.cpuprofile [--top N] [--filter TEXT]\n')
  process.exit(2)
}
const option = (name, fallback) => {
  const i = args.indexOf(name)
  return i >= 0 ? args[i + 1] : fallback
}
const top = Number(option('--top', '25'))
const filter = option('--filter', '')

const profile = JSON.parse(readFileSync(file, 'utf8'))
const byId = new Map(profile.nodes.map((n) => [n.id, n]))
const parent = new Map()
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id)

// Time per sample: the delta that follows it.
const selfUs = new Map()
const { samples, timeDeltas } = profile
let totalUs = 0
for (let i = 0; i < samples.length; i++) {
  const dt = timeDeltas[i + 1] ?? 0
  selfUs.set(samples[i], (selfUs.get(samples[i]) ?? 0) + dt)
  totalUs += dt
}

const cwd = process.cwd()
function label(node) {
  const f = node.callFrame
  let url = f.url
  if (url.startsWith('file://')) {
    try {
      url = relative(cwd, fileURLToPath(url))
    } catch {}
  }
  return `${f.functionName || '(anonymous)'}  ${url || '(native)'}${url ? `:${f.lineNumber + 1}` : ''}`
}

const self = new Map()
const inclusive = new Map()
for (const [id, us] of selfUs) {
  const node = byId.get(id)
  const key = label(node)
  self.set(key, (self.get(key) ?? 0) + us)
  // Inclusive: count once per distinct function on the stack.
  const seen = new Set()
  for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
    const k = label(byId.get(cur))
    if (seen.has(k)) continue
    seen.add(k)
    inclusive.set(k, (inclusive.get(k) ?? 0) + us)
  }
}

function print(title, map) {
  console.log(`\n${title} (of ${(totalUs / 1000).toFixed(0)} ms sampled)`)
  const rows = [...map].filter(([k]) => !filter || k.includes(filter)).sort((a, b) => b[1] - a[1]).slice(0, top)
  for (const [k, us] of rows) console.log(`${(us / 1000).toFixed(1).padStart(9)} ms ${((100 * us) / totalUs).toFixed(1).padStart(5)}%  ${k}`)
}
print('Self time', self)
print('Total time (inclusive)', inclusive)
