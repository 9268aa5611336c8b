/**
 * The 413 path and the order of answers, over a real socket (what only the socket transport has;
 * the same rules in-process are in test/contract/hardening-uploads.contract.test.ts): a client
 * that sent `Connection: close` reads its 413 because the server reads the rest of the upload
 * (bounded) before it closes; `Expect: 100-continue` with a `Content-Length` over the limit gets
 * the 413 instead of `100 Continue`; a chunked upload, multipart included, gets its 413 once its
 * bytes pass the limit; and bytes after a complete request that are no request get a 400 after
 * that request's own answer. Raw `net` sockets, so nothing a client library does hides the wire;
 * the 413 path runs over TLS too (a raw `tls` socket that trusts the local CA).
 */
import { readFileSync } from 'node:fs'
import { connect, type Socket } from 'node:net'
import { connect as connectTls } from 'node:tls'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type RunningServer, startServer } from '../../src/adapters/server.js'

const LIMIT = 5_242_880

/** A raw connection: what it has read so far, and how it closed. */
class Raw {
  text = ''
  /** The error the connection met (EPIPE, ECONNRESET, a write after the server closed), if any. */
  error: string | undefined
  readonly closed: Promise<void>
  readonly #socket: Socket
  readonly #waiters = new Set<() => void>()

