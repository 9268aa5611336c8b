/**
 * What Node's HTTP parser refuses before any request exists, answered on the socket. Node's own
 * answers are kept (400 for bytes that are no request, 408 for a stalled one, 413 for oversized
 * chunk extensions, 431 for oversized headers), except that a request line with a method the
 * parser does not know (`FOO /oauth2/token`) gets the pipeline's 501 rather than a bare 400.
 * Answers on a connection go out in request order: when the refused bytes follow a request whose
 * answer is still on its way (a body longer than its Content-Length said), the refusal waits for
 * that answer, so the client reads the answer to what it did send first. A TLS handshake that
 * fails or stalls is closed: nothing can be answered before the handshake.
 */
import { type IncomingMessage, STATUS_CODES, type Server, type ServerResponse } from 'node:http'
import type { Duplex } from 'node:stream'

const CLIENT_ERROR_STATUS: Readonly<Record<string, number>> = {
  HPE_INVALID_METHOD: 501,
  HPE_HEADER_OVERFLOW: 431,
  HPE_CHUNK_EXTENSIONS_OVERFLOW: 413,
  ERR_HTTP_REQUEST_TIMEOUT: 408,
}

/** A TLS handshake's errors (ERR_TLS_HANDSHAKE_TIMEOUT) and OpenSSL's (ERR_SSL_…). */
const TLS_ERROR = /^ERR_(TLS|SSL)_/

/** A request line: a method token, a target, the protocol version. */
const REQUEST_LINE = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+ \S+ HTTP\/\d\.\d\r?$/

/** The parse error Node hands to `clientError`: the bytes it read, and how far it got. */
export type ClientError = Error & { code?: string; rawPacket?: Uint8Array; bytesParsed?: number }

/** Answers what the server's parser refuses, once the answers its connection still owes are out. */
export function answerClientErrors(server: Server): void {
  // Each connection's answers not yet written, in request order (the order Node writes them in);
  // those written are dropped as the next request comes.
  const answers = new WeakMap<Duplex, ServerResponse[]>()
  const track = (req: IncomingMessage, res: ServerResponse): void => {
    const list = answers.get(req.socket)
    if (list === undefined) return void answers.set(req.socket, [res])
    while (list[0]?.writableFinished === true) list.shift()
    list.push(res)
  }
  server.on('request', track)
  server.on('checkContinue', track)
  server.on('clientError', refusal((socket) => answers.get(socket)?.find((answer) => !answer.writableFinished)))
}

function refusal(inFlight: (socket: Duplex) => ServerResponse | undefined): (error: ClientError, socket: Duplex) => void {
  // The parser reports the same error again for every chunk that follows: answer once.
  const refused = new WeakSet<Duplex>()
  return (error, socket) => {
    // The client went away in the middle of a request: nothing more can come, and its route must see it gone.
    // A TLS handshake that failed or stalled (node:https hands its errors here) has no channel to answer on.
    if (error.code === 'ECONNRESET' || error.code === 'HPE_INVALID_EOF_STATE' || TLS_ERROR.test(error.code ?? '') || !socket.writable) {
      socket.destroy()
      return
    }
    if (refused.has(socket)) return
    refused.add(socket)
    const status = statusOf(error)
    afterAnswersInFlight(socket, inFlight, () => {
      if (!socket.writable) return // the answer before closed the connection
      const body = status === 501 ? JSON.stringify({ error: 'Not Implemented', message: 'svc-mock implements no route for this method.' }) : ''
      const head = [`HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}`, 'connection: close']
      if (body !== '') head.push('content-type: application/json', `content-length: ${Buffer.byteLength(body)}`)
      socket.end(`${head.join('\r\n')}\r\n\r\n${body}`)
    })
  }
}

/** 501 for a request line whose method the parser does not know; 400 for bytes that are no request at all. */
function statusOf(error: ClientError): number {
  const status = CLIENT_ERROR_STATUS[error.code ?? ''] ?? 400
  if (status !== 501) return status
  const from = error.bytesParsed ?? 0
  const refusedBytes = error.rawPacket === undefined ? '' : Buffer.from(error.rawPacket.subarray(from, from + 8192)).toString('latin1')
  const firstLine = refusedBytes.split('\n', 1)[0] ?? ''
  return REQUEST_LINE.test(firstLine) ? 501 : 400
}

/**
 * Runs `then` once every answer to a complete request on the socket has been written (not at all
 * if the connection goes first). When the refusal is about the request being answered (its body
 * stalled), it goes out at once, or, once that answer has begun, the connection is closed.
 */
function afterAnswersInFlight(socket: Duplex, inFlight: (socket: Duplex) => ServerResponse | undefined, then: () => void): void {
  const answer = inFlight(socket)
  if (!answer || !answer.req.complete) {
    if (answer?.headersSent === true) socket.destroy()
    else then()
    return
  }
  answer.once('close', () => {
    if (socket.destroyed) return
    afterAnswersInFlight(socket, inFlight, then)
  })
}
