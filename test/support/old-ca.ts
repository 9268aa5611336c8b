/**
 * A local CA as svc-mock made it before the local-name constraints (ECDSA P-256, path length 0,
 * no Name Constraints), written into a CA folder, for the tests of its replacement.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { createPrivateKey, webcrypto } from 'node:crypto'
import { join } from 'node:path'
import 'reflect-metadata'
import * as x509 from '@peculiar/x509'

/** Writes an unconstrained CA (`ca.pem`, `ca-key.pem`) into `folder`; resolves with its certificate. */
export async function writeUnconstrainedCa(folder: string): Promise<string> {
  const keys = await webcrypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify'])
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    name: 'CN=svc-mock local CA, O=svc-mock',
    notBefore: new Date(Date.now() - 3600_000),
    notAfter: new Date(Date.now() + 3650 * 86_400_000),
    signingAlgorithm: { name: 'ECDSA', hash: 'SHA-256' },
    keys,
    extensions: [new x509.BasicConstraintsExtension(true, 0, true), new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true)],
  })
  const der = Buffer.from(await webcrypto.subtle.exportKey('pkcs8', keys.privateKey))
  const key = createPrivateKey({ key: der, format: 'der', type: 'pkcs8' }).export({ type: 'pkcs8', format: 'pem' }).toString()
  mkdirSync(folder, { recursive: true, mode: 0o700 })
  writeFileSync(join(folder, 'ca-key.pem'), key, { mode: 0o600 })
  writeFileSync(join(folder, 'ca.pem'), cert.toString('pem'))
  return cert.toString('pem')
}
