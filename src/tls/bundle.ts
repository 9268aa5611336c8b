/**
 * A trust bundle for clients that take one file in place of their own store (Python's requests
 * reads `REQUESTS_CA_BUNDLE` instead of certifi's list): the local CA followed by the root
 * certificates Node.js carries (Mozilla's list, as certifi's is), so that such a client still
 * reaches every other HTTPS site. Written beside the CA, replaced in one step.
 */
import { rootCertificates } from 'node:tls'
import { readFile, rename, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'

export const CA_BUNDLE_FILE = 'ca-bundle.pem'

/** Writes the bundle beside the CA certificate `caFile`; resolves with its path. */
export async function writeTrustBundle(caFile: string): Promise<string> {
  const file = join(dirname(caFile), CA_BUNDLE_FILE)
  const staging = `${file}.${process.pid}.tmp`
  const ca = await readFile(caFile, 'utf8')
  await writeFile(staging, [ca.trim(), ...rootCertificates.map((pem) => pem.trim())].join('\n') + '\n', { mode: 0o644 })
  await rename(staging, file)
  return file
}
