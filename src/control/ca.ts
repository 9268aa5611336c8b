/**
 * `GET /__svc-mock/ca.pem`: the certificate of svc-mock's local CA, which signs what
 * `svc-mock --https` presents, for clients to trust. Made first if there is none, on every way
 * in: in-process nothing needs it (msw intercepts `https://` without TLS), but a test that asks
 * gets the same file a server would use. A server started with a certificate of the user's own
 * (`--tls-cert`) is not signed by it. The CA's private key is never served.
 */
import { json, type Reply, text } from '../kernel/reply.js'
import type { RouteDefinition } from '../kernel/route.js'
import { controlRoute as route } from './route.js'

export function caRoutes(): RouteDefinition[] {
  return [route('ca', 'GET', '/ca.pem', "svc-mock's local CA certificate, which signs the HTTPS server's (made if there is none)", caCertificate)]
}

async function caCertificate(): Promise<Reply> {
  const { LocalCaError, localCa } = await import('../tls/index.js')
  try {
    const ca = await localCa()
    return text(ca.cert, { headers: { 'content-type': 'application/pem-certificate-chain', 'content-disposition': 'attachment; filename="svc-mock-ca.pem"' } })
  } catch (error) {
    if (error instanceof LocalCaError) return json({ error: error.message }, { status: 500 })
    throw error
  }
}
