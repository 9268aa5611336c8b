/**
 * The emulator's clock. Every time the emulator uses (token expiry, timeouts, delays, timestamps)
 * comes from here, so tests can run a manual clock and advance it instead of waiting.
 *
 * Work that must not miss a timer (a request being handled, a flow processing its queue) runs
 * inside `track()`. `advance()` first lets tracked work settle, that is run until every tracked
 * task is either finished or parked on a clock wait, then moves time and fires the timers that
 * fall due, in order, letting the woken work settle again after each one.
 *
 * A tracked task parks by waiting through the `Task` it is handed (`task.waitUntil`), not through
 * an ambient context: AsyncLocalStorage would put a hook on every promise of every request.
 */
import { performance } from 'node:perf_hooks'
import { aboveZero, oneOf } from './checks.js'
import { type ClockWait, type Task, type TaskState, TrackedTask } from './clock-task.js'
import { type Timer, Timers } from './clock-timers.js'
import { ConfigError } from './errors.js'

export type { Task } from './clock-task.js'

const CLOCK_MODES = ['real', 'manual'] as const
export type ClockMode = (typeof CLOCK_MODES)[number]

export interface ClockOptions {
  /** `real` (default) follows the wall clock, scaled by `timeScale`; `manual` moves only on `advance`. */
  mode?: ClockMode
  /** Emulator time at start. Default: the wall-clock time at creation, in whole seconds. */
  start?: Date | string | number
  /** Real seconds per emulated second, real mode only: 0.01 makes a 40 s timeout take 400 ms. */
  timeScale?: number
}

export interface ClockState {
  now: string
  mode: ClockMode
  timeScale: number
}

/** The largest time a JavaScript Date can hold (ms since the epoch, either way). */
const MAX_TIME = 8.64e15

/** How long `advance()` waits, in real time, for tracked work blocked on something else (I/O). */
const SETTLE_CAP_MS = 250
/** Event-loop turns to keep turning once all tracked work is parked, for work just arriving. */
const SETTLE_IDLE_TURNS = 3

const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve))

export class Clock {
  readonly mode: ClockMode
  readonly timeScale: number
  #start: number
  /** A real clock's lead over the wall clock that a reset keeps (set by a saved state). */
  #lead = 0
  #anchorEmu: number
  #anchorReal: number
  readonly #timers = new Timers()
  #realTimer: NodeJS.Timeout | undefined
  /** The tracked tasks running now. */
  readonly #tasks = new Set<TrackedTask>()
  #advancing: Promise<void> = Promise.resolve()
  /** Tasks wait through this (made once, not per task). */
  readonly #waitFor: ClockWait = (deadline, signal, task) => this.#wait(deadline, signal, task)

  constructor(options: ClockOptions = {}) {
    this.mode = oneOf('clock.mode', options.mode ?? 'real', CLOCK_MODES)
    this.timeScale = aboveZero('clock.timeScale', options.timeScale ?? 1)
    if (this.mode === 'manual' && options.timeScale !== undefined) throw new ConfigError('clock.timeScale', 'applies to the real clock only: drop it, or use {clock.mode=real}')
    this.#start = toEpoch(options.start)
    this.#anchorEmu = this.#start
    this.#anchorReal = performance.now()
  }

