/** The headers of the platform's rate limit (scenario `rate-limited`), as the documentation describes them. */
export const RATE_LIMIT_HEADERS = {
  'x-ratelimit-limit': 'Requests allowed in the window.',
  'x-ratelimit-remaining': 'Requests left in the window.',
  'x-ratelimit-reset': 'Seconds until the window resets.',
}
