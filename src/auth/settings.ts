/**
 * The settings of API access (the `auth` section of the settings tree): what the run options set
 * and what scenarios overlay, so the real gate and OAuth logic produce a scenario's behaviour
 * (a short token lifetime, a rate limit, a denied consent) instead of canned answers.
 */
import * as z from 'zod'
import type { RequestContext } from '../kernel/route.js'
import { readSection } from '../kernel/settings.js'
import { DEFAULT_DEVICE_CODE_LIFETIME_S, DEFAULT_DEVICE_POLL_INTERVAL_S, DEFAULT_TOKEN_LIFETIME_S } from './constants.js'

export const TOKEN_ALGORITHMS = ['RS256', 'ES256', 'ES384', 'EdDSA'] as const
export type TokenAlgorithm = (typeof TOKEN_ALGORITHMS)[number]

export const RateLimitSetting = z.strictObject({
  /** Calls allowed per window and identity; 0 refuses every call. */
  limit: z.number().int().min(0),
  /** Length of the window in seconds of emulator time; it starts with an identity's first call. */
  windowSeconds: z.number().int().min(1),
})
export type RateLimitSetting = z.infer<typeof RateLimitSetting>

export const AuthSettings = z.object({
  /** `rejected` makes every static-key call fail with 401, as once static keys are discontinued. */
  staticKeys: z.enum(['allowed', 'rejected']).default('allowed'),
  /** `expires_in` of access tokens, in seconds (the platform's documented example: 899). */
  tokenLifetime: z.number().int().min(1).default(DEFAULT_TOKEN_LIFETIME_S),
  /** Algorithm that signs new access tokens. */
  tokenAlgorithm: z.enum(TOKEN_ALGORITHMS).default('RS256'),
  /**
   * `auto` consents at once as the login_hint user (and approves a device code at once as the
   * default user); `page` shows the consent page (and leaves a device code pending until someone
   * approves it on the verification page, the dashboard or the control plane); `deny` answers as
   * if the user clicked Deny.
   */
  consent: z.enum(['auto', 'page', 'deny']).default('auto'),
  /** `expires_in` of device codes, in seconds; a poll after that answers `expired_token`. */
  deviceCodeLifetime: z.number().int().min(0).default(DEFAULT_DEVICE_CODE_LIFETIME_S),
  /** The `interval` a device is told to wait between polls, in seconds. */
  devicePollInterval: z.number().int().min(1).default(DEFAULT_DEVICE_POLL_INTERVAL_S),
  /** Polls an approved device code still answers `authorization_pending` before its tokens. */
  devicePendingPolls: z.number().int().min(0).default(0),
  /** The first poll of each device code answers `slow_down` (and raises its interval by 5 s), as if it came too soon. */
  deviceSlowDown: z.boolean().default(false),
  /** `rejected`: the token endpoint refuses every client's credentials with `invalid_client`. */
  clientAuthentication: z.enum(['normal', 'rejected']).default('normal'),
  /** `none`: every credential authenticates but holds no permission, so protected calls get 403. */
  permissions: z.enum(['granted', 'none']).default('granted'),
  /** The gate checks access-token expiry as if the clock were this many seconds ahead. */
  tokenClockOffset: z.number().int().min(0).default(0),
  /** A per-identity rate limit on the platform API, or null for none (the default). */
  rateLimit: RateLimitSetting.nullable().default(null),
})
export type AuthSettings = z.infer<typeof AuthSettings>

export function authSettings(ctx: RequestContext): AuthSettings {
  return readSection(ctx.settings, 'auth', AuthSettings)
}
