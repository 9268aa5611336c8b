/**
 * What the operating system tells svc-mock about other processes, for ending what `exec` started
 * and for noticing that the process that started svc-mock died: a process's parent and command
 * name, and whether a process group still has a living member. On Linux from /proc; elsewhere on
 * Unix from `ps` and `kill(-pgid, 0)`; on Windows nothing is known ('unknown').
 */
import { execFile } from 'node:child_process'
import { existsSync, readFileSync, readdirSync } from 'node:fs'

/** A process's parent and the name of its command (`sh`, `node`). */
export interface ProcessInfo {
  readonly ppid: number
  readonly comm: string
}

const PROC = process.platform === 'linux' && existsSync('/proc/self/stat')

/** The process's parent and command name; 'gone' when there is no such process; 'unknown' where the system cannot say. */
export async function processInfo(pid: number): Promise<ProcessInfo | 'gone' | 'unknown'> {
  if (PROC) {
    const stat = procStat(pid)
    return stat === undefined ? 'gone' : { ppid: stat.ppid, comm: stat.comm }
  }
  if (process.platform === 'win32') return 'unknown'
  return await psInfo(pid)
}

/** True while a member of the process group is alive (a zombie, dead and not yet reaped, is not). */
export function groupAlive(pgid: number): boolean {
  if (PROC) {
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue
      const stat = procStat(Number(entry))
      if (stat !== undefined && stat.pgrp === pgid && stat.state !== 'Z' && stat.state !== 'X') return true
    }
    return false
  }
  try {
    process.kill(-pgid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** Sends `signal` to every process of the group; a group that is gone already is no error. */
export function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal)
  } catch {
    // The group is gone already.
  }
}

/** How often a group being ended is looked at. */
const GROUP_POLL_MS = 20

/**
 * Ends the process group: SIGTERM to every member, then, for those still alive after `graceMs`,
 * SIGKILL; resolves once none is alive, or a moment after SIGKILL if some process cannot be seen go.
 */
export async function endGroup(pgid: number, graceMs: number): Promise<void> {
  if (!groupAlive(pgid)) return
  signalGroup(pgid, 'SIGTERM')
  if (await goneWithin(pgid, graceMs)) return
  signalGroup(pgid, 'SIGKILL')
  await goneWithin(pgid, graceMs)
}

async function goneWithin(pgid: number, ms: number): Promise<boolean> {
  for (let waited = 0; waited < ms; waited += GROUP_POLL_MS) {
    if (!groupAlive(pgid)) return true
    await new Promise((resolve) => setTimeout(resolve, GROUP_POLL_MS))
  }
  return !groupAlive(pgid)
}

interface ProcStat {
  readonly comm: string
  readonly state: string
  readonly ppid: number
  readonly pgrp: number
}

/** /proc/<pid>/stat: `pid (comm) state ppid pgrp …`, where comm may hold spaces and parentheses. */
function procStat(pid: number): ProcStat | undefined {
  let text: string
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8')
  } catch {
    return undefined
  }
  const close = text.lastIndexOf(')')
  const [state = '', ppid = '0', pgrp = '0'] = text.slice(close + 2).split(' ')
  return { comm: text.slice(text.indexOf('(') + 1, close), state, ppid: Number(ppid), pgrp: Number(pgrp) }
}

/** `ps -o ppid=,comm= -p PID`: the parent and the command (a path on macOS); 'unknown' when there is no `ps`. */
function psInfo(pid: number): Promise<ProcessInfo | 'gone' | 'unknown'> {
  return new Promise((resolve) => {
    execFile('ps', ['-o', 'ppid=,comm=', '-p', String(pid)], (error, stdout) => {
      const match = /^\s*(\d+)\s+(.*?)\s*$/m.exec(stdout)
      if (match) resolve({ ppid: Number(match[1]), comm: (match[2] ?? '').split('/').pop() ?? '' })
      else resolve(error !== null && (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'unknown' : 'gone')
    })
  })
}
