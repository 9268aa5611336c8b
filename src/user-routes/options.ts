/**
 * The run options of your routes (`createEmulator()` and the command line): what they are, their
 * flags (`--routes`, `--proxy`, `--record`, `--proxy-timeout`), and the proxy's rules, checked
 * once here, as ConfigErrors naming the option: the team's URL is an absolute http or https URL,
 * and recording or a timeout need a proxy.
 */
import { wholeNumber } from '../kernel/checks.js'
import { ConfigError } from '../kernel/errors.js'
import { type Flag, numberText } from '../kernel/flags.js'
import { DEFAULT_PROXY_TIMEOUT_MS, MAX_PROXY_TIMEOUT_MS } from './constants.js'
import type { RoutesInput } from './sources.js'

export interface UserRoutesOptions {
  /** Route files, folders of them, or route documents (in-process, a route may `resolve` instead of `response`). */
  routes?: RoutesInput | RoutesInput[]
  /**
   * Your real team's URL: every request whose path no route serves is forwarded there (the
   * caller's credential included) and journaled as `proxied`. Never a path svc-mock emulates.
   */
  proxy?: string
  /** With `proxy`: write each proxied call as a route file in this folder (made when missing). */
  record?: string
  /** How long the proxy waits for the team's answer to begin, in emulator milliseconds (default 30 000): then 504. */
  proxyTimeoutMs?: number
}

export const USER_ROUTES_FLAGS: readonly Flag<UserRoutesOptions>[] = [
  {
    name: 'routes',
    env: 'SVC_MOCK_ROUTES',
    option: 'routes',
    kind: 'list',
    split: ':',
    placeholder: 'PATH',
    example: 'routes/',
    help: 'your own routes and resources: a route file or a folder of them\n(docs/routes.md); repeatable',
  },
  { name: 'proxy', env: 'SVC_MOCK_PROXY', option: 'proxy', placeholder: 'URL', example: 'https://acme.eu-1.celonis.cloud', help: 'forward every request no route serves to your real team' },
  { name: 'record', env: 'SVC_MOCK_RECORD', option: 'record', placeholder: 'DIR', example: 'recorded/', help: 'with --proxy: write each forwarded call as a route file in DIR' },
  {
    name: 'proxy-timeout',
    env: 'SVC_MOCK_PROXY_TIMEOUT',
    option: 'proxyTimeoutMs',
    placeholder: 'MS',
    example: '5000',
    help: "how long the proxy waits for the team's answer to begin",
    default: String(DEFAULT_PROXY_TIMEOUT_MS),
    parse: numberText,
  },
]

/** What the proxy is to do, checked; undefined without a proxy. */
export interface ProxySettings {
  readonly upstream: URL
  readonly timeoutMs: number
  /** The folder recordings go to (`record`), if any. */
  readonly record: string | undefined
}

export function proxySettings(options: UserRoutesOptions): ProxySettings | undefined {
  const { proxy, record, proxyTimeoutMs } = options
  if (proxy === undefined) {
    if (record !== undefined) throw new ConfigError('record', 'records what the proxy forwards: give {proxy} too')
    if (proxyTimeoutMs !== undefined) throw new ConfigError('proxyTimeoutMs', 'applies to the proxy: give {proxy} too')
    return undefined
  }
  let upstream: URL
  try {
    upstream = new URL(proxy)
  } catch {
    throw new ConfigError('proxy', 'must be an absolute URL such as https://acme.eu-1.celonis.cloud', { got: proxy })
  }
  if (upstream.protocol !== 'http:' && upstream.protocol !== 'https:') throw new ConfigError('proxy', 'must use http or https', { got: proxy })
  return { upstream, timeoutMs: wholeNumber('proxyTimeoutMs', proxyTimeoutMs ?? DEFAULT_PROXY_TIMEOUT_MS, 1, MAX_PROXY_TIMEOUT_MS), record }
}
