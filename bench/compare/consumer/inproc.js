// bench/compare.js row 3: one long-lived child per system, `node inproc.js emu-msw|hand-msw|emu-handle`.
// It sets itself up, answers { type: 'ready', bytes }, then on { type: 'burst', ms, max } sends
// versions GETs one after the other (await the answer and its body) for `ms` milliseconds or `max`
// requests, and answers { type: 'burst:done', requests, ms, p50Us, p99Us, cpuUs } (its own CPU time per request).
import { AUTH, VERSIONS_URL } from './request.js'

const kind = process.argv[2]
const init = { headers: { authorization: AUTH } }
let send
let close = () => {}
if (kind === 'hand-msw') {
  const { setupServer } = await import('msw/node')
  const { http, HttpResponse } = await import('msw')
  const { BODY, HEADERS, STATUS } = await import('./answer.js')
  const server = setupServer(http.get(VERSIONS_URL, () => new HttpResponse(BODY, { status: STATUS, headers: HEADERS })))
  server.listen({ onUnhandledRequest: 'error' })
  close = () => server.close()
  send = () => fetch(VERSIONS_URL, init)
} else {
  const { createEmulator } = await import('svc-mock')
  const emu = await createEmulator({ clock: 'manual' })
  if (kind === 'emu-msw') {
    const { setupServer } = await import('msw/node')
    const server = setupServer(...emu.handlers)
    server.listen({ onUnhandledRequest: 'error' })
    close = () => server.close()
    send = () => fetch(VERSIONS_URL, init)
  } else if (kind === 'emu-handle') {
    send = () => emu.handle(new Request(VERSIONS_URL, init))
  } else {
    throw new Error(`unknown kind ${kind}`)
  }
}

async function once() {
  const res = await send()
  const body = await res.arrayBuffer()
  if (res.status !== 200) throw new Error(`${kind}: status ${res.status}`)
  return body.byteLength
}

const bytes = await once()
process.on('disconnect', () => process.exit(0))
process.on('message', async (msg) => {
  if (msg?.type === 'stop') {
    close()
    process.exit(0)
  }
  if (msg?.type !== 'burst') return
  const lat = new Float64Array(msg.max)
  let n = 0
  const cpu0 = process.cpuUsage()
  const t0 = performance.now()
  const until = t0 + msg.ms
  while (n < msg.max) {
    const s = performance.now()
    if (s >= until) break
    await once()
    lat[n++] = performance.now() - s
  }
  const ms = performance.now() - t0
  const cpu = process.cpuUsage(cpu0)
  const sortedLat = lat.subarray(0, n).sort()
  const at = (p) => sortedLat[Math.min(n - 1, Math.max(0, Math.ceil((p / 100) * n) - 1))] * 1000
  process.send({ type: 'burst:done', requests: n, ms, p50Us: at(50), p99Us: at(99), cpuUs: (cpu.user + cpu.system) / n })
})
process.send({ type: 'ready', bytes })
