/**
 * The run options the kernel reads, checked and resolved: the emulator's addresses, the seed (and,
 * for a named emulator, the seed of its run-time ids), the clock, the logger and the journal's
 * size. A bad value is a ConfigError naming the option.
 */
import { createHash } from 'node:crypto'
import type { EmulatorOptions, EmulatorUrls } from './emulator-api.js'
import { Clock, type ClockOptions } from './kernel/clock.js'
import { DEFAULT_JOURNAL_CAPACITY } from './kernel/constants.js'
import { ConfigError } from './kernel/errors.js'
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
  const seed = options.seed ?? 1
  if (!Number.isSafeInteger(seed) || seed < 0) throw new ConfigError('seed', `must be a whole number >= 0, got ${String(options.seed)}`)
  if (options.name !== undefined && options.name === '') throw new ConfigError('name', 'must not be empty')
  const clockOptions: ClockOptions = typeof options.clock === 'string' ? { mode: options.clock } : (options.clock ?? {})
  const journalSize = options.journalSize ?? DEFAULT_JOURNAL_CAPACITY
  if (!Number.isInteger(journalSize) || journalSize < 1) throw new ConfigError('journalSize', `must be a whole number >= 1, got ${String(journalSize)}`)
  return {
    urls,
    seed,
    idSeed: options.name === undefined ? seed : (seed ^ nameHash(options.name)) >>> 0,
    clock: new Clock(clockOptions),
    logger: typeof options.log === 'object' ? options.log : createLogger(options.log ?? 'silent'),
    journalSize,
  }
}

function normalizeOrigin(value: string, option: string): string {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    throw new ConfigError(option, `must be an absolute URL such as https://acme.svc-mock.test, got "${value}"`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ConfigError(option, `must use http or https, got "${value}"`)
  return url.origin
}

/** A stable 32-bit number per name: the first four bytes of its SHA-256. */
function nameHash(name: string): number {
  return createHash('sha256').update(name).digest().readUInt32BE(0)
}
