/**
 * What differs between msw 2 and msw 3, in one place, without importing msw (the root entry must
 * load where msw is not installed): which major is installed, and the `listen()` option for
 * requests no handler takes (`onUnhandledRequest` in msw 2, renamed `onUnhandledFrame` in msw 3,
 * whose callback receives `{ frame, defaults }` instead of `(request, print)`). Each msw ignores
 * the other's option silently, so passing the wrong one turns an error into a pass.
 */
import { createRequire } from 'node:module'
import { SvcMockError } from '../kernel/errors.js'

export type MswMajor = 2 | 3

/** What to do with a request no handler takes, as msw's string strategies say it. */
export type UnhandledStrategy = 'bypass' | 'warn' | 'error'

/** msw's own report for an unhandled request: print its warning, or its error. */
export interface UnhandledPrint {
  warning(): void
  error(): void
}

/** Called for each request no handler takes (msw 2's callback form, kept for both majors). */
export type UnhandledCallback = (request: Request, print: UnhandledPrint) => void

/** `emu.handlers` was read where msw is not installed. */
export class MswMissingError extends SvcMockError<'ERR_MSW_MISSING'> {
  readonly code = 'ERR_MSW_MISSING'
  constructor(cause?: unknown) {
    super(
      'msw is not installed, so svc-mock has no msw handlers to give: run `npm install --save-dev msw` (2.10 or later, or 3.x), ' +
        'or answer requests without msw through `emu.handle(request)` or the standalone server.',
      cause === undefined ? undefined : { cause },
    )
  }
}

let detected: MswMajor | undefined

/**
 * The major version of the msw that svc-mock's own `import 'msw'` finds (the one the consumer
 * installed): read from msw's package.json, resolved from here as the import is.
 */
export function mswMajor(): MswMajor {
  if (detected !== undefined) return detected
  const { version } = createRequire(import.meta.url)('msw/package.json') as { version?: unknown }
  const major = typeof version === 'string' ? Number.parseInt(version, 10) : Number.NaN
  detected = major >= 3 ? 3 : 2
  return detected
}

/** msw 3's callback argument, as far as svc-mock reads it (an HTTP frame carries the request). */
interface UnhandledFrameArgs {
  readonly frame: { readonly data?: { readonly request?: unknown } }
  readonly defaults: { warn(): void; error(): void }
}

/**
 * The `listen()` option object for the installed msw: `{ onUnhandledRequest }` for msw 2,
 * `{ onUnhandledFrame }` for msw 3. A string strategy means the same under both (`'error'` fails
 * the request). A callback gets the request and msw's printers under both; as in msw itself,
 * `print.error()` also fails the request under msw 2 but only prints under msw 3. Frames that are
 * not HTTP requests (WebSocket connections) do not reach the callback.
 */
export function unhandledListenOption(handle: UnhandledStrategy | UnhandledCallback, major: MswMajor = mswMajor()): Record<string, unknown> {
  if (major === 2) return { onUnhandledRequest: handle }
  if (typeof handle === 'string') return { onUnhandledFrame: handle }
  return {
    onUnhandledFrame: ({ frame, defaults }: UnhandledFrameArgs): void => {
      const request = frame.data?.request
      if (request instanceof Request) handle(request, { warning: () => defaults.warn(), error: () => defaults.error() })
    },
  }
}
