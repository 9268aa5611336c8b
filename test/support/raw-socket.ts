/**
 * A raw exchange over a socket the test opens (plain or TLS): the bytes written once it connects,
 * and everything the server sent until it closed the connection; and a request announcing more
 * body than any limit.
 */
import type { Socket } from 'node:net'

/** A request whose headers promise more body than it sends: the server must time it out. */
export const STALLED_BODY = 'POST /hooks/orders HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"orderId":'

export function exchange(open: (connected: () => void) => Socket, bytes: string): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const socket = open(() => socket.write(bytes))
    let received = ''
    socket.setEncoding('latin1')
    socket.on('data', (chunk: string) => (received += chunk))
    socket.on('close', () => resolve(received))
    socket.on('error', reject)
  })
}

/**
 * A control-plane POST that announces 50 MB in `Content-Length` and sends a few bytes: resolves the
 * status the server answered with before the body could arrive (`request` is node:http's or
 * node:https's, `options` what it needs beside the method and headers, a CA for instance).
 */
export function oversizedPost(request: typeof import('node:http').request, url: string, options: object = {}): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    const req = request(url, { ...options, method: 'POST', headers: { 'content-type': 'application/json', 'content-length': String(50 * 1024 * 1024) } }, (res) => {
      res.resume()
      resolve(res.statusCode ?? 0)
      req.destroy()
    })
    req.on('error', (error) => (error.message.includes('socket hang up') || 'code' in error ? undefined : reject(error)))
    req.write('{"storage":')
  })
}
