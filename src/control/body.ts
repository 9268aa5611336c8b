/**
 * Reading control-plane requests: JSON bodies (an empty body is `{}`) and query parameters; a bad
 * one answers 400 naming the field at fault. Bodies are checked with `parseBody` (kernel/validation).
 */
import { ControlError } from '../kernel/errors.js'

export async function readJson(request: Request): Promise<unknown> {
  const raw = await request.text()
  if (raw.trim() === '') return {}
  try {
    return JSON.parse(raw)
  } catch (error) {
    throw new ControlError(400, `The body is not valid JSON: ${error instanceof Error ? error.message : String(error)}`)
  }
}

export function optionalInt(url: URL, name: string, min = 0): number | undefined {
  const raw = url.searchParams.get(name)
  if (raw === null || raw === '') return undefined
  const n = Number(raw)
  if (!Number.isInteger(n) || n < min) throw new ControlError(400, `Query parameter ${name} must be a whole number >= ${min}, got "${raw}".`, name)
  return n
}

export function optionalString(url: URL, name: string): string | undefined {
  const raw = url.searchParams.get(name)
  return raw === null || raw === '' ? undefined : raw
}
