/**
 * The platform API's rate limit, when a run option or the `rate-limited` scenario sets one: a
 * fixed window per identity on the emulator clock, starting with the identity's first call. Every
 * answer then carries `x-ratelimit-limit` and `x-ratelimit-remaining`; a call over the limit gets
 * 429 with `x-ratelimit-reset` (seconds until the window ends) and the platform's body.
 */
import type { RequestContext } from '../kernel/route.js'
import { RateLimitError, rateLimitHeaders } from './wire.js'
import type { RateLimitSetting } from './settings.js'

/** One identity's current window: its start (emulator time), the calls counted, the limit and length it was opened with. */
export interface Window {
  start: number
  count: number
  limit: number
  windowMs: number
}

export class RateLimiter {
  #windows = new Map<string, Window>()
  /** What a reset returns to. */
  #baseline: Array<[string, Window]> = []

  /** Counts one call of `identity`; throws RateLimitError once the window's calls are used up. */
  check(ctx: RequestContext, identity: string, setting: RateLimitSetting): void {
    const now = ctx.receivedAt
    const windowMs = setting.windowSeconds * 1000
    let window = this.#windows.get(identity)
    if (!window || now >= window.start + window.windowMs || window.limit !== setting.limit || window.windowMs !== windowMs) {
      window = { start: now, count: 0, limit: setting.limit, windowMs }
      this.#windows.set(identity, window)
    }
    const resetSeconds = Math.max(1, Math.ceil((window.start + windowMs - now) / 1000))
    if (window.count >= setting.limit) {
      throw new RateLimitError(
        `Rate limit exceeded: ${setting.limit} calls per ${setting.windowSeconds} s. Retry in ${resetSeconds} s.`,
        setting.limit,
        resetSeconds,
      )
    }
    window.count++
    for (const [name, value] of Object.entries(rateLimitHeaders(setting.limit, setting.limit - window.count))) ctx.responseHeaders.set(name, value)
  }

  /** The open windows, by identity (what a saved state holds). */
  saved(): Array<[string, Window]> {
    return [...this.#windows].map(([identity, window]) => [identity, { ...window }])
  }

  /** Holds these windows, and only these, and a reset returns to them. */
  restore(windows: ReadonlyArray<readonly [string, Window]>): void {
    this.#baseline = windows.map(([identity, window]) => [identity, { ...window }])
    this.reset()
  }

  /** Back to no window open (or to those of the saved state loaded last). */
  reset(): void {
    this.#windows = new Map(this.#baseline.map(([identity, window]) => [identity, { ...window }]))
  }
}