  private constructor(socket: Socket) {
    this.#socket = socket
    socket.setEncoding('latin1')
    socket.on('data', (chunk: string) => {
      this.text += chunk
      for (const wake of this.#waiters) wake()
    })
    socket.on('error', (error: NodeJS.ErrnoException) => (this.error ??= error.code ?? error.message))
    this.closed = new Promise((resolve) => socket.on('close', () => resolve()))
  }

  /** A plain connection, or a TLS one when `ca` (the CA that signed the server's certificate) is given. */
  static open(port: number, ca?: string): Promise<Raw> {
    return new Promise((resolve, reject) => {
      const socket = ca === undefined ? connect(port, '127.0.0.1', () => resolve(new Raw(socket))) : connectTls({ port, host: '127.0.0.1', ca, servername: 'localhost' }, () => resolve(new Raw(socket)))
      socket.once('error', reject)
    })
  }

  write(data: string | Buffer): void {
    this.#socket.write(data)
  }

  /** Resolves once what was read satisfies `done` (or the connection closed). */
  async read(done: (text: string) => boolean): Promise<string> {
    while (!done(this.text)) {
      const woken = new Promise<void>((resolve) => this.#waiters.add(resolve))
      await Promise.race([woken, this.closed])
      this.#waiters.clear()
      if (this.#socket.closed && !done(this.text)) break
    }
    return this.text
  }

  destroy(): void {
    this.#socket.destroy()
  }
}

/** The status lines of every answer in `text`, in the order they came. */
function statusLines(text: string): string[] {
  return [...text.matchAll(/HTTP\/1\.1 \d{3}[^\r]*/g)].map((m) => m[0])
}

/** A whole answer after `from`: its head and as many body bytes as its Content-Length says. */
function hasWholeAnswer(text: string, from = 0): boolean {
  const end = text.indexOf('\r\n\r\n', from)
  if (end === -1) return false
  const length = Number(/\r\ncontent-length: (\d+)/i.exec(text.slice(from, end))?.[1] ?? 0)
  return text.length >= end + 4 + length
}

for (const https of [false, true]) describe(`the 413 path over a socket${https ? ' with TLS' : ''}`, () => {
  let running: RunningServer
  let ca: string | undefined
  beforeAll(async () => {
    running = await startServer({ port: 0, log: 'silent', https })
    ca = running.caFile === undefined ? undefined : readFileSync(running.caFile, 'utf8')
  })
  afterAll(() => running.close())

  it('a client that sent Connection: close reads its 413 and may finish its upload: the server reads the rest before it closes', async () => {
    const raw = await Raw.open(running.port, ca)
    const body = Buffer.alloc(LIMIT + 1, 0x61)
    raw.write(`POST /hooks/orders HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/plain\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`)
    raw.write(body.subarray(0, 1024 * 1024))
    const answer = await raw.read((text) => hasWholeAnswer(text))
    expect(statusLines(answer)).toEqual(['HTTP/1.1 413 Payload Too Large'])
    expect(answer).toMatch(/\r\nconnection: close\r\n/i)
    expect(answer.endsWith('\r\n\r\nPayload Too Large')).toBe(true)
    // A client that sends the whole request before it reads (Python's urllib) is here: still sending.
    raw.write(body.subarray(1024 * 1024))
    await raw.closed
    expect(raw.error).toBeUndefined()
    expect(running.emulator.webhooks.executions('orders')).toEqual([])
  })

  it('Expect: 100-continue with a Content-Length over the limit is answered 413 instead of 100 Continue', async () => {
    const raw = await Raw.open(running.port, ca)
    raw.write(`POST /hooks/orders HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${LIMIT + 1}\r\nExpect: 100-continue\r\n\r\n`)
    const answer = await raw.read((text) => hasWholeAnswer(text))
    raw.destroy()
    expect(statusLines(answer)).toEqual(['HTTP/1.1 413 Payload Too Large'])
  })

  it('Expect: 100-continue within the limit gets 100 Continue, then the answer to the body', async () => {
    const raw = await Raw.open(running.port, ca)
    const body = '{"orderId":"E-1"}'
    raw.write(`POST /hooks/orders HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nExpect: 100-continue\r\n\r\n`)
    const interim = await raw.read((text) => text.includes('\r\n\r\n'))
    expect(statusLines(interim)).toEqual(['HTTP/1.1 100 Continue'])
    raw.write(body)
    const answer = await raw.read((text) => hasWholeAnswer(text, interim.length))
    raw.destroy()
    expect(statusLines(answer)).toEqual(['HTTP/1.1 100 Continue', 'HTTP/1.1 200 OK'])
    expect(running.emulator.webhooks.executions('orders').at(-1)?.bundle).toEqual({ orderId: 'E-1' })
  })

  it.each([
    ['multipart/form-data; boundary=b', '/hooks/uploads', '--b\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n'],
    ['application/json', '/hooks/learning', '{"a":"'],
  ])('a chunked %s upload gets its 413 once its bytes pass the limit, while it is still open', async (type, path, head) => {
    const raw = await Raw.open(running.port, ca)
    raw.write(`POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: ${type}\r\nTransfer-Encoding: chunked\r\n\r\n`)
    const chunk = (bytes: Buffer): Buffer => Buffer.concat([Buffer.from(`${bytes.length.toString(16)}\r\n`), bytes, Buffer.from('\r\n')])
    raw.write(chunk(Buffer.from(head)))
    // One byte past the limit, and no last chunk: the upload stays open.
    raw.write(chunk(Buffer.alloc(LIMIT + 1 - head.length, 0x07)))
    const answer = await raw.read((text) => hasWholeAnswer(text))
    raw.destroy()
    expect(statusLines(answer)).toEqual(['HTTP/1.1 413 Payload Too Large'])
  })
})

describe('answers on a connection go out in request order', () => {
  let running: RunningServer
  beforeAll(async () => {
    running = await startServer({ port: 0, log: 'silent' })
  })
  afterAll(() => running.close())

  it('a request whose Content-Length is smaller than what follows gets its own answer first; the trailing bytes that are no request get 400 after it', async () => {
    const raw = await Raw.open(running.port)
    const body = `{"orderId":"S-1","pad":"${'x'.repeat(100 - 26)}"}`
    expect(body.length).toBe(100)
    raw.write(`POST /hooks/orders HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n${body}${'y'.repeat(900)}`)
    await raw.closed
    expect(statusLines(raw.text)).toEqual(['HTTP/1.1 200 OK', 'HTTP/1.1 400 Bad Request'])
    expect(raw.text).toContain('\r\n\r\nAccepted')
    expect(running.emulator.webhooks.executions('orders').map((e) => e.bundle.orderId)).toEqual(['S-1'])
  })

  it('a request with a method the parser does not know still gets 501', async () => {
    const raw = await Raw.open(running.port)
    raw.write('FOO /oauth2/token HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n')
    await raw.closed
    expect(statusLines(raw.text)).toEqual(['HTTP/1.1 501 Not Implemented'])
  })
})
