/**
 * A request's context as routes see it (`RequestContext`): the request, its route's parameters,
 * the settings and scenarios in effect, the headers a route adds to its answer, and waits on the
 * emulator clock that park the request's task.
 */
import type { Clock, Task } from './clock.js'
import { HeaderFields } from './headers.js'
import { type Reply, headersOf } from './reply.js'
import type { IncomingRequest } from './request.js'
import type { RequestContext, Transport } from './route.js'
import type { ScenarioDecision } from './scenarios/decide.js'
import type { SettingsTree } from './settings.js'

/**
 * A class, not an object literal with getters: a literal's getters and methods are new closures on
 * every request, and the code that reads contexts then meets a new shape each time
 * (docs/decisions/speed-mechanisms.md).
 */
export class DispatchContext implements RequestContext {
  readonly method: string
  readonly transport: Transport
  readonly url: URL
  readonly headers: Headers
  readonly body: IncomingRequest['body']
  readonly routeId: string
  readonly params: Readonly<Record<string, string>>
  readonly receivedAt: number
  readonly settings: SettingsTree
  readonly scenarios: readonly string[]
  identity: string | undefined = undefined
  journalBody: unknown = undefined
  /** The tracked task the request runs in: its clock waits park it. */
  task: Task | undefined = undefined
  readonly #source: IncomingRequest['signal']
  readonly #clock: Clock
  #signal: AbortSignal | undefined = undefined
  #responseHeaders: HeaderFields | undefined = undefined

  constructor(request: IncomingRequest, transport: Transport, routeId: string, params: Record<string, string>, receivedAt: number, decision: ScenarioDecision, clock: Clock) {
    this.method = request.method
    this.transport = transport
    this.url = request.url
    this.headers = request.headers
    this.body = request.body
    this.routeId = routeId
    this.params = params
    this.receivedAt = receivedAt
    this.settings = decision.settings
    this.scenarios = decision.scenarios
    this.#source = request.signal
    this.#clock = clock
  }

  get signal(): AbortSignal {
    const source = this.#source
    return (this.#signal ??= source === undefined ? new AbortController().signal : typeof source === 'function' ? source() : source)
  }

  /** Made on first use: most answers add no header. */
  get responseHeaders(): Headers {
    return (this.#responseHeaders ??= new HeaderFields())
  }

  /** The headers a route added, if it added any. */
  get addedHeaders(): HeaderFields | undefined {
    return this.#responseHeaders
  }

  delay(ms: number, until?: AbortSignal): Promise<void> {
    return this.waitUntil(this.receivedAt + ms, until)
  }

  /** The request's own clock waits park its task, so advance() does not wait for them. */
  waitUntil(deadline: number, until?: AbortSignal): Promise<void> {
    const signal = until === undefined ? this.signal : AbortSignal.any([until, this.signal])
    return this.task ? this.task.waitUntil(deadline, signal) : this.#clock.waitUntil(deadline, signal)
  }
}

/**
 * The reply with the headers a route set on its context, except the names the reply sets itself
 * (the reply's word wins). Every value of a name goes (two Set-Cookie stay two). On a copy of the
 * reply's headers, in their order: a reply is a value a route may answer more than once. The
 * context's fields are read as they were added: `forEach` would build a sorted view for each request.
 */
export function withAddedHeaders(reply: Reply, added: HeaderFields): Reply {
  const fields = added.fields()
  const missing: number[] = []
  for (let i = 0; i < fields.length; i += 2) if (!reply.headers.has(fields[i] as string)) missing.push(i)
  if (missing.length === 0) return reply
  const headers = reply.headers instanceof HeaderFields ? HeaderFields.fromRaw(reply.headers.fields()) : headersOf(reply.headers)
  for (const i of missing) headers.append(fields[i] as string, fields[i + 1] as string)
  return { ...reply, headers }
}
