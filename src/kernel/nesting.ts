/**
 * The one nesting limit for structured input (JSON bodies, control-plane bodies, fixture and
 * scenario documents): anything deeper than `MAX_NESTING` levels is refused before any code
 * walks it recursively (validation, learning a data structure, rendering), so no input can
 * overflow the stack. Measured without recursion.
 */
import { MAX_NESTING } from './constants.js'

/** Whether `value` nests deeper than `limit` levels (an object or array is one level). */
export function nestsDeeperThan(value: unknown, limit: number = MAX_NESTING): boolean {
  const stack: Array<{ value: unknown; depth: number }> = [{ value, depth: 0 }]
  while (stack.length > 0) {
    const item = stack.pop()
    if (item === undefined || typeof item.value !== 'object' || item.value === null || ArrayBuffer.isView(item.value)) continue
    const depth = item.depth + 1
    if (depth > limit) return true
    for (const child of Object.values(item.value)) if (typeof child === 'object' && child !== null) stack.push({ value: child, depth })
  }
  return false
}

export const NESTING_RULE = `nests deeper than ${MAX_NESTING} levels (the limit)`
