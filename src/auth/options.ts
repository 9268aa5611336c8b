/**
 * The run options of API access (`createEmulator()` and the command line): what they are, their
 * flags (`--static-keys`, `--token-lifetime`, `--token-algorithm`, `--consent`), and their check,
 * once, as they become the domain's base settings (a ConfigError naming the option).
 */
import { oneOf, wholeNumber } from '../kernel/checks.js'
import { type Flag, numberText } from '../kernel/flags.js'
import { DEFAULT_TOKEN_LIFETIME_S, MAX_TOKEN_LIFETIME_S } from './constants.js'
import { TOKEN_ALGORITHMS, type TokenAlgorithm } from './settings.js'

export interface AuthOptions {
  /** `rejected` makes static keys fail with 401, as once the platform discontinues them. */
  staticKeys?: 'allowed' | 'rejected'
  /** `expires_in` of access tokens in seconds (default 899). */
  tokenLifetime?: number
  /** Algorithm that signs access tokens (default RS256). */
  tokenAlgorithm?: TokenAlgorithm
  /** `page` shows the HTML consent page for every client; `auto` (default) consents at once. */
  consent?: 'auto' | 'page'
}

/** The `auth` settings the options set, each checked. */
export function authBaseSettings(options: AuthOptions): Readonly<Record<string, unknown>> {
  const { staticKeys = 'allowed', tokenLifetime, tokenAlgorithm, consent } = options
  return {
    staticKeys: oneOf('staticKeys', staticKeys, ['allowed', 'rejected']),
    ...(tokenLifetime === undefined ? {} : { tokenLifetime: wholeNumber('tokenLifetime', tokenLifetime, 1, MAX_TOKEN_LIFETIME_S) }),
    ...(tokenAlgorithm === undefined ? {} : { tokenAlgorithm: oneOf('tokenAlgorithm', tokenAlgorithm, TOKEN_ALGORITHMS) }),
    ...(consent === undefined ? {} : { consent: oneOf('consent', consent, ['auto', 'page']) }),
  }
}

export const AUTH_FLAGS: readonly Flag<AuthOptions>[] = [
  { name: 'static-keys', env: 'SVC_MOCK_STATIC_KEYS', option: 'staticKeys', placeholder: 'MODE', example: 'rejected', help: 'allowed or rejected (401, as once discontinued)', default: 'allowed' },
  {
    name: 'token-lifetime',
    env: 'SVC_MOCK_TOKEN_LIFETIME',
    option: 'tokenLifetime',
    placeholder: 'S',
    example: '60',
    help: 'expires_in of access tokens, in seconds',
    default: String(DEFAULT_TOKEN_LIFETIME_S),
    parse: numberText,
  },
  { name: 'token-algorithm', env: 'SVC_MOCK_TOKEN_ALGORITHM', option: 'tokenAlgorithm', placeholder: 'A', example: 'ES256', help: TOKEN_ALGORITHMS.join(', ').replace(/, (\w+)$/, ' or $1'), default: 'RS256' },
  { name: 'consent', env: 'SVC_MOCK_CONSENT', option: 'consent', placeholder: 'MODE', example: 'page', help: 'auto (consent at once) or page (HTML consent page)', default: 'auto' },
]
