#!/usr/bin/env node
// Two or more builds of svc-mock side by side, for an A/B of one change (docs/decisions/
// speed-mechanisms.md): each build's CLI server (its own bin/svc-mock.js) pinned to CPU 0, this
// process (autocannon) to CPU 1, all servers up at once, rounds interleaved with the order turning
// and each run started once the others are quiet (bench/compare/socket.js). Prints per build the
// medians of req/s and of server CPU per request, and the medians of per-round ratios to the first.
//
//   node bench/ab.js [--what versions|webhook|token] [--alg RS256|ES256] [--rounds 16] [--duration 2]
//                    [--warmup 2] [--node PATH] LABEL=BUILD_DIR LABEL=BUILD_DIR ...
//
// A build is a copy of the repository with `npm run build` done (node_modules linked); make the
// second one with the change under test, e.g. `git worktree add` or `git archive HEAD | tar -x`.
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { freePort, pinSelf } from './compare/env.js'
import { TOKEN_BODY, TOKEN_HEADERS, VERSIONS_HEADERS, VERSIONS_PATH, WEBHOOK_BODY, WEBHOOK_HEADERS, WEBHOOK_PATH } from './compare/requests.js'
import { startServer } from './compare/start-server.js'
import { interleave, roundRatio } from './compare/socket.js'

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    what: { type: 'string', default: 'webhook' },
    alg: { type: 'string' },
    rounds: { type: 'string', default: '16' },
    duration: { type: 'string', default: '2' },
    warmup: { type: 'string', default: '2' },
    node: { type: 'string', default: process.execPath },
  },
})
const REQUESTS = {
  versions: { path: VERSIONS_PATH, method: 'GET', headers: VERSIONS_HEADERS },
  webhook: { path: WEBHOOK_PATH, method: 'POST', headers: WEBHOOK_HEADERS, body: WEBHOOK_BODY },
  token: { path: '/oauth2/token', method: 'POST', headers: TOKEN_HEADERS, body: TOKEN_BODY },
}
const request = REQUESTS[values.what]
if (!request || positionals.length < 2 || positionals.some((p) => !p.includes('='))) {
  console.error('usage: node bench/ab.js [--what versions|webhook|token] [--alg RS256|ES256] [--rounds N] [--duration S] LABEL=BUILD_DIR LABEL=BUILD_DIR ...')
  process.exit(2)
}

pinSelf()
const targets = []
try {
  for (const spec of positionals) {
    const [label, dir] = spec.split('=')
    const port = await freePort()
    const args = [join(dir, 'bin/svc-mock.js'), '--port', String(port), '--log', 'silent', ...(values.alg ? ['--token-algorithm', values.alg] : [])]
    const server = await startServer({ name: label, command: values.node, args, url: `http://127.0.0.1:${port}`, ready: { path: VERSIONS_PATH, headers: VERSIONS_HEADERS }, cwd: dir })
    targets.push({ label, server, request })
  }
  const results = await interleave(targets, { rounds: Number(values.rounds), duration: Number(values.duration), warmup: Number(values.warmup), log: console.log })
  const [first] = results
  console.log(`\n${values.what}${values.alg ? ` ${values.alg}` : ''}, node ${process.version}, ${values.rounds} rounds of ${values.duration} s (medians; ratios: median of per-round ratios to ${first.label})`)
  for (const r of results) {
    console.log(`${r.label.padEnd(16)} ${Math.round(r.rps).toString().padStart(7)} req/s  ${r.cpuUs.toFixed(1).padStart(6)} µs CPU/req   req/s ${roundRatio(r, first).toFixed(3)}x  CPU/req ${roundRatio(r, first, 'serverCpuUsPerRequest').toFixed(3)}x`)
  }
} finally {
  for (const t of targets) await t.server.stop()
}
