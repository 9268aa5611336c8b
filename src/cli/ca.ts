/**
 * `svc-mock ca`: prints the path of the local CA's certificate, making the CA first if there is
 * none, so that `export REQUESTS_CA_BUNDLE=$(npx svc-mock ca)` and
 * `NODE_EXTRA_CA_CERTS=$(npx svc-mock ca)` work. Standard output carries the path alone; that a CA
 * was made (or made anew, replacing one without the local-name constraints) goes to standard
 * error. The private key is never printed.
 */
import type { LogFormat } from '../kernel/logger.js'
import type { CliIo } from './io.js'

export async function printCa(log: LogFormat, io: CliIo): Promise<number> {
  const { localCa } = await import('../tls/index.js')
  const ca = await localCa(io.env)
  if (log === 'json') {
    io.out(JSON.stringify({ level: 'info', time: new Date().toISOString(), event: 'ca', caFile: ca.certFile, created: ca.created, replaced: ca.replaced }))
    return 0
  }
  if (ca.replaced && log === 'pretty') io.err(`svc-mock: made a new local certificate authority in ${ca.certFile}: the one there was made by an older svc-mock and could vouch for any name; clients that trusted it must trust the new one`)
  else if (ca.created && log === 'pretty') io.err(`svc-mock: made a local certificate authority in ${ca.certFile} (its key stays beside it, readable by you only)`)
  io.out(ca.certFile)
  return 0
}
