/**
 * What `svc-mock exec --https` adds to its command's environment so that clients trust the local
 * CA without being told: `SVC_MOCK_CA_FILE` (the CA certificate's path), and NODE_EXTRA_CA_CERTS,
 * REQUESTS_CA_BUNDLE, SSL_CERT_FILE and CURL_CA_BUNDLE all pointing at one bundle of svc-mock's CA
 * and what each of them named before, or the system's roots (tls/bundle.ts). So Node.js, Python's
 * requests, httpx and Python's ssl, and curl trust svc-mock, and a CI image that set them still
 * trusts what it did. The bundle lives for the run: `remove()` deletes it once the command's group
 * has ended.
 */
import type { CliIo } from './io.js'

export interface TrustEnvironment {
  /** The variables to add to the command's environment. */
  readonly env: Readonly<Record<string, string>>
  /** Deletes the run's bundle. */
  remove(): Promise<void>
}

/** The command's trust variables for the CA `caFile` (none without one); `warn` hears of a file a variable named that could not be used. */
export async function trustEnvironment(caFile: string | undefined, env: CliIo['env'], warn: (message: string) => void): Promise<TrustEnvironment> {
  if (caFile === undefined) return { env: {}, remove: () => Promise.resolve() }
  const { TRUST_VARIABLES, writeTrustBundle } = await import('../tls/index.js')
  const bundle = await writeTrustBundle(caFile, env)
  for (const problem of bundle.problems) warn(`trust bundle: ${problem}; left out`)
  const added: Record<string, string> = { SVC_MOCK_CA_FILE: caFile }
  for (const variable of TRUST_VARIABLES) added[variable] = bundle.file
  return { env: added, remove: bundle.remove }
}
