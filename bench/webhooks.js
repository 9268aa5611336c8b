#!/usr/bin/env node
/**
 * Webhook intake benchmark, against the built dist/ (run `npm run build` first).
 *
 * 1. Requests per second and p99 latency of JSON calls to /hooks/orders on the standalone server,
 *    side by side, in the same run, with a bare node:http server that reads the body and answers
 *    the same bytes (200, text/plain, "Accepted"). Each server runs in its own child process;
 *    this process is the load generator (keep-alive, fixed concurrency, fixed duration).
 * 2. Memory of the svc-mock server (RSS and heap, peak sampled every 5 ms) while 20 concurrent
 *    5 MB uploads are refused (one byte over, by Content-Length, then streamed without one) and
 *    accepted (exactly 5,242,880 bytes of multipart, kept by the flow's executions).
 *
 * Loopback only; bounded in time (about 15 s) and count. Usage:
 *   node bench/webhooks.js [--seconds 3] [--connections 32]
 */
import { fork } from 'node:child_process'
import { Agent, createServer, request } from 'node:http'
import { parseArgs } from 'node:util'
import { performance } from 'node:perf_hooks'

const LIMIT = 5_242_880

if (process.argv[2] === '--serve') await serve(process.argv[3], process.argv[4] === 'sample')
else await main()

async function serve(kind, sampling) {
  let server
  let port
  if (kind === 'bare') {
    server = createServer((req, res) => {
      req.on('data', () => {})
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8', 'content-length': '8' })
        res.end('Accepted')
      })
    })
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
    port = server.address().port
  } else {
    const { startServer } = await import('../dist/server.js')
    const running = await startServer({ port: 0, log: 'silent' })
    port = running.port
  }
  let peak = { rss: 0, heapUsed: 0 }
  const sample = () => {
    const m = process.memoryUsage()
    if (m.rss > peak.rss) peak.rss = m.rss
    if (m.heapUsed > peak.heapUsed) peak.heapUsed = m.heapUsed
  }
  // Sampling costs CPU: only the memory run samples.
  if (sampling) setInterval(sample, 5).unref()
  // The parent gone (finished, or killed by a timeout): so is this server.
  process.on('disconnect', () => process.exit(0))
  process.on('message', (message) => {
    if (message === 'memory') {
      sample()
      const now = process.memoryUsage()
      process.send?.({ peak, now: { rss: now.rss, heapUsed: now.heapUsed } })
      peak = { rss: now.rss, heapUsed: now.heapUsed }
    } else if (message === 'exit') {
      process.exit(0)
    } else if (message === 'gc') {
      globalThis.gc?.()
      process.send?.('gc-done')
    }
  })
  process.send?.({ ready: port })
}

function start(kind, sampling = false) {
  return new Promise((resolve, reject) => {
    const child = fork(new URL(import.meta.url).pathname, ['--serve', kind, sampling ? 'sample' : 'no-sample'], { execArgv: ['--expose-gc', ...(process.env.BENCH_PROFILE && kind !== 'bare' ? ['--cpu-prof', '--cpu-prof-dir=/tmp/exp/prof'] : [])], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
    child.once('error', reject)
    child.once('message', (message) => resolve({ child, port: message.ready }))
  })
}

function ask(child, what) {
  return new Promise((resolve) => {
    child.once('message', resolve)
    child.send(what)
  })
}

function send(agent, port, path, body, headers) {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method: 'POST', agent, headers }, (res) => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (chunk) => (text += chunk))
      res.on('end', () => resolve({ status: res.statusCode, text }))
    })
    req.on('error', reject)
    if (typeof body === 'function') body(req)
    else req.end(body)
  })
}

async function load(port, seconds, connections) {
  const agent = new Agent({ keepAlive: true, maxSockets: connections })
  const body = JSON.stringify({ orderId: 'A-1', amount: 12.5, customer: { email: 'a@acme.test' } })
  const headers = { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }
  const run = async (until, latencies) => {
    let count = 0
    while (performance.now() < until) {
      const t = performance.now()
      const answer = await send(agent, port, '/hooks/orders', body, headers)
      if (answer.status !== 200) throw new Error(`unexpected ${answer.status} ${answer.text}`)
      latencies?.push(performance.now() - t)
      count++
    }
    return count
  }
  // Warm-up, then the measured window.
  await Promise.all(Array.from({ length: connections }, () => run(performance.now() + 500)))
  const latencies = []
  const began = performance.now()
  const counts = await Promise.all(Array.from({ length: connections }, () => run(began + seconds * 1000, latencies)))
  const elapsed = (performance.now() - began) / 1000
  agent.destroy()
  latencies.sort((a, b) => a - b)
  const total = counts.reduce((a, b) => a + b, 0)
  return {
    requests: total,
    perSecond: Math.round(total / elapsed),
    p50: latencies[Math.floor(latencies.length * 0.5)] ?? 0,
    p99: latencies[Math.floor(latencies.length * 0.99)] ?? 0,
  }
}

