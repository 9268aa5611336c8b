#!/usr/bin/env node
// Groups the self time of a V8 CPU profile (`node --cpu-prof`) by area: svc-mock's own files by
// folder, undici (Fetch Request/Response/Headers), AbortController/EventTarget, async_hooks
// (AsyncLocalStorage), node:http and streams, the socket write syscall, GC, module loading.
//   node bench/tools/profile-areas.js PROFILE.cpuprofile [--requests N]   (N: µs per request too)
import { readFileSync } from 'node:fs'

const args = process.argv.slice(2)
const file = args.find((a) => !a.startsWith('--') && !/^\d+$/.test(a))
const i = args.indexOf('--requests')
const requests = i >= 0 ? Number(args[i + 1]) : undefined
const profile = JSON.parse(readFileSync(file, 'utf8'))
const byId = new Map(profile.nodes.map((n) => [n.id, n]))

function area(frame) {
  const { url, functionName } = frame
  if (!url) {
    if (functionName === '(garbage collector)') return 'garbage collector'
    if (functionName === '(idle)') return 'idle'
    if (functionName === 'writev' || functionName === 'writeUtf8String' || functionName === 'writeBuffer') return 'socket write (native)'
    return `native: ${functionName}`
  }
  if (url.includes('node_modules/')) return `node_modules/${/node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1]}`
  const m = /\/dist\/([^/]+)\//.exec(url)
  if (m) return `svc-mock dist/${m[1]}`
  if (url.includes('/dist/')) return 'svc-mock dist/*.js'
  if (url.includes('deps/undici')) return 'undici (Request/Response/Headers)'
  if (/abort_controller|event_target/.test(url)) return 'AbortController/EventTarget'
  if (/async_hooks/.test(url)) return 'async_hooks (AsyncLocalStorage)'
  if (/modules\/esm|modules\/cjs|bootstrap|vm/.test(url)) return 'module loading'
  if (/_http_|node:net|streams|stream_base|node:events|task_queues|timers/.test(url)) return 'node:http, net, streams, events'
  if (url.startsWith('node:')) return `node: ${url.slice(5).split('/').pop()}`
  return url
}

const totals = new Map()
let total = 0
for (let s = 0; s < profile.samples.length; s++) {
  const dt = profile.timeDeltas[s + 1] ?? 0
  const key = area(byId.get(profile.samples[s]).callFrame)
  totals.set(key, (totals.get(key) ?? 0) + dt)
  total += dt
}
const busy = total - (totals.get('idle') ?? 0)
console.log(`${(total / 1000).toFixed(0)} ms sampled, ${(busy / 1000).toFixed(0)} ms not idle${requests ? `, ${requests} requests` : ''}`)
for (const [k, us] of [...totals].sort((a, b) => b[1] - a[1]).slice(0, 25)) {
  const perRequest = requests ? `${(us / requests).toFixed(1).padStart(7)} µs/req` : ''
  console.log(`${(us / 1000).toFixed(0).padStart(8)} ms ${((100 * us) / total).toFixed(1).padStart(5)}%  ${perRequest}  ${k}`)
}