  /** Emulator time in milliseconds since the epoch. */
  now(): number {
    if (this.mode === 'manual') return this.#anchorEmu
    return Math.floor(this.#anchorEmu + (performance.now() - this.#anchorReal) / this.timeScale)
  }

  date(): Date {
    return new Date(this.now())
  }

  state(): ClockState {
    return { now: this.date().toISOString(), mode: this.mode, timeScale: this.timeScale }
  }

  /**
   * Resolves when the emulator clock reaches `deadline` (epoch ms), or rejects with the signal's
   * reason when it aborts first. A deadline already passed resolves at once.
   */
  waitUntil(deadline: number, signal?: AbortSignal): Promise<void> {
    return this.#wait(deadline, signal, undefined)
  }

  #wait(deadline: number, signal: AbortSignal | undefined, task: TaskState | undefined): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason)
    if (deadline <= this.now()) return Promise.resolve()
    return new Promise<void>((resolve, reject) => {
      if (task) task.parked++
      const unpark = (): void => {
        if (task) task.parked--
      }
      const timer = this.#add(deadline, () => {
        signal?.removeEventListener('abort', onAbort)
        unpark()
        resolve()
      })
      const onAbort = (): void => {
        if (timer.cancelled) return
        timer.cancelled = true
        unpark()
        reject(signal?.reason)
      }
      signal?.addEventListener('abort', onAbort, { once: true })
    })
  }

  /** Resolves after `ms` of emulator time. */
  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return this.waitUntil(this.now() + Math.max(0, ms), signal)
  }

  /** Runs `fn` when the emulator clock reaches `deadline`; returns a function that cancels it. */
  at(deadline: number, fn: () => void): () => void {
    const timer = this.#add(deadline, fn)
    return () => {
      timer.cancelled = true
    }
  }

  /**
   * Runs `fn` as tracked work: `advance()` will not move time while it runs, unless it is parked
   * on a wait of the task it is handed. Requests and flow processing run this way.
   */
  async track<T>(fn: (task: Task) => Promise<T>): Promise<T> {
    const task = new TrackedTask(this, this.#waitFor)
    this.#tasks.add(task)
    try {
      return await fn(task)
    } finally {
      this.#tasks.delete(task)
    }
  }

  /** Number of tracked tasks that are running and not parked on the clock. */
  busy(): number {
    let n = 0
    for (const task of this.#tasks) if (task.parked === 0) n++
    return n
  }

  /** Tracked tasks parked on a clock wait. */
  parked(): number {
    return this.#tasks.size - this.busy()
  }

  /** Lets tracked work run until all of it is finished or parked on the clock (bounded). */
  async settle(): Promise<void> {
    const deadline = performance.now() + SETTLE_CAP_MS
    let idle = 0
    while (idle < SETTLE_IDLE_TURNS && performance.now() < deadline) {
      await turn()
      idle = this.busy() === 0 ? idle + 1 : 0
    }
  }

  /**
   * Moves the clock forward by `ms`, firing every timer that falls due in order of its deadline.
   * Calls are serialised: a second advance starts when the first has finished.
   */
  advance(ms: number): Promise<void> {
    if (!Number.isFinite(ms) || ms < 0) {
      return Promise.reject(new ConfigError('ms', `must be a number of milliseconds >= 0, got ${String(ms)}`))
    }
    if (this.now() + ms > MAX_TIME) {
      return Promise.reject(
        new ConfigError('ms', `moves the clock past the last date it can represent (${new Date(MAX_TIME).toISOString()}, ${MAX_TIME} ms since the epoch); at most ${MAX_TIME - this.now()} from now`),
      )
    }
    const run = this.#advancing.then(() => this.#advanceNow(ms))
    this.#advancing = run.catch(() => undefined)
    return run
  }

  async #advanceNow(ms: number): Promise<void> {
    await this.settle()
    const target = this.now() + ms
    for (let next = this.#timers.takeDue(target); next !== undefined; next = this.#timers.takeDue(target)) {
      this.#setNow(Math.max(next.due, this.now()))
      next.fire()
      await this.settle()
    }
    this.#setNow(Math.max(target, this.now()))
    this.#arm()
  }

  /**
   * A manual clock goes back to its start time. A real clock goes back to the wall time: the
   * advances are undone, but it is never put behind the wall clock (tokens issued after a reset
   * must carry the current time, or every client would find them expired). Pending waits are
   * released at once so nothing hangs.
   */
  reset(): void {
    const pending = this.#timers.takeAll()
    this.#anchorEmu = this.mode === 'manual' ? this.#start : Date.now() + this.#lead
    this.#anchorReal = performance.now()
    if (this.#realTimer) clearTimeout(this.#realTimer)
    this.#realTimer = undefined
    for (const timer of pending) if (!timer.cancelled) timer.fire()
  }

  /**
   * Moves to `now` (a saved state's time) and makes it where a reset returns: a manual clock
   * starts there; a real clock keeps its lead over the wall clock, never falling behind it.
   * Pending waits are released, as by a reset.
   */
  restore(now: number): void {
    if (!Number.isFinite(now) || Math.abs(now) > MAX_TIME) throw new ConfigError('clock.now', `is not a date: ${String(now)}`)
    if (this.mode === 'manual') this.#start = now
    else this.#lead = Math.max(0, now - Date.now())
    this.reset()
  }

  /** Stops the real timer so the process can exit; pending waits are released. */
  close(): void {
    this.reset()
  }

  #setNow(emu: number): void {
    this.#anchorEmu = emu
    this.#anchorReal = performance.now()
  }

  #add(due: number, fire: () => void): Timer {
    const timer = this.#timers.add(due, fire)
    this.#arm()
    return timer
  }

  /** Real mode: one wall-clock timer for the earliest deadline. */
  #arm(): void {
    if (this.mode !== 'real') return
    if (this.#realTimer) clearTimeout(this.#realTimer)
    this.#realTimer = undefined
    const next = this.#timers.next()
    if (!next) return
    const wait = Math.max(0, (next.due - this.now()) * this.timeScale)
    this.#realTimer = setTimeout(() => this.#fireDue(), Math.min(wait, 2 ** 31 - 1))
    this.#realTimer.unref()
  }

  #fireDue(): void {
    this.#realTimer = undefined
    const now = this.now()
    for (let next = this.#timers.takeDue(now); next !== undefined; next = this.#timers.takeDue(now)) next.fire()
    this.#arm()
  }
}

function toEpoch(start: ClockOptions['start']): number {
  if (start === undefined) return Math.floor(Date.now() / 1000) * 1000
  const ms = start instanceof Date ? start.getTime() : typeof start === 'number' ? start : Date.parse(start)
  if (!Number.isFinite(ms) || Math.abs(ms) > MAX_TIME) throw new ConfigError('clock.start', `is not a date: ${String(start)}`)
  return ms
}
