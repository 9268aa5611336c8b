/**
 * What `svc-mock exec --https` adds to its command's environment so that clients trust the local
 * CA without being told: `SVC_MOCK_CA_FILE` (the CA certificate's path) always, and, unless the
 * user set them, `NODE_EXTRA_CA_CERTS` (Node.js adds it to its own roots) and
 * `REQUESTS_CA_BUNDLE` (Python requests reads that file instead of certifi's list, so it gets a
 * bundle of the CA and the usual roots). `SSL_CERT_FILE` is left alone: it replaces the whole
 * trust store of every OpenSSL program, the system's own certificates included.
 */
import type { CliIo } from './io.js'

export async function trustEnvironment(caFile: string | undefined, env: CliIo['env']): Promise<Record<string, string>> {
  if (caFile === undefined) return {}
  const added: Record<string, string> = { SVC_MOCK_CA_FILE: caFile }
  if (!env.NODE_EXTRA_CA_CERTS) added.NODE_EXTRA_CA_CERTS = caFile
  if (!env.REQUESTS_CA_BUNDLE) {
    const { writeTrustBundle } = await import('../tls/index.js')
    added.REQUESTS_CA_BUNDLE = await writeTrustBundle(caFile)
  }
  return added
}
