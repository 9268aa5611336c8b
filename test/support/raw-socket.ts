/**
 * A raw exchange over a socket the test opens (plain or TLS): the bytes written once it connects,
 * and everything the server sent until it closed the connection.
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
