/**
 * What the HTTPS server presents: the user's own certificate and key, or a certificate for the
 * names clients dial (`localhost`, `127.0.0.1`, `::1`, the bound address and the public URL's
 * host), made at start and signed by the local CA. The server certificate and its key stay in
 * memory; only the CA is kept on disk.
 */
import { ConfigError } from '../kernel/errors.js'
import { makeServerCertificate } from './certificates.js'
import type { Environment } from './ca-folder.js'
import { localCa } from './local-ca.js'
import { PairError, checkedPair } from './pem-pair.js'

/** A certificate of the user's own (PEM text), with its private key. */
export interface TlsCertificate {
  /** The certificate, PEM; may be followed by its intermediate certificates. */
  readonly cert: string
  /** Its private key, PEM (unencrypted). */
  readonly key: string
}

export interface ServerTls {
  readonly cert: string
  readonly key: string
  /** The local CA certificate's path, when the local CA signed the certificate. */
  readonly caFile?: string
  /** True when the local CA was made anew for this start, replacing one made without the local-name constraints. */
  readonly caReplaced?: boolean
}

/** The names a server certificate covers: the loopback names always, and the host clients are told about. */
export function serverNames(host: string, publicUrl: string | undefined): string[] {
  const names = ['localhost', '127.0.0.1', '::1']
  const bound = host.replace(/^\[|\]$/g, '')
  if (bound !== '0.0.0.0' && bound !== '::') names.push(bound)
  if (publicUrl !== undefined) names.push(new URL(publicUrl).hostname.replace(/^\[|\]$/g, ''))
  return [...new Set(names)]
}

/** The certificate and key to serve: the given pair (checked), or one made for `names` and signed by the local CA. */
export async function serverTls(https: true | Partial<TlsCertificate>, names: readonly string[], env: Environment = process.env): Promise<ServerTls> {
  if (https !== true) return checked(https)
  const ca = await localCa(env)
  const leaf = await makeServerCertificate(ca, names)
  return { ...leaf, caFile: ca.certFile, ...(ca.replaced ? { caReplaced: true } : {}) }
}

/** The user's pair, refused with a ConfigError naming the half at fault (`https.cert`, `https.key`). */
function checked(pair: Partial<TlsCertificate>): ServerTls {
  if (typeof pair.cert !== 'string') throw new ConfigError('https.key', 'needs {https.cert} too (the certificate that goes with the key)')
  if (typeof pair.key !== 'string') throw new ConfigError('https.cert', "needs {https.key} too (the certificate's private key)")
  try {
    checkedPair(pair.cert, pair.key)
  } catch (error) {
    if (!(error instanceof PairError)) throw error
    if (error.fault === 'certificate') throw new ConfigError('https.cert', `is not a PEM certificate (${error.message})`)
    if (error.fault === 'key') throw new ConfigError('https.key', `is not an unencrypted PEM private key (${error.message})`)
    throw new ConfigError('https.key', `is not the private key of the certificate in {https.cert} (${error.message})`)
  }
  return { cert: pair.cert, key: pair.key }
}
