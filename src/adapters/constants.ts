/**
 * The standalone server's defaults, in one place (the command line reads them without loading the
 * server).
 */

export const DEFAULT_PORT = 4010
export const DEFAULT_HOST = '127.0.0.1'

/** Bodies announced up to this many bytes (Content-Length) are read before the request is served. */
export const SMALL_BODY_BYTES = 64 * 1024

/**
 * Once a 413 is written, the rest of the upload is read and discarded, up to this many bytes and
 * for at most this long, before the answer ends (and a closing connection closes): a client that
 * is still sending then reads the answer instead of a broken pipe. Past either bound the
 * connection is closed.
 */
export const DRAIN_LIMIT_BYTES = 64 * 1024 * 1024
export const DRAIN_LIMIT_MS = 5_000

/** A request (headers and body) not received within this long is answered 408 and closed. */
export const REQUEST_TIMEOUT_MS = 30_000
