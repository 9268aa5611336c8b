// Starting one server of bench/compare.js: spawned in its own process pinned to the server CPU,
// its URL learnt from its banner (or given), ready once a request gets the expected status.
import { pinning, ROOT, spawnPinned, stop } from './env.js'
import { request } from './requests.js'

const BANNER = /listening on (http:\/\/127\.0\.0\.1:\d+)/

/**
 * Starts a server: spawns it pinned to the server CPU, learns its URL (from a banner on stdout,
 * or the port it was given), then polls `ready` (every 2 ms, no keep-alive) until `expect`.
 * Times in ms from spawn: { banner, firstAnswer }. Rejects (after stopping it) at `timeoutMs`.
 */
export async function startServer({ name, command, args, url, ready, expect = 200, timeoutMs = 30_000, cwd = ROOT }) {
  const t0 = performance.now()
  const child = spawnPinned(pinning.server, command, args, { cwd, detached: false })
  let out = ''
  let err = ''
  child.stdout.setEncoding('utf8').on('data', (d) => (out += d.length + out.length < 65536 ? d : ''))
  child.stderr.setEncoding('utf8').on('data', (d) => (err += d.length + err.length < 65536 ? d : ''))
  let exited = null
  child.once('exit', (code, signal) => (exited = { code, signal }))
  child.once('error', (error) => (exited = { error: error.message }))
  const fail = async (why) => {
    await stop(child)
    throw new Error(`${name}: ${why}${out || err ? `\n--- its output:\n${(out + err).slice(-2000)}` : ''}`)
  }
  let banner
  while (!url) {
    const m = BANNER.exec(out)
    if (m) {
      url = m[1]
      banner = performance.now() - t0
    } else if (exited) return fail(`exited before its banner (${JSON.stringify(exited)})`)
    else if (performance.now() - t0 > timeoutMs) return fail(`no banner within ${timeoutMs} ms`)
    else await new Promise((r) => setTimeout(r, 2))
  }
  let last
  for (;;) {
    last = await request(url + ready.path, { method: ready.method, headers: ready.headers, body: ready.body, timeoutMs: 2000 })
    if (last.status === expect) break
    if (exited) return fail(`exited before answering (${JSON.stringify(exited)})`)
    if (performance.now() - t0 > timeoutMs) return fail(`no ${expect} on ${ready.path} within ${timeoutMs} ms (last: ${last.status || last.error})`)
    await new Promise((r) => setTimeout(r, 2))
  }
  const firstAnswer = performance.now() - t0
  return {
    name,
    child,
    pid: child.pid,
    url,
    timings: { banner, firstAnswer },
    output: () => out + err,
    stop: () => stop(child, 5000),
  }
}
