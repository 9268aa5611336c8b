/**
 * `GET /__svc-mock/ca.pem`: the certificate of svc-mock's local CA, which signs what
 * `svc-mock --https` presents, for clients to trust, on every way in. A GET changes nothing: the
 * CA is served when there is one and never made here (a page of another site that sent a browser
 * here would otherwise write a CA key to the user's disk); `svc-mock ca` and `--https` make it.
 * A server started with a certificate of the user's own (`--tls-cert`) is not signed by it. The
 * CA's private key is never served.
 */
import { json, type Reply, text } from '../kernel/reply.js'
import { type ControlRoute, controlRoute as route } from '../kernel/control.js'

export function caRoutes(): ControlRoute[] {
  return [route('ca', 'GET', '/ca.pem', "svc-mock's local CA certificate, which signs the HTTPS server's (404 until `svc-mock ca` or `--https` makes it)", caCertificate)]
}

async function caCertificate(): Promise<Reply> {
  const { LocalCaError, existingLocalCa } = await import('../tls/index.js')
  try {
    const found = await existingLocalCa()
    if (found.state === 'none') return json({ error: 'svc-mock has no local CA yet: `svc-mock ca` or `svc-mock --https` makes it.' }, { status: 404 })
    if (found.state === 'outdated') {
      return json({ error: `The local CA in ${found.folder} was made by an older svc-mock, without name constraints: \`svc-mock ca\` or \`svc-mock --https\` replaces it.` }, { status: 404 })
    }
    return text(found.ca.cert, { headers: { 'content-type': 'application/pem-certificate-chain', 'content-disposition': 'attachment; filename="svc-mock-ca.pem"' } })
  } catch (error) {
    if (error instanceof LocalCaError) return json({ error: error.message }, { status: 500 })
    throw error
  }
}
