/**
 * The server's own error, apart from the server: the package's root exports it, and a test that
 * never starts a server loads none of the server's code.
 */
import { SvcMockError } from '../kernel/errors.js'

export class PortInUseError extends SvcMockError<'ERR_PORT_IN_USE'> {
  readonly code = 'ERR_PORT_IN_USE'
  readonly port: number
  readonly host: string
  constructor(host: string, port: number) {
    super(`Port ${port} on ${host} is already in use. Stop what uses it, or choose another port with --port (0 picks a free one).`)
    this.port = port
    this.host = host
  }
}
