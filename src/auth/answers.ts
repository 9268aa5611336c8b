/**
 * The shapes of the API-access answers other domains document too (the token, the platform's rate
 * limit), for the documentation only: loaded when an OpenAPI document is asked for.
 */
import * as z from 'zod'

export const TokenResponseBody = z.object({
  access_token: z.string().meta({ description: 'A JWT (RS256 unless --token-algorithm says otherwise).' }),
  scope: z.string().meta({ description: 'Granted scopes, space-separated.' }),
  token_type: z.literal('Bearer'),
  expires_in: z.number().int().meta({ description: 'Seconds; default 899.' }),
  refresh_token: z.string().optional().meta({ description: 'Authorization code and device grants only; rotated on each use.' }),
}).meta({ id: 'TokenResponse' })

/** The platform's rate limit (scenario `rate-limited`). */
export const RateLimitBody = z.object({ title: z.literal('Rate limit exceeded'), status: z.literal(429), detail: z.string(), errorCode: z.literal('LIMIT_RATE_EXCEEDED') }).meta({ id: 'RateLimitError' })


export { RATE_LIMIT_HEADERS } from './rate-limit-headers.js'
