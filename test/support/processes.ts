/**
 * Looking at real processes from the CLI tests: whether one is alive (a zombie, dead and not yet
 * reaped, is not), waiting a bounded while for one to go, its parent, the lines it prints, and
 * whether a port is free again.
 */
import type { ChildProcess } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { createServer } from 'node:net'

/** Whether a process is still running (a zombie waiting for its parent does not count). */
export function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z'
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || existsSync('/proc/self/stat')) return false
    try {
      process.kill(pid, 0)
      return true
    } catch {
      return false
    }
  }
}

/** Whether the process is gone within `ms` (polled; a process still there then is reported, not waited on). */
export async function goneWithin(pid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms
  while (alive(pid)) {
    if (Date.now() > deadline) return false
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  return true
}

/** The parent of a running process (Linux's /proc). */
export function parentOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
}

/** Whether a server can listen on the port (on 127.0.0.1) now. */
export async function portFree(port: number): Promise<boolean> {
  const probe = createServer()
  return await new Promise((resolve) => {
    probe.once('error', () => resolve(false))
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)))
  })
}

/** Ends with SIGKILL each process of `pids` that is still alive (a test's leftovers). */
export function killAlive(pids: readonly number[]): void {
  for (const pid of pids) if (alive(pid)) process.kill(pid, 'SIGKILL')
}

/** Resolves with each line the process writes to standard output as it comes, and its exit. */
export function lines(child: ChildProcess): { next: () => Promise<string>; all: () => string[] } {
  const seen: string[] = []
  const waiting: Array<(line: string) => void> = []
  let buffer = ''
  let read = 0
  child.stdout?.on('data', (d: Buffer) => {
    buffer += d.toString()
    for (let i = buffer.indexOf('\n'); i !== -1; i = buffer.indexOf('\n')) {
      seen.push(buffer.slice(0, i))
      buffer = buffer.slice(i + 1)
      waiting.shift()?.(seen[read++] ?? '')
    }
  })
  return {
    next: () => (read < seen.length ? Promise.resolve(seen[read++] ?? '') : new Promise((resolve) => waiting.push(resolve))),
    all: () => seen,
  }
}
