// The machine side of bench/compare.js: CPU pinning with taskset, free ports, child processes
// started on a given core, and per-process CPU time and memory read from /proc/<pid>.
import { execFileSync, spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import { ROOT, stop } from '../lib/proc.js'

export { ROOT, stop }

function has(command, args) {
  try {
    execFileSync(command, args, { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
}

const cpuCount = typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length

/**
 * Servers and in-process children go to CPU 0, the load generator (this process) to CPU 1, when
 * taskset exists and there are at least 2 CPUs; otherwise nothing is pinned and the report says so.
 */
export const pinning = {
  available: cpuCount >= 2 && has('taskset', ['-V']),
  server: '0',
  loadGenerator: '1',
  all: Array.from({ length: cpuCount }, (_, i) => i).join(','),
}

/** Pins this process (every thread: -a) to the load generator's CPU. */
export function pinSelf() {
  if (!pinning.available) return false
  execFileSync('taskset', ['-a', '-p', '-c', pinning.loadGenerator, String(process.pid)], { stdio: 'ignore' })
  return true
}

/** The CPU ticks per second of /proc/<pid>/stat (USER_HZ, 100 on Linux). */
export const CLK_TCK = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100
  } catch {
    return 100
  }
})()

/** utime + stime of a process in ms (0 if it is gone or /proc is absent). */
export function cpuMs(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    // Fields after the command name (which may hold spaces) start after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    // utime is field 14 and stime 15 of stat, i.e. 12 and 13 after "pid (comm) ".
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLK_TCK
  } catch {
    return NaN
  }
}

/** Resident set size of a process in MB (VmRSS), NaN if unknown. */
export function rssMB(pid) {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
    return m ? Number(m[1]) / 1024 : NaN
  } catch {
    return NaN
  }
}

/** A port that was free a moment ago on 127.0.0.1 (for peers that cannot be told port 0). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer()
    server.unref()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address()
      server.close(() => resolve(port))
    })
  })
}

/**
 * Spawns `command args` pinned to `cpus` (a taskset list) when pinning is available. taskset execs
 * the command, so the child's pid is the command's own: /proc figures and stop() apply to it.
 */
export function spawnPinned(cpus, command, args, options = {}) {
  const [cmd, argv] = pinning.available && cpus ? ['taskset', ['-c', cpus, command, ...args]] : [command, args]
  const child = spawn(cmd, argv, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], ...options })
  track(child)
  return child
}

// Every child this bench starts, so that none outlives it: on Ctrl-C or a crash each is ended by
// its own pid (never by name).
const live = new Set()
let hooked = false
function track(child) {
  if (!child.pid) return
  live.add(child)
  child.once('exit', () => live.delete(child))
  if (hooked) return
  hooked = true
  const killAll = (signal) => {
    for (const c of live) {
      try {
        process.kill(c.pid, signal)
      } catch {}
    }
  }
  process.once('exit', () => killAll('SIGKILL'))
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.once(signal, () => {
      killAll('SIGTERM')
      setTimeout(() => process.exit(130), 500).unref()
    })
  }
}

/**
 * Runs `command args` to completion, pinned, with a time limit (SIGKILL by pid when it passes).
 * Resolves { code, signal, ms (spawn to exit), stdout, stderr, timedOut }.
 */
export function runPinned(cpus, command, args, { timeoutMs = 60_000, cwd = ROOT, env } = {}) {
  return new Promise((resolve) => {
    const t0 = performance.now()
    const child = spawnPinned(cpus, command, args, { cwd, env: env ? { ...process.env, ...env } : process.env })
    let stdout = ''
    let stderr = ''
    child.stdout.setEncoding('utf8').on('data', (d) => (stdout += d))
    child.stderr.setEncoding('utf8').on('data', (d) => (stderr += d))
    let timedOut = false
    const timer = setTimeout(() => {
      timedOut = true
      try {
        process.kill(child.pid, 'SIGKILL')
      } catch {}
    }, timeoutMs)
    child.on('error', (error) => {
      clearTimeout(timer)
      resolve({ code: -1, signal: null, ms: performance.now() - t0, stdout, stderr: `${stderr}${error.message}`, timedOut })
    })
    child.on('exit', (code, signal) => {
      const ms = performance.now() - t0
      clearTimeout(timer)
      // Let the pipes drain before resolving.
      setImmediate(() => resolve({ code, signal, ms, stdout, stderr, timedOut }))
    })
  })
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

export function loadAverage() {
  return os.loadavg()[0]
}

export const machine = {
  node: process.version,
  platform: `${os.platform()} ${os.release()}`,
  cpus: cpuCount,
  cpuModel: os.cpus()[0]?.model,
  memoryMB: Math.round(os.totalmem() / 2 ** 20),
}
