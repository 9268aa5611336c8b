/**
 * Stand-ins for a user's real team, for the proxy and recorder tests: node:http servers on
 * 127.0.0.1:0 that answer what a test asks of them, a "foreign" listener that must never be
 * reached, a raw socket server that answers a status HTTP does not have, and answers a test
 * writes itself chunk by chunk (a stream that goes quiet, an answer that stops mid-body), so no
 * test waits on the wall clock.
 */
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http'
import { type Server as NetServer, createServer as createNetServer } from 'node:net'
import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'

/** What a stand-in server received. */
export interface Seen {
  readonly method: string
  readonly url: string
  readonly headers: IncomingMessage['headers']
}

export interface Team {
  readonly url: string
  readonly seen: Seen[]
  close(): Promise<void>
}

/** Answers each request with `answer`, which may also leave it for a test to write (`held`). */
export async function startTeam(answer: (req: IncomingMessage, res: ServerResponse, body: Buffer) => void): Promise<Team> {
  const seen: Seen[] = []
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers })
      answer(req, res, Buffer.concat(chunks))
    })
  })
  return { url: await listen(server), seen, close: () => stop(server) }
}

/** A listener that records every request it gets: the proxy must never send it one. */
export async function startForeign(): Promise<Team> {
  return await startTeam((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' })
    res.end('<html><body>a foreign host</body></html>')
  })
}

/** A raw socket server that answers every request with `status` (one HTTP does not define, such as 999). */
export async function startRawStatus(status: number, body: string): Promise<{ url: string; close(): Promise<void> }> {
  const server = createNetServer((socket) => {
    let head = ''
    socket.on('data', (chunk: Buffer) => {
      head += chunk.toString('latin1')
      if (!head.includes('\r\n\r\n')) return
      socket.end(`HTTP/1.1 ${status} Strange\r\ncontent-type: text/plain\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`)
    })
    socket.on('error', () => undefined)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()))
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, close: () => closeNet(server) }
}

/** Answers a test writes itself: the team parks each `res` under a tag, the test takes it. */
export class HeldAnswers {
  readonly #waiting = new Map<string, (res: ServerResponse) => void>()
  readonly #parked = new Map<string, Promise<ServerResponse>>()

  /** Called by the team: parks the answer to the request tagged `tag`. */
  park(tag: string, res: ServerResponse): void {
    this.#promise(tag)
    this.#waiting.get(tag)?.(res)
  }

  /** Resolves with the answer to the request tagged `tag` once it arrived. */
  take(tag: string): Promise<ServerResponse> {
    return this.#promise(tag)
  }

  /** Ends every parked answer still open (after the tests). */
  async closeAll(): Promise<void> {
    for (const parked of this.#parked.values()) {
      const res = await Promise.race([parked, Promise.resolve(undefined)])
      res?.destroy()
    }
  }

  #promise(tag: string): Promise<ServerResponse> {
    let parked = this.#parked.get(tag)
    if (!parked) {
      parked = new Promise<ServerResponse>((resolve) => this.#waiting.set(tag, resolve))
      this.#parked.set(tag, parked)
    }
    return parked
  }
}

/** Reads a body stream until its text holds `text`, and answers what it read. */
export async function readUntil(reader: ReadableStreamDefaultReader<Uint8Array>, text: string): Promise<string> {
  const decoder = new TextDecoder()
  let read = ''
  while (!read.includes(text)) {
    const { done, value } = await reader.read()
    if (done) throw new Error(`the body ended before "${text}" came; it held ${JSON.stringify(read)}`)
    read += decoder.decode(value, { stream: true })
  }
  return read
}

/** Reads a body stream to its end. */
export async function drain(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<string> {
  const decoder = new TextDecoder()
  let read = ''
  for (;;) {
    const { done, value } = await reader.read()
    if (done) return read + decoder.decode()
    read += decoder.decode(value, { stream: true })
  }
}

/** A recorded route file, as the recorder wrote it. */
export interface RouteFile {
  readonly name: string
  readonly $comment: string
  readonly routes: Array<{ id: string; method: string; path: string; summary?: string; auth?: unknown; response: { status: number; headers?: Record<string, string>; body?: unknown; bodyFile?: string } }>
}

/** Every route file of a recording folder, in name order. */
export function routeFiles(dir: string): RouteFile[] {
  return readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => ({ name, ...(JSON.parse(readFileSync(join(dir, name), 'utf8')) as Omit<RouteFile, 'name'>) }))
}

/** The route file recorded for a method and path template. */
export function routeFile(dir: string, method: string, path: string): RouteFile | undefined {
  return routeFiles(dir).find((file) => file.routes[0]?.method === method && file.routes[0]?.path === path)
}

/** Every file of a folder, as text (bytes read as UTF-8), by name. */
export function folderText(dir: string): Array<[string, string]> {
  return readdirSync(dir).map((name) => [name, readFileSync(join(dir, name), 'utf8')])
}

function listen(server: Server): Promise<string> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as { port: number }).port}`)))
}

function stop(server: Server): Promise<void> {
  // The proxy's keep-alive connections would hold close() until they time out.
  server.closeAllConnections()
  return new Promise((resolve) => server.close(() => resolve()))
}

function closeNet(server: NetServer): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()))
}
