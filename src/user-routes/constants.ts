/**
 * The user-routes domain's limits and defaults, in one place.
 */
import { CONTROL_PREFIX } from '../kernel/control.js'

/** The id of the fallback route that forwards to the user's real team (the journal's `route`). */
export const PROXIED_ROUTE = 'proxied'

/** Route ids a user may not take: the journal's own names for requests no route served. */
export const RESERVED_IDS: readonly string[] = ['unmatched', PROXIED_ROUTE]

/**
 * The control plane's prefix: the kernel matches the control routes first there and never hands a
 * path under it to another route, so a route of the user's written under it could never answer
 * and is refused.
 */
export const RESERVED_PREFIX = CONTROL_PREFIX

/** A resource's records are keyed by this field unless it names another. */
export const DEFAULT_ID_FIELD = 'id'

/** How long the proxy waits for the upstream's answer to begin, in emulator milliseconds, unless `proxyTimeoutMs` says. */
export const DEFAULT_PROXY_TIMEOUT_MS = 30_000
/** The longest `proxyTimeoutMs` (`--proxy-timeout`) takes: a day. */
export const MAX_PROXY_TIMEOUT_MS = 24 * 3600 * 1000

/** Largest request body the proxy forwards (it streams; this only bounds a runaway upload). */
export const PROXY_BODY_LIMIT = 100 * 1024 * 1024

/**
 * Largest answer body `--record` keeps, in memory until the answer ends: a larger one is forwarded
 * whole but recorded as its head and a note that the body was too large.
 */
export const RECORD_LIMIT = 5 * 1024 * 1024

/** A recording's route id, and its file name without `.json` or `.body`: at most this long (the route schema's id limit). */
export const RECORD_ID_LIMIT = 100

/** Hex digits of the hash of the method and path template that ends a recording's name. */
export const RECORD_HASH_LENGTH = 10

/** The newest outcomes `emu.userRoutes.recorded()` answers with. */
export const RECORDINGS_KEPT = 1000

/** A recorded JSON answer up to this size goes into the route file itself; a larger one (or any other) into a body file beside it. */
export const RECORD_INLINE_LIMIT = 64 * 1024

/** Headers that describe one connection or one encoding of a body, never forwarded or recorded as they are. */
export const HOP_BY_HOP: ReadonlySet<string> = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
])

/** Response headers a route file may not set: the transport frames the body itself. */
export const FRAMING_HEADERS: ReadonlySet<string> = new Set(['content-length', 'transfer-encoding', 'connection'])
