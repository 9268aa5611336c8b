/**
 * Product rule (Quality bars): a 413 reaches the client that is still sending, written at once when
 * the byte count passes the limit, whatever the body's type. Over a real socket, chunked (no
 * Content-Length, so only the count can decide), for every body type the webhook reads. The client
 * runs on a thread of its own, as an uploader in another process would, so the server reads at its
 * own pace: what a server reads slowly, or answers late, the client has written ahead by the time
 * it reads the answer. It writes 64 KB frames, waits for `drain` when the socket asks it to, reads
 * the answer as it comes, and stops at the first response head; the test asserts how many bytes it
 * had written by then, never how long that took.
 */
import { Worker } from 'node:worker_threads'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type RunningServer, startServer } from '../../src/adapters/server.js'

const LIMIT = 5_242_880
const MB = 1024 * 1024
/**
 * What the client may have written past the limit when it reads the 413: what the loopback socket
 * buffers between it and the server hold (its send buffer, the server's receive buffer) when the
 * server answers at once, since a raw client writes faster than any HTTP server reads.
 */
const SLACK = 8 * MB
/** The client gives up here: far past any buffering, and short of the server's discard bound. */
const GIVE_UP = LIMIT + 40 * MB

/** The uploader: plain JavaScript for a worker thread. */
const UPLOADER = `
const { parentPort, workerData } = require('node:worker_threads')
const { connect } = require('node:net')
const { port, path, contentType, giveUp } = workerData
const socket = connect(port, '127.0.0.1')
let answer = ''
let written = 0
let headAt = -1
socket.setEncoding('latin1')
socket.on('data', (text) => {
  answer += text
  if (headAt < 0 && answer.includes('\\r\\n\\r\\n')) headAt = written
})
socket.on('error', () => {})
const closed = new Promise((resolve) => socket.once('close', resolve))
const frame = Buffer.concat([Buffer.from('10000\\r\\n'), Buffer.alloc(65536, 0x61), Buffer.from('\\r\\n')])
const settle = (event) => Promise.race([new Promise((resolve) => socket.once(event, resolve)), closed])
;(async () => {
  await settle('connect')
  const type = contentType === undefined ? '' : 'Content-Type: ' + contentType + '\\r\\n'
  socket.write('POST ' + path + ' HTTP/1.1\\r\\nHost: 127.0.0.1\\r\\n' + type + 'Transfer-Encoding: chunked\\r\\n\\r\\n')
  while (headAt < 0 && written < giveUp && !socket.destroyed) {
    written += 65536
    if (!socket.write(frame)) await settle('drain')
    // Between frames the client reads what has come back.
    await new Promise((resolve) => setImmediate(resolve))
  }
  socket.destroy()
  parentPort.postMessage({ headAt, written, status: answer.split('\\r\\n', 1)[0] })
})()
`

interface Upload {
  /** Bytes of body the client had written when it read the response head (-1: it never did). */
  readonly headAt: number
  readonly written: number
  readonly status: string
}

function upload(port: number, path: string, contentType: string | undefined): Promise<Upload> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(UPLOADER, { eval: true, workerData: { port, path, contentType, giveUp: GIVE_UP } })
    worker.once('message', (result: Upload) => resolve(result))
    worker.once('error', reject)
  })
}

describe('a chunked upload over the limit is answered 413 as soon as its byte count passes the limit, whatever its type', () => {
  let running: RunningServer
  beforeAll(async () => {
    running = await startServer({ port: 0, log: 'silent' })
  })
  afterAll(() => running.close())

  it.each([
    ['JSON', 'application/json', '/hooks/orders'],
    ['text', 'text/plain', '/hooks/orders'],
    ['multipart', 'multipart/form-data; boundary=b', '/hooks/uploads'],
    ['urlencoded', 'application/x-www-form-urlencoded', '/hooks/orders'],
    ['no Content-Type', undefined, '/hooks/orders'],
  ])('%s: the client reads the 413 before it has written more than the limit plus what the socket buffers hold', async (_body, contentType, path) => {
    const result = await upload(running.port, path, contentType)
    expect(result.status).toBe('HTTP/1.1 413 Payload Too Large')
    expect(result.headAt).toBeGreaterThan(LIMIT)
    expect(result.headAt).toBeLessThan(LIMIT + SLACK)
    expect(running.emulator.webhooks.executions(path.slice('/hooks/'.length))).toEqual([])
  })
})
