/**
 * Reads the control plane's server-sent events (`GET /__svc-mock/events`) as a browser's
 * EventSource would: `event:` and `data:` lines, events ended by a blank line, comments skipped.
 * `next(type)` waits for the next event of that type; `close()` aborts the request (in-process,
 * aborting is what ends a streamed answer; cancelling its body does not reach the emulator).
 */
import type { EmulatorState } from '../../src/index.js'
import type { JournalEntry } from '../../src/kernel/journal.js'
import type { Harness } from './harness.js'

export type StreamEvent =
  | { type: 'state'; data: EmulatorState }
  | { type: 'journal'; data: JournalEntry[] }
  | { type: 'journal-cleared'; data: Record<string, never> }

export interface EventReader {
  readonly response: Response
  /** The next event of this type not yet taken (events of other types stay to be taken). */
  next<T extends StreamEvent['type']>(type: T): Promise<Extract<StreamEvent, { type: T }>>
  /** Every event read so far, in order. */
  readonly seen: StreamEvent[]
  /** The `retry:` value the stream announced, in ms. */
  readonly retry: number | undefined
  close(): void
}

export async function openEvents(h: Harness, query = ''): Promise<EventReader> {
  const abort = new AbortController()
  const response = await h.fetch(`/__svc-mock/events${query}`, { signal: abort.signal })
  if (!response.body) throw new Error(`GET /__svc-mock/events answered ${response.status} without a body`)
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader()
  const seen: StreamEvent[] = []
  const queue: StreamEvent[] = []
  let buffer = ''
  let retry: number | undefined

  const parse = (block: string): void => {
    let type = 'message'
    const data: string[] = []
    for (const line of block.split('\n')) {
      if (line.startsWith(':')) continue
      const colon = line.indexOf(':')
      const field = colon < 0 ? line : line.slice(0, colon)
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '')
      if (field === 'event') type = value
      else if (field === 'data') data.push(value)
      else if (field === 'retry') retry = Number(value)
    }
    if (data.length === 0) return
    const event = { type, data: JSON.parse(data.join('\n')) as unknown } as StreamEvent
    seen.push(event)
    queue.push(event)
  }

  const pull = async (): Promise<void> => {
    const { value, done } = await reader.read()
    if (done) throw new Error('the event stream ended')
    buffer += value
    for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
      parse(buffer.slice(0, end))
      buffer = buffer.slice(end + 2)
    }
  }

  return {
    response,
    seen,
    get retry() {
      return retry
    },
    async next(type) {
      for (;;) {
        const index = queue.findIndex((event) => event.type === type)
        if (index >= 0) {
          const [event] = queue.splice(index, 1)
          return event as Extract<StreamEvent, { type: typeof type }>
        }
        await pull()
      }
    },
    close() {
      abort.abort()
    },
  }
}
