// Child-process helpers: spawn with a deadline, read a line, stop a child by its pid.
import { execFileSync, spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'

export const ROOT = fileURLToPath(new URL('../../', import.meta.url))

/** The commit being measured (short hash), flagged when src/ has uncommitted changes; undefined outside git. */
export function gitCommit() {
  try {
    const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim()
    const dirty = execFileSync('git', ['status', '--porcelain', '--', 'src'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim() !== ''
    return dirty ? `${head} (src/ has uncommitted changes)` : head
  } catch {
    return undefined
  }
}

/** Sends SIGTERM to this child (by its pid), then SIGKILL if it has not exited after `graceMs`. */
export async function stop(child, graceMs = 3000) {
  if (child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise((resolve) => child.once('exit', resolve))
  try {
    process.kill(child.pid, 'SIGTERM')
  } catch {
    return
  }
  const timer = setTimeout(() => {
    try {
      process.kill(child.pid, 'SIGKILL')
    } catch {}
  }, graceMs)
  await exited
  clearTimeout(timer)
}

/**
 * Runs `node args...` to completion, with a time limit (SIGKILL by pid when it passes). Resolves
 * with { code, signal, stdout, stderr, ms, timedOut, peakRssMB }; `watchRss(pid)` (MB), when
 * given, is sampled every 250 ms for the peak.
 */
export function runNode(args, { timeoutMs, env, cwd = ROOT, watchRss } = {}) {
  return new Promise((resolve) => {
    const started = performance.now()
    const child = spawn(process.execPath, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.setEncoding('utf8').on('data', (d) => (stdout += d))
    child.stderr.setEncoding('utf8').on('data', (d) => (stderr += d))
    let timedOut = false
    const timer = timeoutMs
      ? setTimeout(() => {
          timedOut = true
          try {
            process.kill(child.pid, 'SIGKILL')
          } catch {}
        }, timeoutMs)
      : undefined
    let peakRssMB
    const sample = () => {
      const v = watchRss?.(child.pid)
      if (v !== undefined) peakRssMB = Math.max(peakRssMB ?? 0, v)
    }
    const sampler = watchRss ? setInterval(sample, 250) : undefined
    child.on('exit', (code, signal) => {
      clearTimeout(timer)
      clearInterval(sampler)
      resolve({ code, signal, stdout, stderr, ms: performance.now() - started, timedOut, peakRssMB })
    })
  })
}

/** Starts a server child with an IPC channel; resolves once it sends `{ type: 'listening', port }`. */
export function startServerChild(script, { execArgv = [], timeoutMs = 10_000 } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...execArgv, script], { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
    const timer = setTimeout(() => {
      stop(child)
      reject(new Error(`${script} did not start within ${timeoutMs} ms`))
    }, timeoutMs)
    child.once('exit', (code, signal) => {
      clearTimeout(timer)
      reject(new Error(`${script} exited before listening (code ${code}, signal ${signal})`))
    })
    child.on('message', function onMessage(msg) {
      if (msg?.type !== 'listening') return
      clearTimeout(timer)
      child.off('message', onMessage)
      child.removeAllListeners('exit')
      resolve({ child, port: msg.port, url: `http://127.0.0.1:${msg.port}` })
    })
  })
}

/** Asks a server child something over IPC (`{ type }` -> `{ type, ...answer }`). */
export function ask(child, type, extra = {}, timeoutMs = 10_000) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer to ${type}`)), timeoutMs)
    child.on('message', function onMessage(msg) {
      if (msg?.type !== `${type}:done`) return
      clearTimeout(timer)
      child.off('message', onMessage)
      resolve(msg)
    })
    child.send({ type, ...extra })
  })
}
