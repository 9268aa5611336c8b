/**
 * The local certificate authority, made once per user and kept in the user's data folder
 * (ca-folder.ts): the certificate `ca.pem`, which clients are told to trust, and its private key
 * `ca-key.pem` (mode 0600, in a folder of mode 0700), which never leaves the folder. Made in a
 * folder of its own and moved into place in one step, so two servers starting at once end up
 * with the same CA. A CA made before the local-name constraints (local-names.ts) is replaced
 * when HTTPS or `svc-mock ca` asks for the CA (ca-replace.ts); reading it alone changes nothing.
 */
import type { X509Certificate } from 'node:crypto'
import { mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { CA_CERT_FILE, CA_DIR_VARIABLE, CA_KEY_FILE, type Environment, caFolder } from './ca-folder.js'
import { replaceCa } from './ca-replace.js'
import { constrainedToLocalNames, makeAuthority, type PemPair } from './certificates.js'
import { LocalCaError } from './errors.js'
import { PairError, checkedPair } from './pem-pair.js'

export { LocalCaError } from './errors.js'

export interface LocalCa extends PemPair {
  /** The path of the CA certificate: what clients trust (`REQUESTS_CA_BUNDLE`, `NODE_EXTRA_CA_CERTS`). */
  readonly certFile: string
  /** True when this call made the CA (there was none, or it replaced one). */
  readonly created: boolean
  /** True when this call replaced a CA made before the local-name constraints: clients must trust the new one. */
  readonly replaced: boolean
}

/** The CA on disk, as found: none, one made before the local-name constraints, or a current one. */
export type FoundCa = { readonly state: 'none' } | { readonly state: 'outdated'; readonly folder: string } | { readonly state: 'current'; readonly ca: LocalCa }

/** The user's local CA, made first if there is none, and made anew if it lacks the local-name constraints. */
export async function localCa(env: Environment = process.env, now: Date = new Date()): Promise<LocalCa> {
  const folder = caFolder(env)
  const found = await readCa(folder, now)
  if (found?.constrained === true) return found.ca
  if (found === undefined) return await makeCa(folder, now)
  try {
    return await replaceCa(folder, () => readCa(folder, now), () => makeCa(folder, now))
  } catch (error) {
    if (error instanceof LocalCaError) throw error
    throw new LocalCaError(folder, `Cannot replace the local CA in ${folder} (made by an older svc-mock, without name constraints): ${error instanceof Error ? error.message : String(error)}. Delete the folder and svc-mock makes a new CA.`)
  }
}

/** The user's local CA as it is on disk, never made or replaced (a GET of it changes nothing). */
export async function existingLocalCa(env: Environment = process.env, now: Date = new Date()): Promise<FoundCa> {
  const folder = caFolder(env)
  const found = await readCa(folder, now)
  if (found === undefined) return { state: 'none' }
  return found.constrained ? { state: 'current', ca: found.ca } : { state: 'outdated', folder }
}

/** Makes the CA in `folder`, where there is none; if another svc-mock makes one at the same moment, that one. */
async function makeCa(folder: string, now: Date): Promise<LocalCa> {
  const made = await makeAuthority(now)
  await mkdir(dirname(folder), { recursive: true, mode: 0o700 })
  // mkdtemp makes the folder with mode 0700.
  const staging = await mkdtemp(`${folder}.new-`)
  try {
    await writeFile(join(staging, CA_KEY_FILE), made.key, { mode: 0o600 })
    await writeFile(join(staging, CA_CERT_FILE), made.cert, { mode: 0o644 })
    await rename(staging, folder)
  } catch (error) {
    await rm(staging, { recursive: true, force: true })
    // Another svc-mock made it at the same moment: use that one.
    const theirs = await readCa(folder, now)
    if (theirs?.constrained === true) return theirs.ca
    throw new LocalCaError(folder, `Cannot make the local CA in ${folder}: ${error instanceof Error ? error.message : String(error)}. Set ${CA_DIR_VARIABLE} to a folder you can write.`)
  }
  return { ...made, certFile: join(folder, CA_CERT_FILE), created: true, replaced: false }
}

/** What `folder` holds: the CA and whether it carries the local-name constraints. */
interface ReadCa {
  readonly ca: LocalCa
  readonly constrained: boolean
}

/** The CA in `folder`, or undefined when there is none yet; a broken one is an error that says how to mend it. */
async function readCa(folder: string, now: Date): Promise<ReadCa | undefined> {
  const certFile = join(folder, CA_CERT_FILE)
  const [cert, key] = await Promise.all([readIfThere(certFile), readIfThere(join(folder, CA_KEY_FILE))])
  if (cert === undefined && key === undefined) return undefined
  const mend = `Delete the folder ${folder} and svc-mock makes a new CA (clients then need to trust the new ${CA_CERT_FILE}).`
  if (cert === undefined || key === undefined) throw new LocalCaError(folder, `The local CA in ${folder} is incomplete: ${cert === undefined ? CA_CERT_FILE : CA_KEY_FILE} is missing. ${mend}`)
  let parsed: X509Certificate
  try {
    parsed = checkedPair(cert, key)
  } catch (error) {
    const why = !(error instanceof PairError) ? String(error) : error.fault === 'mismatch' ? `${CA_KEY_FILE} is not the key of ${CA_CERT_FILE}` : `${error.fault === 'certificate' ? CA_CERT_FILE : CA_KEY_FILE}: ${error.message}`
    throw new LocalCaError(folder, `The local CA in ${folder} cannot be read: ${why}. ${mend}`)
  }
  if (new Date(parsed.validTo).getTime() <= now.getTime()) throw new LocalCaError(folder, `The local CA in ${folder} expired on ${new Date(parsed.validTo).toISOString()}. ${mend}`)
  return { ca: { cert, key, certFile, created: false, replaced: false }, constrained: await constrainedToLocalNames(cert) }
}

async function readIfThere(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw error
  }
}
