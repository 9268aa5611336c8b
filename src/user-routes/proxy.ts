/**
 * Forwarding to the user's real team: the fallback route the kernel dispatches for every request
 * whose path no route serves (never one svc-mock emulates). The request goes out as it came, its
 * credential included, with node:http(s) (bytes as they are: no decoding, no redirect followed),
 * its body streamed up, always to the team's host: the team's URL is a prefix, and the request's
 * path is appended to it as a path, never resolved as a URL (`//other-host/x` is a path). The
 * answer's head is awaited for a bounded time on the emulator clock (504 after it); then the head
 * and each chunk of the body go to the client as they come, past the recorder when there is one.
 * An upstream that cannot be reached, or answers with a status HTTP does not have, is a 502 with
 * a clear body.
 */
import { type ClientRequest, type IncomingMessage, request as httpRequest } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { SCENARIO_HEADER } from '../kernel/constants.js'
import { HttpError } from '../kernel/errors.js'
import { headersOf, type Reply } from '../kernel/reply.js'
import type { RequestContext } from '../kernel/route.js'
import { HOP_BY_HOP } from './constants.js'
import type { Recorder, RecordingSink } from './recorder.js'
import { UpstreamError } from './wire.js'

export interface ProxyOptions {
  /** The team's URL; a path in it prefixes every forwarded path. */
  readonly upstream: URL
  /** How long the head of the answer may take, in emulator milliseconds. */
  readonly timeoutMs: number
  readonly recorder: Recorder | undefined
}

/** Forwards one request no route serves (the fallback route's answer: `proxied` in the journal, and for scenario rules). */
export async function forward(ctx: RequestContext, options: ProxyOptions): Promise<Reply> {
  const { upstream, timeoutMs, recorder } = options
  const send = upstream.protocol === 'https:' ? httpsRequest : httpRequest
  const outgoing = send({ ...targetOf(upstream, ctx.url), method: ctx.method, headers: outgoingHeaders(ctx) })
  const gone = (): void => void outgoing.destroy()
  ctx.signal.addEventListener('abort', gone, { once: true })
  const answered = new Promise<IncomingMessage>((resolve, reject) => {
    outgoing.once('response', resolve)
    outgoing.once('error', reject)
  })
  void streamBody(ctx, outgoing)
  const stop = new AbortController()
  const timeout = ctx.delay(timeoutMs, stop.signal).then(
    () => 'timeout' as const,
    () => 'stopped' as const,
  )
  let incoming: IncomingMessage
  try {
    const first = await Promise.race([answered, timeout])
    if (first === 'timeout' || first === 'stopped') {
      outgoing.destroy()
      throw new UpstreamError(504, upstream.origin, `${upstream.origin} did not begin to answer ${ctx.method} ${ctx.url.pathname} within ${timeoutMs} ms (svc-mock's proxy timeout; --proxy-timeout changes it).`)
    }
    incoming = first
  } catch (error) {
    // Its own refusals (a body over the limit) keep their answer.
    if (error instanceof HttpError) throw error
    throw new UpstreamError(502, upstream.origin, `svc-mock could not get an answer from ${upstream.origin} for ${ctx.method} ${ctx.url.pathname}: ${describe(error)}.`)
  } finally {
    stop.abort()
    ctx.signal.removeEventListener('abort', gone)
  }
  const status = incoming.statusCode ?? 0
  const call = { method: ctx.method, url: ctx.url, requestHeaders: ctx.headers }
  if (status < 200 || status > 599) {
    incoming.destroy()
    const error = new UpstreamError(502, upstream.origin, `${upstream.origin} answered ${ctx.method} ${ctx.url.pathname} with status ${status}, which HTTP does not have (a final answer is 200-599), so svc-mock answers 502.`)
    const reply = error.toReply()
    const sink = recorder?.begin({ ...call, status: 502, headers: [['content-type', reply.headers.get('content-type') ?? 'application/json']], note: `the team answered with status ${status} (${incoming.statusMessage ?? ''})` })
    sink?.write(new TextEncoder().encode(typeof reply.body === 'string' ? reply.body : ''))
    sink?.end()
    throw error
  }
  const answerHeaders = incomingHeaders(incoming)
  const sink = recorder?.begin({ ...call, status, headers: answerHeaders })
  if (ctx.method === 'HEAD' || status === 204 || status === 205 || status === 304) {
    incoming.resume()
    sink?.end()
    return { status, headers: headersOf(answerHeaders), body: null }
  }
  return { status, headers: headersOf(answerHeaders), body: relay(incoming, sink) }
}

