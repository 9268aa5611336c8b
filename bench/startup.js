// Start-up: from spawning `node bin/svc-mock.js --port 0 --log json` to its first 200 answer of
// the versions GET. Polls as soon as the banner names the port (and every 2 ms after a miss).
// Baseline: the same measure for a bare node:http server (bench/servers/bare-server.js).
import { spawn } from 'node:child_process'
import http from 'node:http'
import { ROOT, stop } from './lib/proc.js'
import { summarize } from './lib/stats.js'

export const VERSIONS_PATH =
  '/acme-collection/acme-tenant/_api/rest/facets/processes/views/default/elements/0f8fad5b-d9cb-469f-a165-70867728950e/versions'
export const AUTH = { authorization: 'AppKey svcmock-app-key' }

// svc-mock's `--log json` listening event, or `listening on URL` (the bare server).
const LISTENING = /(?:listening on |"event":"listening".*?"url":")http:\/\/127\.0\.0\.1:(\d+)/

/** One GET without keep-alive; resolves with the status code, or 0 on a connection error. */
export function get(port, path, headers = {}) {
  return new Promise((resolve) => {
    const req = http.request({ host: '127.0.0.1', port, path, headers, agent: false }, (res) => {
      res.resume()
      res.on('end', () => resolve(res.statusCode))
    })
    req.on('error', () => resolve(0))
    req.end()
  })
}

/** Spawns `args`, waits for the banner, polls `path` until 200. Times in ms from spawn. */
export async function startOnce(args, { path = VERSIONS_PATH, headers = AUTH, timeoutMs = 10_000 } = {}) {
  const t0 = performance.now()
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] })
  try {
    const port = await new Promise((resolve, reject) => {
      let out = ''
      let err = ''
      const timer = setTimeout(() => reject(new Error(`no banner within ${timeoutMs} ms: ${out}${err}`)), timeoutMs)
      child.stderr.setEncoding('utf8').on('data', (d) => (err += d))
      child.stdout.setEncoding('utf8').on('data', (d) => {
        out += d
        const m = LISTENING.exec(out)
        if (m) {
          clearTimeout(timer)
          resolve(Number(m[1]))
        }
      })
      child.once('exit', (code) => {
        clearTimeout(timer)
        reject(new Error(`exited with code ${code} before its banner: ${out}${err}`))
      })
    })
    const banner = performance.now() - t0
    let attempts = 0
    for (;;) {
      attempts++
      const status = await get(port, path, headers)
      if (status === 200) break
      if (performance.now() - t0 > timeoutMs) throw new Error(`no 200 within ${timeoutMs} ms (last status ${status})`)
      await new Promise((r) => setTimeout(r, 2))
    }
    return { banner, firstAnswer: performance.now() - t0, attempts }
  } finally {
    child.stdout.destroy()
    child.stderr.destroy()
    await stop(child)
  }
}

export async function measureStartup({ runs = 7 } = {}) {
  // One untimed run of each warms the file cache and this process's http client.
  await startOnce(['bin/svc-mock.js', '--port', '0', '--log', 'json'])
  await startOnce(['bench/servers/bare-server.js'], { path: '/' })
  const svc = []
  const bare = []
  for (let i = 0; i < runs; i++) {
    svc.push(await startOnce(['bin/svc-mock.js', '--port', '0', '--log', 'json']))
    bare.push(await startOnce(['bench/servers/bare-server.js'], { path: '/' }))
  }
  return {
    runs,
    svcMock: { firstAnswer: summarize(svc.map((r) => r.firstAnswer)), banner: summarize(svc.map((r) => r.banner)), samples: svc },
    bare: { firstAnswer: summarize(bare.map((r) => r.firstAnswer)), banner: summarize(bare.map((r) => r.banner)), samples: bare },
  }
}
