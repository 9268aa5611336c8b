/**
 * The certificates of svc-mock's local TLS: a certificate authority (ECDSA P-256, ten years),
 * constrained to the local names (local-names.ts), and a server certificate it signs for the names
 * a client may dial (DNS names and IP addresses). @peculiar/x509 builds them over WebCrypto
 * (Node.js's `globalThis.crypto`, its default), and its sibling @peculiar/asn1-x509 the Name
 * Constraints extension, which @peculiar/x509 has no class for; they need the `reflect-metadata`
 * polyfill loaded first, and all load only when a certificate is made or read.
 */
import { createPrivateKey, webcrypto } from 'node:crypto'
import { isIP } from 'node:net'
import { hostname, userInfo } from 'node:os'
import { LOCAL_DNS_NAMES, LOCAL_IP_RANGES } from './local-names.js'

type CryptoKey = webcrypto.CryptoKey
type CryptoKeyPair = webcrypto.CryptoKeyPair

const EC = { name: 'ECDSA', namedCurve: 'P-256' } as const
const SIGNING = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const

const DAY_MS = 24 * 3600 * 1000
/** The authority lasts ten years; a server certificate 397 days (the most browsers' rules allow one). */
const CA_DAYS = 3650
const SERVER_DAYS = 397
/** Certificates start an hour back, for clocks a little behind. */
const BACKDATE_MS = 3600 * 1000

/** A certificate and its private key, as PEM text. */
export interface PemPair {
  readonly cert: string
  readonly key: string
}

type X509 = typeof import('@peculiar/x509')

async function x509(): Promise<X509> {
  await import('reflect-metadata')
  return await import('@peculiar/x509')
}

async function keyPair(): Promise<CryptoKeyPair> {
  return await webcrypto.subtle.generateKey(EC, true, ['sign', 'verify'])
}

async function privateKeyPem(key: CryptoKey): Promise<string> {
  const der = Buffer.from(await webcrypto.subtle.exportKey('pkcs8', key))
  return createPrivateKey({ key: der, format: 'der', type: 'pkcs8' }).export({ type: 'pkcs8', format: 'pem' }).toString()
}

/** Who the CA belongs to, so that it can be told apart in a trust store. */
function owner(): string {
  try {
    return `${userInfo().username}@${hostname()}`
  } catch {
    return hostname()
  }
}

const NAME_CONSTRAINTS = '2.5.29.30'

/** The DER value of the Name Constraints extension: the local names are the only permitted subtrees. */
async function localNameConstraints(): Promise<ArrayBuffer> {
  await import('reflect-metadata')
  const { GeneralName, GeneralSubtree, GeneralSubtrees, NameConstraints } = await import('@peculiar/asn1-x509')
  const { AsnConvert } = await import('@peculiar/asn1-schema')
  const permitted = new GeneralSubtrees([
    ...LOCAL_DNS_NAMES.map((dNSName) => new GeneralSubtree({ base: new GeneralName({ dNSName }) })),
    ...LOCAL_IP_RANGES.map((iPAddress) => new GeneralSubtree({ base: new GeneralName({ iPAddress }) })),
  ])
  return AsnConvert.serialize(new NameConstraints({ permittedSubtrees: permitted }))
}

/** True when the CA certificate (PEM) carries today's local-name constraints, critical; false for one made before them. */
export async function constrainedToLocalNames(caCert: string): Promise<boolean> {
  const lib = await x509()
  const found = new lib.X509Certificate(caCert).getExtension(NAME_CONSTRAINTS)
  return found !== null && found.critical && Buffer.from(found.value).equals(Buffer.from(await localNameConstraints()))
}

/** A new certificate authority: self-signed, for signing server certificates for the local names only. */
export async function makeAuthority(now: Date = new Date()): Promise<PemPair> {
  const lib = await x509()
  const keys = await keyPair()
  const cert = await lib.X509CertificateGenerator.createSelfSigned(
    {
      name: [{ CN: ['svc-mock local CA'] }, { O: ['svc-mock'] }, { OU: [owner()] }],
      notBefore: new Date(now.getTime() - BACKDATE_MS),
      notAfter: new Date(now.getTime() + CA_DAYS * DAY_MS),
      signingAlgorithm: SIGNING,
      keys,
      extensions: [
        new lib.BasicConstraintsExtension(true, 0, true),
        new lib.KeyUsagesExtension(lib.KeyUsageFlags.keyCertSign | lib.KeyUsageFlags.cRLSign, true),
        new lib.Extension(NAME_CONSTRAINTS, true, await localNameConstraints()),
        await lib.SubjectKeyIdentifierExtension.create(keys.publicKey),
      ],
    },
  )
  return { cert: cert.toString('pem'), key: await privateKeyPem(keys.privateKey) }
}

/** A server certificate for `names` (host names and IP addresses), signed by `authority`. */
export async function makeServerCertificate(authority: PemPair, names: readonly string[], now: Date = new Date()): Promise<PemPair> {
  const lib = await x509()
  const ca = new lib.X509Certificate(authority.cert)
  const der = createPrivateKey(authority.key).export({ type: 'pkcs8', format: 'der' })
  const signingKey = await webcrypto.subtle.importKey('pkcs8', der, EC, false, ['sign'])
  const keys = await keyPair()
  const unique = [...new Set(names)]
  const notAfter = Math.min(now.getTime() + SERVER_DAYS * DAY_MS, ca.notAfter.getTime())
  const cert = await lib.X509CertificateGenerator.create(
    {
      subject: [{ CN: [unique[0] ?? 'localhost'] }, { O: ['svc-mock'] }],
      issuer: ca.subject,
      notBefore: new Date(now.getTime() - BACKDATE_MS),
      notAfter: new Date(notAfter),
      signingAlgorithm: SIGNING,
      publicKey: keys.publicKey,
      signingKey,
      extensions: [
        new lib.BasicConstraintsExtension(false, undefined, true),
        new lib.KeyUsagesExtension(lib.KeyUsageFlags.digitalSignature, true),
        new lib.ExtendedKeyUsageExtension([lib.ExtendedKeyUsage.serverAuth]),
        new lib.SubjectAlternativeNameExtension(unique.map((name) => (isIP(name) === 0 ? { type: 'dns' as const, value: name } : { type: 'ip' as const, value: name }))),
        await lib.AuthorityKeyIdentifierExtension.create(ca.publicKey),
      ],
    },
  )
  return { cert: cert.toString('pem'), key: await privateKeyPem(keys.privateKey) }
}
