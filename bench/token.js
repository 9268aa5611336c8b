// Token endpoint throughput: requests/s and latency of POST /oauth2/token (client credentials,
// Client secret basic) for each signing algorithm (RS256, ES256, ES384, EdDSA), svc-mock side by
// side with oauth2-mock-server (npm) on the same machine in the same run. Each server runs in its
// own process on 127.0.0.1; this process generates the load over keep-alive connections.
// Bounded: each measurement stops after --seconds (default 3) or --max requests (default 100000).
//
//   npm run build && node bench/token.js [--seconds 3] [--concurrency 16] [--max 100000]
import { spawn } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { Agent, request } from 'node:http'
import { cpus } from 'node:os'
import { parseArgs } from 'node:util'

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '3' },
    warmup: { type: 'string', default: '0.5' },
    concurrency: { type: 'string', default: '16' },
    max: { type: 'string', default: '100000' },
  },
})
const SECONDS = Number(values.seconds)
const WARMUP = Number(values.warmup)
const CONCURRENCY = Number(values.concurrency)
const MAX = Number(values.max)
const ALGORITHMS = ['RS256', 'ES256', 'ES384', 'EdDSA']
const SERVERS = ['svc-mock', 'oauth2-mock-server']
const BODY = 'grant_type=client_credentials&scope=audit.log%3Aread'
const AUTH = `Basic ${Buffer.from('ci-client:ci-secret').toString('base64')}`

function startChild(kind, alg) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [new URL('./token-server.js', import.meta.url).pathname, kind, alg], { stdio: ['ignore', 'pipe', 'inherit'] })
    let out = ''
    const timer = setTimeout(() => reject(new Error(`${kind} ${alg} did not start within 10 s`)), 10_000)
    child.stdout.on('data', (chunk) => {
      out += chunk
      const line = out.split('\n')[0]
      if (out.includes('\n')) {
        clearTimeout(timer)
        resolve({ port: Number(line), stop: () => new Promise((done) => { child.once('exit', done); child.kill('SIGTERM') }) })
      }
    })
    child.once('exit', (code) => reject(new Error(`${kind} ${alg} exited with ${code}`)))
  })
}

function post(agent, port, path) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint()
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: 'POST',
        agent,
        headers: { authorization: AUTH, 'content-type': 'application/x-www-form-urlencoded', 'content-length': Buffer.byteLength(BODY) },
      },
      (res) => {
        const chunks = []
        res.on('data', (c) => chunks.push(c))
        res.on('end', () => resolve({ status: res.statusCode, body: Buffer.concat(chunks).toString(), ms: Number(process.hrtime.bigint() - started) / 1e6 }))
        res.on('error', reject)
      },
    )
    req.on('error', reject)
    req.end(BODY)
  })
}

async function load(port, path, seconds, max) {
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY })
  const latencies = []
  let failures = 0
  const deadline = performance.now() + seconds * 1000
  const started = performance.now()
  const worker = async () => {
    while (performance.now() < deadline && latencies.length + failures < max) {
      const { status, ms } = await post(agent, port, path)
      if (status === 200) latencies.push(ms)
      else failures++
    }
  }
  await Promise.all(Array.from({ length: CONCURRENCY }, worker))
  const elapsed = (performance.now() - started) / 1000
  agent.destroy()
  latencies.sort((a, b) => a - b)
  const pct = (p) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))] ?? NaN
  return { requests: latencies.length, failures, rps: Math.round(latencies.length / elapsed), p50: pct(0.5), p99: pct(0.99) }
}

const rows = []
console.log(`token endpoint bench: node ${process.version}, ${cpus().length} CPUs (${cpus()[0]?.model ?? '?'}), concurrency ${CONCURRENCY}, ${SECONDS} s each`)
for (const alg of ALGORITHMS) {
  for (const kind of SERVERS) {
    const server = await startChild(kind, alg)
    // The token endpoint's path: the platform's, and oauth2-mock-server's default.
    const path = kind === 'svc-mock' ? '/oauth2/token' : '/token'
    try {
      const first = await post(new Agent(), server.port, path)
      const header = JSON.parse(Buffer.from(JSON.parse(first.body).access_token.split('.')[0], 'base64url').toString())
      if (first.status !== 200 || header.alg !== alg) throw new Error(`${kind} answered ${first.status} with alg ${header.alg}`)
      await load(server.port, path, WARMUP, MAX)
      const result = await load(server.port, path, SECONDS, MAX)
      rows.push({ alg, server: kind, ...result })
      console.log(`${alg.padEnd(6)} ${kind.padEnd(19)} ${String(result.rps).padStart(7)} req/s   p50 ${result.p50.toFixed(2)} ms   p99 ${result.p99.toFixed(2)} ms   (${result.requests} ok, ${result.failures} failed)`)
    } finally {
      await server.stop()
    }
  }
}
console.log('\nsvc-mock / oauth2-mock-server:')
for (const alg of ALGORITHMS) {
  const ours = rows.find((r) => r.alg === alg && r.server === 'svc-mock')
  const theirs = rows.find((r) => r.alg === alg && r.server === 'oauth2-mock-server')
  if (ours && theirs) console.log(`  ${alg.padEnd(6)} ${(ours.rps / theirs.rps).toFixed(2)}x`)
}
mkdirSync(new URL('./results/', import.meta.url), { recursive: true })
writeFileSync(new URL('./results/token.json', import.meta.url), `${JSON.stringify({ node: process.version, cpus: cpus().length, concurrency: CONCURRENCY, seconds: SECONDS, rows }, null, 2)}\n`)
