/**
 * The in-process entry: an emulator with msw request handlers for the consumer's own
 * `setupServer(...emu.handlers)`.
 */
import type { RequestHandler } from 'msw'
import type { Emulator, EmulatorOptions } from '../emulator-api.js'
import { buildEmulator } from '../emulator.js'

export interface InProcessEmulator extends Emulator {
  /** msw request handlers serving every route of the emulator, for your `setupServer(...)`. */
  readonly handlers: RequestHandler[]
}

/** Creates an emulator seeded from the fixtures, with msw handlers for in-process use. */
export async function createEmulator(options: EmulatorOptions = {}): Promise<InProcessEmulator> {
  const core = await buildEmulator(options)
  const { mswHandlers } = await import('./msw.js')
  const handlers = mswHandlers(core)
  return Object.assign(core, { handlers })
}
