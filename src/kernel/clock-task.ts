/**
 * Tracked work on the emulator clock (`clock.track()`): a request or a flow run, whose clock waits
 * park it, so `advance()` moves time past them instead of waiting for them.
 */

export interface TaskState {
  parked: number
}

export type ClockWait = (deadline: number, signal: AbortSignal | undefined, task: TaskState) => Promise<void>

/** One per tracked piece of work (a request, a flow run): its own state, methods shared. */
export class TrackedTask implements Task, TaskState {
  parked = 0
  readonly #clock: { now(): number }
  readonly #wait: ClockWait

  constructor(clock: { now(): number }, wait: ClockWait) {
    this.#clock = clock
    this.#wait = wait
  }

  waitUntil(deadline: number, signal?: AbortSignal): Promise<void> {
    return this.#wait(deadline, signal, this)
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return this.#wait(this.#clock.now() + Math.max(0, ms), signal, this)
  }
}

/** Tracked work, as `track()` hands it to the function it runs: its waits park it. */
export interface Task {
  /** As `Clock.waitUntil`; while it waits, the task counts as parked, so `advance()` does not wait for it. */
  waitUntil(deadline: number, signal?: AbortSignal): Promise<void>
  /** As `Clock.sleep`, parked likewise. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>
}
