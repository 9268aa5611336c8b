/**
 * A "something may have changed" signal: domains call `notify()` when state a watcher shows moves
 * without a request being journaled (a flow run ends, a scenario goes off, the clock advances).
 * It carries no data on purpose: watchers read the state they need, so a burst of changes costs
 * them one read, and no listener ever holds a stale copy of what changed.
 */

export class ChangeFeed {
  #listeners = new Set<() => void>()

  /** Calls `listener` on every change from now on; returns the function that stops it. */
  subscribe(listener: () => void): () => void {
    this.#listeners.add(listener)
    return () => {
      this.#listeners.delete(listener)
    }
  }

  notify(): void {
    for (const listener of this.#listeners) listener()
  }
}
