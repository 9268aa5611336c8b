/**
 * The one check of a certificate and its private key (PEM): the certificate parses, the key
 * parses (unencrypted), and the key is the certificate's. Used for a pair of the user's own
 * (`https: { cert, key }`, `--tls-cert`/`--tls-key`) and for the local CA's pair on disk; each
 * caller words the refusal for its reader.
 */
import { X509Certificate, createPrivateKey } from 'node:crypto'

/** Which check a pair failed: `certificate` (no PEM certificate), `key` (no unencrypted PEM key), `mismatch` (another certificate's key). */
export type PairFault = 'certificate' | 'key' | 'mismatch'

/** A pair that failed a check, and what the library said. */
export class PairError extends Error {
  readonly fault: PairFault
  constructor(fault: PairFault, detail: string) {
    super(detail)
    this.fault = fault
  }
}

/** The certificate, once it parses, its key parses and the key is its own; else a PairError. */
export function checkedPair(cert: string, key: string): X509Certificate {
  let certificate: X509Certificate
  try {
    certificate = new X509Certificate(cert)
  } catch (error) {
    throw new PairError('certificate', detail(error))
  }
  let matches: boolean
  try {
    matches = certificate.checkPrivateKey(createPrivateKey(key))
  } catch (error) {
    throw new PairError('key', detail(error))
  }
  if (!matches) throw new PairError('mismatch', `the certificate is for ${certificate.subject.replace(/\n/g, ', ')}`)
  return certificate
}

function detail(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
