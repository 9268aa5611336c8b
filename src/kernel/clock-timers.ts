/**
 * The clock's pending timers, kept in a list sorted by deadline: those due together fire in the
 * order they were made. A cancelled timer stays in the list until it reaches the front, where it is
 * dropped, so cancelling costs nothing but a flag.
 */

export interface Timer {
  readonly due: number
  readonly fire: () => void
  cancelled: boolean
}

export class Timers {
  #list: Timer[] = []

  /** A timer for `due`, placed after every timer due at the same time or earlier. */
  add(due: number, fire: () => void): Timer {
    const timer: Timer = { due, fire, cancelled: false }
    const list = this.#list
    let at = list.length
    while (at > 0 && (list[at - 1] as Timer).due > due) at--
    list.splice(at, 0, timer)
    return timer
  }

  /** The earliest timer not cancelled, left in the list. */
  next(): Timer | undefined {
    while (this.#list[0]?.cancelled === true) this.#list.shift()
    return this.#list[0]
  }

  /** Takes the earliest timer not cancelled out of the list when it falls due by `time`. */
  takeDue(time: number): Timer | undefined {
    const next = this.next()
    if (next === undefined || next.due > time) return undefined
    this.#list.shift()
    return next
  }

  /** Takes every timer out of the list, cancelled ones included. */
  takeAll(): Timer[] {
    const all = this.#list
    this.#list = []
    return all
  }
}
