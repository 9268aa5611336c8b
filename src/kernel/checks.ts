/**
 * The checks a run option's value meets where the option is used: a whole number in a range, one
 * of a list. Each refusal is a ConfigError naming the option and the value refused, which the
 * command line turns into the flag or variable the value came from.
 */
import { closest } from './closest.js'
import { ConfigError } from './errors.js'

/** `value`, when it is a whole number from `min` to `max`. */
export function wholeNumber(option: string, value: number, min: number, max: number = Number.MAX_SAFE_INTEGER): number {
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(option, max === Number.MAX_SAFE_INTEGER ? `must be a whole number >= ${min}` : `must be a whole number from ${min} to ${max}`, { got: value })
  }
  return value
}

/** `value`, when it is one of `allowed`; otherwise the refusal names the closest. */
export function oneOf<T extends string>(option: string, value: string, allowed: readonly T[]): T {
  if (!(allowed as readonly string[]).includes(value)) throw new ConfigError(option, `must be one of ${allowed.join(', ')}`, { got: value, near: closest(String(value), allowed) })
  return value as T
}

/** `value`, when it is a number above 0. */
export function aboveZero(option: string, value: number): number {
  if (!Number.isFinite(value) || value <= 0) throw new ConfigError(option, 'must be a number above 0', { got: value })
  return value
}

/** `value`, when it is text of at least one character. */
export function someText(option: string, value: string): string {
  if (typeof value !== 'string' || value === '') throw new ConfigError(option, 'must be text of at least one character', { got: value })
  return value
}
