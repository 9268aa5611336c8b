/**
 * The trust bundle of `svc-mock exec --https`: svc-mock's CA first, then what each trust variable
 * named (a file, or a folder of files), each certificate once, then the system's roots in place of
 * a variable that was unset (Node.js's own roots where the system has no bundle); a certificate
 * that cannot be parsed is left out; the bundle and its folder go with remove().
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { rootCertificates } from 'node:tls'
import { afterAll, describe, expect, it } from 'vitest'
import { makeAuthority } from '../../src/tls/certificates.js'
import { writeTrustBundle } from '../../src/tls/index.js'

const scratch = mkdtempSync(join(tmpdir(), 'svc-mock-trust-unit-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

const bodies = (pem: string): string[] => [...pem.matchAll(/-----BEGIN CERTIFICATE-----([^-]+)-----END CERTIFICATE-----/g)].map((m) => (m[1] ?? '').replace(/\s+/g, ''))
const write = (name: string, text: string): string => {
  const file = join(scratch, name)
  mkdirSync(dirname(file), { recursive: true })
  writeFileSync(file, text)
  return file
}

describe('the trust bundle', () => {
  it('holds the CA, then every certificate of the files a folder-valued variable names, each once; remove() deletes it', async () => {
    const [ca, one, two] = await Promise.all([makeAuthority(), makeAuthority(), makeAuthority()])
    const caFile = write('a/ca.pem', ca.cert)
    write('certs/one.pem', one.cert)
    write('certs/both.crt', `${one.cert}\n${two.cert}`)
    const env = { NODE_EXTRA_CA_CERTS: join(scratch, 'certs'), REQUESTS_CA_BUNDLE: join(scratch, 'certs'), SSL_CERT_FILE: join(scratch, 'certs/one.pem'), CURL_CA_BUNDLE: join(scratch, 'certs/both.crt') }
    const bundle = await writeTrustBundle(caFile, env, [])
    const held = bodies(readFileSync(bundle.file, 'utf8'))
    expect(held[0]).toBe(bodies(ca.cert)[0])
    expect(held).toHaveLength(3)
    expect(new Set(held.slice(1))).toEqual(new Set([...bodies(one.cert), ...bodies(two.cert)]))
    expect(bundle.problems).toEqual([])
    expect(statSync(dirname(bundle.file)).mode & 0o777).toBe(0o700)
    await bundle.remove()
    expect(existsSync(dirname(bundle.file))).toBe(false)
  })

  it('takes the system bundle in place of an unset variable, and Node.js\'s roots where the system has none', async () => {
    const ca = await makeAuthority()
    const caFile = write('b/ca.pem', ca.cert)
    const system = write('b/system.pem', (await makeAuthority()).cert)
    const withSystem = await writeTrustBundle(caFile, {}, [join(scratch, 'b/none.pem'), system])
    expect(bodies(readFileSync(withSystem.file, 'utf8'))).toEqual([...bodies(ca.cert), ...bodies(readFileSync(system, 'utf8'))])
    const withoutSystem = await writeTrustBundle(caFile, { REQUESTS_CA_BUNDLE: caFile }, [join(scratch, 'b/none.pem')])
    expect(bodies(readFileSync(withoutSystem.file, 'utf8'))).toEqual([...bodies(ca.cert), ...new Set(rootCertificates.flatMap(bodies))])
    await Promise.all([withSystem.remove(), withoutSystem.remove()])
  })

  it('leaves out a certificate that cannot be parsed, says which variable named nothing usable, and takes the system\'s roots in its place', async () => {
    const ca = await makeAuthority()
    const caFile = write('c/ca.pem', ca.cert)
    const broken = write('c/broken.pem', '-----BEGIN CERTIFICATE-----\nQUJDRA==\n-----END CERTIFICATE-----\n')
    const empty = write('c/empty.pem', 'no certificates here\n')
    const bundle = await writeTrustBundle(caFile, { NODE_EXTRA_CA_CERTS: broken, REQUESTS_CA_BUNDLE: empty, SSL_CERT_FILE: caFile, CURL_CA_BUNDLE: caFile }, [])
    expect(bodies(readFileSync(bundle.file, 'utf8'))[0]).toBe(bodies(ca.cert)[0])
    expect(bodies(readFileSync(bundle.file, 'utf8'))).not.toContain('QUJDRA==')
    expect(bodies(readFileSync(bundle.file, 'utf8'))).toHaveLength(1 + new Set(rootCertificates.flatMap(bodies)).size)
    expect(bundle.problems).toEqual([`NODE_EXTRA_CA_CERTS (${broken}) holds no PEM certificate that can be read`, `REQUESTS_CA_BUNDLE (${empty}) holds no PEM certificate that can be read`])
    await bundle.remove()
  })
})
