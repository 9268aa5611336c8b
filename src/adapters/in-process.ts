/**
 * The in-process entry: an emulator with msw request handlers for the consumer's own
 * `setupServer(...emu.handlers)`. msw is an optional peer: where it is not installed the emulator
 * still works (`emu.handle(request)`), and only reading `emu.handlers` throws `MswMissingError`.
 */
import type { RequestHandler } from 'msw'
import type { Emulator, EmulatorOptions } from '../emulator-api.js'
import { buildEmulator } from '../emulator.js'
import { withFetch } from './fetch.js'
import { MswMissingError } from './msw-compat.js'

/** `Custom`: the names of your own scenarios, beside the built-in ones. */
export interface InProcessEmulator<Custom extends string = never> extends Emulator<Custom> {
  /**
   * msw request handlers serving every route of the emulator, for your `setupServer(...)`.
   * Throws `MswMissingError` where msw is not installed.
   */
  readonly handlers: RequestHandler[]
}

export type MswAdapter = typeof import('./msw.js')

/** The msw adapter, or the reason it cannot load when msw itself is not installed. */
async function loadMswAdapter(): Promise<MswAdapter | MswMissingError> {
  try {
    return await import('./msw.js')
  } catch (error) {
    if (isMissingMsw(error)) return new MswMissingError(error)
    throw error
  }
}

function isMissingMsw(error: unknown): boolean {
  if (!(error instanceof Error)) return false
  const code = (error as { code?: unknown }).code
  return (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') && /['"]msw(\/[^'"]*)?['"]/.test(error.message)
}

/**
 * Creates an emulator seeded from the fixtures, with msw handlers for in-process use. The names of
 * your own scenarios are inferred from `scenarioDefinitions`; for `scenarioDirs`, name them:
 * `createEmulator<'orders-maintenance'>({ scenarioDirs: ['./scenarios'] })`.
 */
export async function createEmulator<Custom extends string = never>(options: EmulatorOptions<Custom> = {}): Promise<InProcessEmulator<Custom>> {
  const core = withFetch(await buildEmulator(options))
  const adapter = await loadMswAdapter()
  let handlers: RequestHandler[] | undefined
  const emulator: typeof core & { readonly handlers?: RequestHandler[] } = core
  Object.defineProperty(emulator, 'handlers', {
    get(): RequestHandler[] {
      if (adapter instanceof MswMissingError) throw adapter
      handlers ??= adapter.mswHandlers(core)
      return handlers
    },
    // Where msw is missing, spreading or logging the emulator must not throw.
    enumerable: !(adapter instanceof MswMissingError),
    configurable: true,
  })
  return emulator as InProcessEmulator<Custom>
}
