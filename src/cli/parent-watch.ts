/**
 * Noticing that the process that started svc-mock died, so that a CI step killed with SIGKILL
 * leaves no server holding a port. That process is svc-mock's parent, or, started through npm
 * (npx, npm run), npm itself: npm runs the bin through `sh -c`, and that shell outlives a killed
 * npm (dash waits for its child), so svc-mock's own parent never changes. So the watch follows the
 * chain from svc-mock up through shells to the first process that is not one, and fires when any
 * process in it gets a new parent (a process whose parent dies is re-parented at once, whether or
 * not anything reaps the dead one). Linux reads /proc; other Unix systems ask `ps`; on Windows a
 * process is never re-parented, and nothing is noticed.
 */
import { processInfo } from './processes.js'

/** How often the chain is checked: svc-mock ends within 2 s of the death, its close included. */
const CHECK_MS = 250

/** Shells npm (`script-shell`) or a user may run the bin through. */
const SHELLS = new Set(['sh', 'dash', 'bash', 'zsh', 'ash', 'ksh', 'mksh', 'busybox'])

/** How many shells deep the chain is followed (`sh -c` running `sh -c` …). */
const MAX_SHELLS = 4

/** A process of the chain and the parent it had at the start. */
interface Link {
  readonly pid: number
  readonly parent: number
}

/** A watch on the process that started svc-mock, begun before anything could kill it. */
export interface StarterWatch {
  /** Calls `onGone` once when the starter dies, or at once if it died since the watch began. */
  whenGone(onGone: () => void): void
  stop(): void
}

/**
 * Watches svc-mock's parent, or, with `throughShells`, every process from it up to the first
 * ancestor that is not a shell. Start it first thing: the chain is read now, and a chain read after
 * the starter died would hold the new parents and never see the death.
 */
export function watchStarter(throughShells: boolean): StarterWatch {
  let stopped = false
  let checking = false
  let gone = false
  let onGone: (() => void) | undefined
  const links: Link[] = [{ pid: process.pid, parent: process.ppid }]
  const timer = setInterval(() => {
    if (checking) return
    checking = true
    void goneIn(links).then((died) => {
      checking = false
      if (!died || stopped) return
      stop()
      gone = true
      onGone?.()
    })
  }, CHECK_MS)
  timer.unref()
  const stop = (): void => {
    stopped = true
    clearInterval(timer)
  }
  if (throughShells) void shellsAbove(process.ppid).then((shells) => links.push(...shells))
  return {
    whenGone: (then) => {
      onGone = then
      if (gone) then()
    },
    stop,
  }
}

/** The shells from `pid` upwards, each with its parent, up to the first process that is not a shell. */
async function shellsAbove(pid: number): Promise<Link[]> {
  const shells: Link[] = []
  for (let current = pid; current > 1 && shells.length < MAX_SHELLS; ) {
    const info = await processInfo(current)
    if (typeof info !== 'object' || !SHELLS.has(info.comm)) break
    shells.push({ pid: current, parent: info.ppid })
    current = info.ppid
  }
  return shells
}

/** True when a process of the chain has a new parent (its parent died) or is gone itself. */
async function goneIn(links: readonly Link[]): Promise<boolean> {
  for (const link of links) {
    if (link.pid === process.pid) {
      if (process.ppid !== link.parent) return true
      continue
    }
    const info = await processInfo(link.pid)
    if (info === 'gone' || (info !== 'unknown' && info.ppid !== link.parent)) return true
  }
  return false
}
