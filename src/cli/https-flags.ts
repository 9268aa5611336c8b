/**
 * `--https`, `--tls-cert FILE --tls-key FILE` and their variables: nothing (HTTP), `true` (a
 * certificate signed by the local CA) or the user's own pair, read and checked here so a bad one
 * exits 2 naming the flag. The local CA vouches for local names only, so with it a `--host` or
 * `--public-url` outside them exits 2 too, pointing to a certificate of one's own.
 */
import { X509Certificate, createPrivateKey } from 'node:crypto'
import { readFileSync } from 'node:fs'
import type { TlsCertificate } from '../tls/index.js'
import { LOCAL_NAMES_TEXT, unvouchableName } from '../tls/local-names.js'
import type { CliIo } from './io.js'
import { pick, type Sourced, UsageError } from './sourced.js'

/** The flags this reads. */
interface HttpsFlags {
  https?: boolean
  'tls-cert'?: string
  'tls-key'?: string
}

/** What `startServer({ https })` gets: nothing (HTTP), `true` (the local CA), or the user's pair. */
export function httpsOption(values: HttpsFlags, env: CliIo['env'], host: Sourced, publicUrl: Sourced | undefined): true | TlsCertificate | undefined {
  const certFile = pick('--tls-cert', values['tls-cert'], 'SVC_MOCK_TLS_CERT', env)
  const keyFile = pick('--tls-key', values['tls-key'], 'SVC_MOCK_TLS_KEY', env)
  if (certFile !== undefined || keyFile !== undefined) {
    if (certFile === undefined) throw new UsageError(`${keyFile?.from ?? '--tls-key'} needs --tls-cert FILE too (the certificate that goes with the key)`)
    if (keyFile === undefined) throw new UsageError(`${certFile.from} needs --tls-key FILE too (the certificate's private key)`)
    return ownPair(certFile, keyFile)
  }
  if (!values.https) {
    const variable = env.SVC_MOCK_HTTPS
    if (variable === undefined || variable === '' || variable === 'false') return undefined
    if (variable !== 'true') throw new UsageError(`SVC_MOCK_HTTPS must be true or false, got "${variable}"`)
  }
  const outside = unvouchableName(host.value, publicUrl?.value)
  if (outside) {
    const from = outside.option === 'host' ? host.from : (publicUrl?.from ?? '--public-url')
    throw new UsageError(`${from}: ${outside.name} is not a name svc-mock's local CA can vouch for (${LOCAL_NAMES_TEXT} only). Serve a certificate of your own for it with --tls-cert FILE --tls-key FILE`)
  }
  return true
}

/** The certificate and key files, read, and refused unless the key is the certificate's. */
function ownPair(certFile: Sourced, keyFile: Sourced): TlsCertificate {
  const cert = readFlagFile(certFile)
  const key = readFlagFile(keyFile)
  let parsed: X509Certificate
  try {
    parsed = new X509Certificate(cert)
  } catch {
    throw new UsageError(`${certFile.from}: ${certFile.value} is not a PEM certificate`)
  }
  let matches: boolean
  try {
    matches = parsed.checkPrivateKey(createPrivateKey(key))
  } catch {
    throw new UsageError(`${keyFile.from}: ${keyFile.value} is not an unencrypted PEM private key`)
  }
  if (!matches) throw new UsageError(`${keyFile.from}: ${keyFile.value} is not the private key of the certificate in ${certFile.value}`)
  return { cert, key }
}

function readFlagFile(file: Sourced): string {
  try {
    return readFileSync(file.value, 'utf8')
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    const why = code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : code === 'EISDIR' ? 'it is a folder' : String(code ?? error)
    throw new UsageError(`${file.from}: cannot read ${file.value} (${why})`)
  }
}

