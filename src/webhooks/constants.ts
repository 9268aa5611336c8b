/**
 * The limits and defaults of the webhook gateway and its flows, in one place.
 */

/** Where webhook addresses live on `{webhook_url}`. */
export const HOOK_PATH = '/hooks/:token'

/** The platform's payload limit, for every subscription tier (Content-Length, bytes). */
export const PAYLOAD_LIMIT = 5_242_880

/** Calls that may wait in a queue, unless the webhook says otherwise. */
export const DEFAULT_QUEUE_CAPACITY = 10_000

/** A caller waiting for a webhook-response step gets 500 after this long (emulator time). */
export const DEFAULT_RESPONSE_TIMEOUT_MS = 40_000

/** Executions kept per webhook (the newest), so a long run stays bounded. */
export const DEFAULT_EXECUTIONS_KEPT = 10_000