async function uploads(port, mode) {
  const agent = new Agent({ keepAlive: false, maxSockets: 20 })
  const boundary = 'bench-boundary'
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`)
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`)
  const size = mode === 'accepted' ? LIMIT : LIMIT + 1
  const payload = Buffer.concat([head, Buffer.alloc(size - head.length - tail.length, 7), tail])
  const type = `multipart/form-data; boundary=${boundary}`
  const answers = await Promise.all(
    Array.from({ length: 20 }, () =>
      mode === 'refused-streamed'
        ? send(agent, port, '/hooks/uploads', (req) => {
            let offset = 0
            const write = () => {
              while (offset < payload.length) {
                const chunk = payload.subarray(offset, offset + 64 * 1024)
                offset += chunk.length
                if (!req.write(chunk)) return void req.once('drain', write)
              }
              req.end()
            }
            req.on('error', () => {})
            write()
          }, { 'content-type': type, 'transfer-encoding': 'chunked' })
        : send(agent, port, '/hooks/uploads', payload, { 'content-type': type, 'content-length': payload.length }),
    ),
  )
  agent.destroy()
  return answers.map((a) => a.status)
}

function mb(bytes) {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`
}

async function main() {
  const { values } = parseArgs({ options: { seconds: { type: 'string', default: '3' }, connections: { type: 'string', default: '32' } } })
  const seconds = Math.min(Number(values.seconds) || 3, 30)
  const connections = Math.min(Number(values.connections) || 32, 256)
  console.log(`svc-mock webhook bench: node ${process.version}, ${seconds} s per server, ${connections} keep-alive connections, loopback`)

  const bare = await start('bare')
  const bareResult = await load(bare.port, seconds, connections)
  bare.child.send('exit')
  const svc = await start('svc-mock')
  const svcResult = await load(svc.port, seconds, connections)

  console.log('\nJSON intake, POST /hooks/orders (200 Accepted):')
  console.log('  server            req/s     p50 ms   p99 ms   requests')
  for (const [name, r] of [['bare node:http', bareResult], ['svc-mock', svcResult]]) {
    console.log(`  ${name.padEnd(16)} ${String(r.perSecond).padStart(6)}   ${r.p50.toFixed(2).padStart(6)}   ${r.p99.toFixed(2).padStart(6)}   ${r.requests}`)
  }
  console.log(`  svc-mock / bare: ${((svcResult.perSecond / bareResult.perSecond) * 100).toFixed(0)} % (the quality bar asks for at least 30 %)`)

  // Memory: a fresh server, so the executions of the load above do not count.
  svc.child.send('exit')
  const mem = await start('svc-mock', true)
  await ask(mem.child, 'gc')
  const base = await ask(mem.child, 'memory')
  console.log(`\nMemory of the svc-mock server, 20 concurrent uploads (baseline RSS ${mb(base.now.rss)}, heap ${mb(base.now.heapUsed)}):`)
  console.log('  phase                                           statuses      peak RSS   peak heap')
  for (const [mode, label] of [
    ['refused-length', '5,242,881 bytes, Content-Length (refused)'],
    ['refused-streamed', '5,242,881 bytes, chunked (refused streaming)'],
    ['accepted', '5,242,880 bytes, multipart (accepted, kept)'],
  ]) {
    await ask(mem.child, 'gc')
    await ask(mem.child, 'memory')
    const statuses = await uploads(mem.port, mode)
    const { peak } = await ask(mem.child, 'memory')
    const summary = Object.entries(statuses.reduce((acc, s) => ({ ...acc, [s]: (acc[s] ?? 0) + 1 }), {})).map(([s, n]) => `${n}x${s}`).join(' ')
    console.log(`  ${label.padEnd(46)}  ${summary.padEnd(12)}  ${mb(peak.rss).padStart(9)}  ${mb(peak.heapUsed).padStart(9)}`)
  }
  mem.child.send('exit')
}
