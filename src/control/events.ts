/**
 * What the dashboard reads: `GET /__svc-mock/state` (everything it shows, in one read) and
 * `GET /__svc-mock/events`, the same state and the journal live, as server-sent events:
 * `state` (the whole state, whenever it changes), `journal` (new entries, oldest first; the first
 * carries the newest `?journal=N`, default 200), `journal-cleared`. Neither is journaled: a page
 * watching the emulator must not fill the journal it shows. Both are thin translations of
 * `emu.state()` and `emu.subscribe()`.
 */
import type { EmulatorCore, EmulatorEvent } from '../emulator-api.js'
import { json, type Reply, reply } from '../kernel/reply.js'
import type { RequestContext } from '../kernel/route.js'
import { type ControlRoute, optionalInt, controlRoute as route } from '../kernel/control.js'

/** A client that stops reading is let go once this many events wait for it (it reconnects afresh). */
const MAX_QUEUED_EVENTS = 1000
/** A comment line now and then keeps proxies and idle timers from closing a quiet stream. */
const KEEP_ALIVE_MS = 15_000
/** How long a browser's EventSource waits before it reconnects. */
const RETRY_MS = 1000

/** `emu`: the emulator the control plane steers (whole once every domain is defined). */
export function eventRoutes(emu: () => EmulatorCore): ControlRoute[] {
  return [
    route(
      'state',
      'GET',
      '/state',
      'Everything the dashboard shows: clock, scenarios, webhooks, OAuth clients, users and consents',
      () => json(emu().state(), { headers: { 'cache-control': 'no-store' } }),
      { unjournaled: true },
    ),
    route(
      'events',
      'GET',
      '/events',
      'Live server-sent events: the state when it changes, each new journal entry',
      (ctx) => eventStream(emu(), ctx),
      { unjournaled: true },
    ),
  ]
}

const HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-store',
  // Tells a buffering reverse proxy (nginx) to pass events on at once.
  'x-accel-buffering': 'no',
}

function eventStream(emu: EmulatorCore, ctx: RequestContext): Reply {
  const backlog = optionalInt(ctx.url, 'journal')
  // A HEAD request gets the head only: nothing would ever read (and so end) a stream.
  if (ctx.method === 'HEAD') return reply(null, { headers: HEADERS })
  const encoder = new TextEncoder()
  let stop: (() => void) | undefined
  let keepAlive: NodeJS.Timeout | undefined
  let ended = false
  const finish = (): void => {
    ended = true
    stop?.()
    clearInterval(keepAlive)
  }
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      const end = (): void => {
        if (ended) return
        finish()
        try {
          controller.close()
        } catch {
          // Already closed or cancelled by the client.
        }
      }
      const write = (text: string): void => {
        if (ended) return
        if ((controller.desiredSize ?? 0) < -MAX_QUEUED_EVENTS) {
          end()
          return
        }
        controller.enqueue(encoder.encode(text))
      }
      write(`retry: ${RETRY_MS}\n\n`)
      stop = emu.subscribe(
        (event) => {
          if (event.type === 'closed') end()
          else write(`event: ${event.type}\ndata: ${JSON.stringify(dataOf(event))}\n\n`)
        },
        backlog === undefined ? {} : { journal: backlog },
      )
      if (ended) stop()
      keepAlive = setInterval(() => write(': keep-alive\n\n'), KEEP_ALIVE_MS)
      keepAlive.unref()
      if (ctx.signal.aborted) end()
      else ctx.signal.addEventListener('abort', end, { once: true })
    },
    cancel() {
      finish()
    },
  })
  return reply(body, { headers: HEADERS })
}

function dataOf(event: Exclude<EmulatorEvent, { type: 'closed' }>): unknown {
  switch (event.type) {
    case 'state':
      return event.state
    case 'journal':
      return event.entries
    case 'journal-cleared':
      return {}
  }
}
