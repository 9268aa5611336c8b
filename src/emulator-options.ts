/**
 * The run options the kernel reads, checked and resolved: the emulator's addresses, the seed (and,
 * for a named emulator, the seed of its run-time ids), the clock, the logger and the journal's
 * size. A bad value is a ConfigError naming the option. Beside them, the flags of these options
 * (`--seed`, `--clock`, `--time-scale`, `--log`).
 */
import type { EmulatorOptions, EmulatorUrls } from './emulator-api.js'
import { Clock, type ClockOptions } from './kernel/clock.js'
import { DEFAULT_JOURNAL_CAPACITY } from './kernel/constants.js'
import { wholeNumber } from './kernel/checks.js'
import { ConfigError } from './kernel/errors.js'
import { type Flag, numberText } from './kernel/flags.js'
import { createLogger, type Logger } from './kernel/logger.js'

export const DEFAULT_ORIGIN = 'https://acme.svc-mock.test'

export interface ResolvedOptions {
  readonly urls: EmulatorUrls
  readonly seed: number
  /** The seed of the ids it makes up at run time: `seed`, mixed with the emulator's name when it has one. */
  readonly idSeed: number
  readonly clock: Clock
  readonly logger: Logger
  readonly journalSize: number
}

export function resolveOptions(options: EmulatorOptions): ResolvedOptions {
  const origin = normalizeOrigin(options.origin ?? DEFAULT_ORIGIN, 'origin')
  const urls: EmulatorUrls = {
    auth: options.authUrl === undefined ? origin : normalizeOrigin(options.authUrl, 'authUrl'),
    base: options.baseUrl === undefined ? origin : normalizeOrigin(options.baseUrl, 'baseUrl'),
    webhook: options.webhookUrl === undefined ? origin : normalizeOrigin(options.webhookUrl, 'webhookUrl'),
  }
  const seed = wholeNumber('seed', options.seed ?? 1, 0)
  if (options.name !== undefined && options.name === '') throw new ConfigError('name', 'must not be empty')
  const clockOptions: ClockOptions = typeof options.clock === 'string' ? { mode: options.clock } : (options.clock ?? {})
  const journalSize = wholeNumber('journalSize', options.journalSize ?? DEFAULT_JOURNAL_CAPACITY, 1)
  return {
    urls,
    seed,
    idSeed: options.name === undefined ? seed : (seed ^ nameHash(options.name)) >>> 0,
    clock: new Clock(clockOptions),
    logger: typeof options.log === 'object' ? options.log : createLogger(options.log ?? 'silent'),
    journalSize,
  }
}

/** The origin of an address option (`origin`, `publicUrl`): an absolute http or https URL. */
export function normalizeOrigin(value: string, option: string): string {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    throw new ConfigError(option, 'must be an absolute URL such as https://acme.svc-mock.test', { got: value })
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ConfigError(option, 'must use http or https', { got: value })
  return url.origin
}

/** FNV-1a over the name's UTF-16 code units: a stable 32-bit number per name. */
function nameHash(name: string): number {
  let hash = 0x811c9dc5
  for (let i = 0; i < name.length; i++) hash = Math.imul(hash ^ name.charCodeAt(i), 0x01000193)
  return hash >>> 0
}

/** The flags of the options above. */
export const OPTION_FLAGS: readonly Flag<EmulatorOptions>[] = [
  { name: 'seed', env: 'SVC_MOCK_SEED', option: 'seed', placeholder: 'N', example: '7', help: 'seed for generated data and ids', default: '1', parse: numberText },
  { name: 'clock', env: 'SVC_MOCK_CLOCK', option: 'clock.mode', placeholder: 'MODE', example: 'manual', help: 'real or manual (moves only via the control plane)', default: 'real' },
  {
    name: 'time-scale',
    env: 'SVC_MOCK_TIME_SCALE',
    option: 'clock.timeScale',
    placeholder: 'X',
    example: '0.01',
    help: 'real seconds per emulated second: 0.01 turns 40 s into 400 ms',
    default: '1',
    parse: numberText,
  },
  { name: 'log', env: 'SVC_MOCK_LOG', option: 'log', placeholder: 'FORMAT', example: 'json', help: 'pretty, json (one JSON object a line, the banner too) or silent', default: 'pretty' },
]
