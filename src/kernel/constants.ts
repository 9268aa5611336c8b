/**
 * The kernel's limits and defaults, in one place. Each domain keeps its own in its `constants.ts`.
 */

/** Bodies larger than this are refused on routes that set no limit of their own. */
export const DEFAULT_BODY_LIMIT = 10 * 1024 * 1024

/** How many requests the journal keeps (the newest). */
export const DEFAULT_JOURNAL_CAPACITY = 1000

/** Largest response body a journal entry shows. */
export const JOURNAL_BODY_LIMIT = 64 * 1024

/** How long a wait (for a journal entry, an execution) lasts by default, in emulator milliseconds. */
export const DEFAULT_WAIT_MS = 30_000

/** Request header that switches scenarios on for one request. */
export const SCENARIO_HEADER = 'x-svc-mock-scenario'

/** Response header that tells a test author why svc-mock refused a call (the platform's bodies do not say). */
export const REASON_HEADER = 'x-svc-mock-reason'

/** How deep structured input may nest (JSON bodies, `$filter`, data structures, fixtures): over this is a 400. */
export const MAX_NESTING = 256

/**
 * The largest saved state `POST /__svc-mock/state/import` takes: room for a busy run's document
 * (bench/README.md, "Saved states", has the sizes).
 */
export const SAVED_STATE_BODY_LIMIT = 256 * 1024 * 1024
