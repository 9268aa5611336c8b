/**
 * The one trust bundle `svc-mock exec --https` points NODE_EXTRA_CA_CERTS, REQUESTS_CA_BUNDLE,
 * SSL_CERT_FILE and CURL_CA_BUNDLE at: svc-mock's CA, then every certificate of the files (or
 * folders) those variables named before (a CI image's own CA, certifi's list), then, when one of
 * them was unset or named nothing usable, the system's bundle (where none is found, the root
 * certificates Node.js carries, Mozilla's list as certifi's is), each certificate once. So an image that set them keeps trusting
 * what it trusted, and trusts svc-mock too. Written for one run in a fresh folder of the system's
 * temporary folder, and removed when the run ends.
 */
import { X509Certificate } from 'node:crypto'
import { mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { rootCertificates } from 'node:tls'
import type { Environment } from './ca-folder.js'

export const CA_BUNDLE_FILE = 'ca-bundle.pem'

/** The variables clients read a trust file from: Node.js (added to its roots), Python requests, OpenSSL (httpx, Python's ssl), curl. */
export const TRUST_VARIABLES = ['NODE_EXTRA_CA_CERTS', 'REQUESTS_CA_BUNDLE', 'SSL_CERT_FILE', 'CURL_CA_BUNDLE'] as const

/** Where systems keep the bundle of the roots they trust: Debian, Ubuntu, Alpine, Arch; Fedora, RHEL; openSUSE; macOS, the BSDs. */
export const SYSTEM_BUNDLES: readonly string[] = ['/etc/ssl/certs/ca-certificates.crt', '/etc/pki/tls/certs/ca-bundle.crt', '/etc/ssl/ca-bundle.pem', '/etc/ssl/cert.pem']

export interface TrustBundle {
  /** The bundle's path. */
  readonly file: string
  /** One line for each file a variable named that the bundle could not take in (it goes on without it). */
  readonly problems: readonly string[]
  /** Deletes the bundle and its folder. */
  remove(): Promise<void>
}

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----([A-Za-z0-9+/=\s]+?)-----END CERTIFICATE-----/g

/** Writes the bundle for the CA certificate `caFile` and what the variables of `env` named. */
export async function writeTrustBundle(caFile: string, env: Environment, systemBundles: readonly string[] = SYSTEM_BUNDLES): Promise<TrustBundle> {
  const problems: string[] = []
  const certificates = new Map<string, string>()
  const add = (text: string, from: string): number => {
    let added = 0
    for (const match of text.matchAll(PEM_CERTIFICATE)) {
      const body = (match[1] ?? '').replace(/\s+/g, '')
      const pem = `-----BEGIN CERTIFICATE-----\n${body.replace(/(.{64})/g, '$1\n').replace(/\n$/, '')}\n-----END CERTIFICATE-----`
      if (certificates.has(body)) added++
      else if (readable(pem)) {
        certificates.set(body, pem)
        added++
      }
    }
    if (added === 0) problems.push(`${from} holds no PEM certificate that can be read`)
    return added
  }
  add(await readFile(caFile, 'utf8'), caFile)
  // A variable that was unset, or named nothing usable, gets the system's roots in its place.
  let systemRoots = false
  for (const variable of TRUST_VARIABLES) {
    const value = env[variable]
    if (value === undefined || value === '') {
      systemRoots = true
      continue
    }
    try {
      if (add(await readTrustSource(value), `${variable} (${value})`) === 0) systemRoots = true
    } catch (error) {
      problems.push(`${variable} (${value}) cannot be read: ${(error as NodeJS.ErrnoException).code ?? String(error)}`)
      systemRoots = true
    }
  }
  if (systemRoots) add(await systemBundle(systemBundles), 'the system bundle')
  const folder = await mkdtemp(join(tmpdir(), 'svc-mock-trust-'))
  const file = join(folder, CA_BUNDLE_FILE)
  await writeFile(file, `${[...certificates.values()].join('\n')}\n`, { mode: 0o644 })
  return { file, problems, remove: () => rm(folder, { recursive: true, force: true }) }
}

/** A file's text, or every file's of a folder (REQUESTS_CA_BUNDLE may name one). */
async function readTrustSource(path: string): Promise<string> {
  if (!(await stat(path)).isDirectory()) return await readFile(path, 'utf8')
  const texts = await Promise.all((await readdir(path)).map((name) => readFile(join(path, name), 'utf8').catch(() => '')))
  return texts.join('\n')
}

/** The first system bundle found, else the root certificates Node.js carries. */
async function systemBundle(candidates: readonly string[]): Promise<string> {
  for (const candidate of candidates) {
    const text = await readFile(candidate, 'utf8').catch(() => undefined)
    if (text !== undefined && text.includes('BEGIN CERTIFICATE')) return text
  }
  return rootCertificates.join('\n')
}

/** Only certificates a client can load go in: one it cannot parse would spoil the file for OpenSSL. */
function readable(pem: string): boolean {
  try {
    new X509Certificate(pem)
    return true
  } catch {
    return false
  }
}
