/**
 * The limits and defaults of API access and the OAuth server, in one place.
 */

/** `expires_in` of access tokens, in seconds: the platform's documented example. */
export const DEFAULT_TOKEN_LIFETIME_S = 899
/** The longest `tokenLifetime` (`--token-lifetime`) takes: ten years, in seconds. */
export const MAX_TOKEN_LIFETIME_S = 10 * 365 * 24 * 3600

/** The token endpoint's path on `{auth_url}`. */
export const TOKEN_PATH = '/oauth2/token'

/** Largest form body the token endpoint and the consent form take. */
export const FORM_BODY_LIMIT = 64 * 1024

/** Lifetime of an authorization code, in milliseconds of emulator time. */
export const CODE_LIFETIME_MS = 60_000

/** Lifetime of a refresh token, in milliseconds of emulator time. */
export const REFRESH_TOKEN_LIFETIME_MS = 30 * 24 * 60 * 60 * 1000

/** The user who consents when a request names none (`login_hint`), and whom `issueToken()` acts for. */
export const DEFAULT_LOGIN = 'alice'

/** `expires_in` of a device code (RFC 8628 section 3.2), seconds: Spring Authorization Server's default. */
export const DEFAULT_DEVICE_CODE_LIFETIME_S = 300

/** `interval` between a device's polls, seconds (RFC 8628 section 3.2 default). */
export const DEFAULT_DEVICE_POLL_INTERVAL_S = 5

/** What `slow_down` adds to the interval, seconds (RFC 8628 section 3.5). */
export const SLOW_DOWN_STEP_S = 5