/** Where a request goes: always the team's host, at the team's path followed by the request's path and query, as they are. */
function targetOf(upstream: URL, url: URL): { protocol: string; hostname: string; port: string | undefined; path: string; auth: string | undefined } {
  return {
    protocol: upstream.protocol,
    hostname: upstream.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: upstream.port === '' ? undefined : upstream.port,
    path: `${upstream.pathname.replace(/\/$/, '')}${url.pathname}${url.search}`,
    auth: upstream.username === '' ? undefined : `${decoded(upstream.username)}:${decoded(upstream.password)}`,
  }
}

/** A URL's user name or password as written (a `%` that starts no escape stays as it is). */
function decoded(part: string): string {
  try {
    return decodeURIComponent(part)
  } catch {
    return part
  }
}

/**
 * The answer's body as it comes, each chunk passed on at once and shown to the recorder on its
 * way. When the team stops before the end the client's body fails (after what came) and nothing
 * is recorded; when the client stops reading, the team's answer is dropped too.
 */
function relay(incoming: IncomingMessage, sink: RecordingSink | undefined): ReadableStream<Uint8Array> {
  // One chunk at a time from the socket's own buffer: nothing piles up when the client is slower than the team.
  const source: AsyncIterator<Buffer> = incoming[Symbol.asyncIterator]()
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        // An empty first chunk: a transport that sends the head with the first body bytes (msw 3's in-process socket) sends it now.
        controller.enqueue(new Uint8Array(0))
      },
      async pull(controller) {
        let next: IteratorResult<Buffer>
        try {
          next = await source.next()
        } catch (error) {
          sink?.abort(`the team's answer stopped before its end (${describe(error)})`)
          controller.error(error)
          return
        }
        if (next.done) {
          sink?.end()
          controller.close()
          return
        }
        sink?.write(next.value)
        controller.enqueue(next.value)
      },
      async cancel() {
        sink?.abort('the client stopped reading the answer before its end')
        incoming.destroy()
        await source.return?.()
      },
    },
    { highWaterMark: 0 },
  )
}

/** The request's headers as they go on: without the hop-by-hop ones and svc-mock's own scenario header. */
function outgoingHeaders(ctx: RequestContext): Record<string, string | string[]> {
  const dropped = new Set(HOP_BY_HOP)
  for (const token of (ctx.headers.get('connection') ?? '').split(',')) dropped.add(token.trim().toLowerCase())
  dropped.add(SCENARIO_HEADER)
  const out: Record<string, string | string[]> = {}
  ctx.headers.forEach((value, name) => {
    if (!dropped.has(name)) out[name] = value
  })
  // In-process, msw intercepts the emulator's own outgoing requests too: marked as msw's bypass() marks them, it lets them through.
  if (ctx.transport === 'in-process') out.accept = out.accept === undefined ? 'msw/passthrough' : `${String(out.accept)}, msw/passthrough`
  return out
}

/** The answer's headers as they come back, without the hop-by-hop ones (each value of a repeated name kept). */
function incomingHeaders(incoming: IncomingMessage): Array<[string, string]> {
  const dropped = new Set(HOP_BY_HOP)
  for (const token of String(incoming.headers.connection ?? '').split(',')) dropped.add(token.trim().toLowerCase())
  const out: Array<[string, string]> = []
  const raw = incoming.rawHeaders
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = (raw[i] ?? '').toLowerCase()
    if (!dropped.has(name)) out.push([name, raw[i + 1] ?? ''])
  }
  return out
}

/** Streams the request's body to the upstream (nothing for a request without one), then ends it. */
async function streamBody(ctx: RequestContext, outgoing: ClientRequest): Promise<void> {
  try {
    if (ctx.body) await ctx.body.each((chunk) => void outgoing.write(chunk))
    outgoing.end()
  } catch (error) {
    outgoing.destroy(error instanceof Error ? error : new Error(String(error)))
  }
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error)
  const code = (error as { code?: unknown }).code
  if (code === 'ECONNREFUSED') return 'the connection was refused (is it running, and is the URL right?)'
  if (code === 'ENOTFOUND') return 'the host name does not resolve'
  if (code === 'ECONNRESET') return 'the connection was reset'
  return typeof code === 'string' ? `${code} ${error.message}` : error.message
}
