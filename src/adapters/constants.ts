/**
 * The standalone server's defaults, in one place (the command line reads them without loading the
 * server).
 */

export const DEFAULT_PORT = 4010
export const DEFAULT_HOST = '127.0.0.1'

/** Bodies announced up to this many bytes (Content-Length) are read before the request is served. */
export const SMALL_BODY_BYTES = 64 * 1024
