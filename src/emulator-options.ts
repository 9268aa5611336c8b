/**
 * The run options the kernel reads, checked and resolved: the emulator's addresses, the seed (and,
 * for a named emulator, the seed of its run-time ids), the clock, the logger and the journal's
 * size. A bad value is a ConfigError naming the option. Beside them, the flags of these options
 * (`--seed`, `--clock`, `--time-scale`, `--log`).
 */
import { createHash } from 'node:crypto'
import type { EmulatorOptions, EmulatorUrls } from './emulator-api.js'
import { Clock, type ClockOptions } from './kernel/clock.js'
import { DEFAULT_JOURNAL_CAPACITY } from './kernel/constants.js'
import { wholeNumber } from './kernel/checks.js'
import { ConfigError } from './kernel/errors.js'
import { type Flag, fileText, numberText } from './kernel/flags.js'
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
  /** The saved state to start from, read (its seed and clock are the run's unless the options give them). */
  readonly state: object | undefined
}

export function resolveOptions(options: EmulatorOptions): ResolvedOptions {
  const origin = normalizeOrigin(options.origin ?? DEFAULT_ORIGIN, 'origin')
  const urls: EmulatorUrls = {
    auth: options.authUrl === undefined ? origin : normalizeOrigin(options.authUrl, 'authUrl'),
    base: options.baseUrl === undefined ? origin : normalizeOrigin(options.baseUrl, 'baseUrl'),
    webhook: options.webhookUrl === undefined ? origin : normalizeOrigin(options.webhookUrl, 'webhookUrl'),
  }
  const state = readState(options.state)
  const seed = wholeNumber('seed', options.seed ?? savedSeed(state) ?? 1, 0)
  if (options.name !== undefined && options.name === '') throw new ConfigError('name', 'must not be empty')
  const clockOptions: ClockOptions = typeof options.clock === 'string' ? { mode: options.clock } : (options.clock ?? savedClock(state) ?? {})
  const journalSize = wholeNumber('journalSize', options.journalSize ?? DEFAULT_JOURNAL_CAPACITY, 1)
  return {
    urls,
    seed,
    idSeed: options.name === undefined ? seed : (seed ^ nameHash(options.name)) >>> 0,
    clock: new Clock(clockOptions),
    logger: typeof options.log === 'object' ? options.log : createLogger(options.log ?? 'silent'),
    journalSize,
    state,
  }
}

/** The saved state of the `state` option: a document, or its JSON text. */
function readState(given: EmulatorOptions['state']): object | undefined {
  if (typeof given !== 'string') return given
  try {
    const value: unknown = JSON.parse(given)
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value
  } catch (error) {
    throw new ConfigError('state', `is not JSON (${error instanceof Error ? error.message : String(error)}): give the document GET /__svc-mock/state/export answers`)
  }
  throw new ConfigError('state', 'must be a JSON object: the document GET /__svc-mock/state/export answers')
}

/** The seed a saved state was made with, when it says one. */
function savedSeed(state: object | undefined): number | undefined {
  const seed = (state as { seed?: unknown } | undefined)?.seed
  return typeof seed === 'number' ? seed : undefined
}

/** The clock a saved state was made with (mode and scale), when it says one: the run's unless the options give one. */
function savedClock(state: object | undefined): ClockOptions | undefined {
  const clock = (state as { kernel?: { clock?: { mode?: unknown; timeScale?: unknown } } } | undefined)?.kernel?.clock
  if (clock?.mode === 'manual') return { mode: 'manual' }
  if (clock?.mode === 'real') return typeof clock.timeScale === 'number' && clock.timeScale > 0 ? { mode: 'real', timeScale: clock.timeScale } : { mode: 'real' }
  return undefined
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

/** A stable 32-bit number per name: the first four bytes of its SHA-256. */
function nameHash(name: string): number {
  return createHash('sha256').update(name).digest().readUInt32BE(0)
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
  {
    name: 'import',
    env: 'SVC_MOCK_IMPORT',
    option: 'state',
    placeholder: 'FILE',
    example: 'state.json',
    echo: true,
    help: 'start from a saved state (GET /__svc-mock/state/export writes one; its seed and clock\nunless given); a reset returns to it (docs/state.md)',
    parse: fileText,
  },
  { name: 'log', env: 'SVC_MOCK_LOG', option: 'log', placeholder: 'FORMAT', example: 'json', help: 'pretty, json (one JSON object a line, the banner too) or silent', default: 'pretty' },
]
