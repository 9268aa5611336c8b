/**
 * A flag's value with where it came from (`--port` or its twin `SVC_MOCK_PORT`), so that an error
 * names the one the user gave, and the error a bad one is (exit 2).
 */
import type { CliIo } from './io.js'

/** A bad flag, variable or value: exit 2. */
export class UsageError extends Error {}

/** A value with where it came from (`--port` or `SVC_MOCK_PORT`), so an error names the right one. */
export interface Sourced {
  readonly value: string
  readonly from: string
}

/** The flag's value, else its variable's (an empty variable is no value). */
export function pick(flag: string, flagValue: string | undefined, variable: string, env: CliIo['env']): Sourced | undefined {
  if (flagValue !== undefined) return { value: flagValue, from: flag }
  const raw = env[variable]
  return raw === undefined || raw === '' ? undefined : { value: raw, from: variable }
}
