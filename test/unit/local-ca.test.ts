/**
 * svc-mock's local certificate authority: where it lives on each platform, made once (key mode
 * 0600 in a folder of mode 0700) and then reused, the same one when several servers start at
 * once, a broken folder refused with how to mend it; and the server certificates it signs.
 */
import { X509Certificate } from 'node:crypto'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { makeAuthority, makeServerCertificate } from '../../src/tls/certificates.js'
import { LocalCaError, caFolder, localCa, serverNames, serverTls } from '../../src/tls/index.js'

const scratch = mkdtempSync(join(tmpdir(), 'svc-mock-ca-unit-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))
let folders = 0
const freshFolder = (): string => join(scratch, `ca-${++folders}`)

describe('where the local CA lives', () => {
  it('in the XDG data folder on Linux, else ~/.local/share, under svc-mock/ca', () => {
    expect(caFolder({ XDG_DATA_HOME: '/data' }, 'linux', '/home/u')).toBe('/data/svc-mock/ca')
    expect(caFolder({}, 'linux', '/home/u')).toBe('/home/u/.local/share/svc-mock/ca')
    // The XDG specification ignores a relative path.
    expect(caFolder({ XDG_DATA_HOME: 'relative' }, 'linux', '/home/u')).toBe('/home/u/.local/share/svc-mock/ca')
  })

  it("in Application Support on macOS and in LOCALAPPDATA on Windows", () => {
    expect(caFolder({}, 'darwin', '/Users/u')).toBe('/Users/u/Library/Application Support/svc-mock/ca')
    expect(caFolder({ LOCALAPPDATA: 'C:/Users/u/AppData/Local' }, 'win32', 'C:/Users/u')).toContain('C:/Users/u/AppData/Local')
  })

  it('wherever SVC_MOCK_CA_DIR says, on every platform', () => {
    for (const platform of ['linux', 'darwin', 'win32'] as const) expect(caFolder({ SVC_MOCK_CA_DIR: '/ci/ca', XDG_DATA_HOME: '/data' }, platform, '/home/u')).toBe('/ci/ca')
  })
})

describe('the local CA', () => {
  it('is made once, an ECDSA P-256 CA certificate, its key readable by the user only, and reused after', async () => {
    const folder = freshFolder()
    const first = await localCa({ SVC_MOCK_CA_DIR: folder })
    expect(first.created).toBe(true)
    expect(first.certFile).toBe(join(folder, 'ca.pem'))
    const cert = new X509Certificate(readFileSync(first.certFile))
    expect(cert.ca).toBe(true)
    expect(cert.publicKey.asymmetricKeyDetails?.namedCurve).toBe('prime256v1')
    expect(cert.subject).toContain('CN=svc-mock local CA')
    expect(statSync(join(folder, 'ca-key.pem')).mode & 0o777).toBe(0o600)
    expect(statSync(folder).mode & 0o777).toBe(0o700)
    expect(readFileSync(first.certFile, 'utf8')).not.toContain('PRIVATE KEY')

    const again = await localCa({ SVC_MOCK_CA_DIR: folder })
    expect(again.created).toBe(false)
    expect(again.cert).toBe(first.cert)
  })

  it('is the same CA for servers that start at the same moment', async () => {
    const folder = freshFolder()
    const made = await Promise.all(Array.from({ length: 4 }, () => localCa({ SVC_MOCK_CA_DIR: folder })))
    expect(new Set(made.map((ca) => ca.cert)).size).toBe(1)
    expect(readFileSync(join(folder, 'ca.pem'), 'utf8')).toBe(made[0]?.cert)
  })

  it('refuses a folder with a certificate but no key, saying to delete the folder', async () => {
    const folder = freshFolder()
    mkdirSync(folder)
    writeFileSync(join(folder, 'ca.pem'), (await makeAuthority()).cert)
    const error = await localCa({ SVC_MOCK_CA_DIR: folder }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(LocalCaError)
    expect((error as Error).message).toMatch(/ca-key\.pem is missing.*Delete the folder/)
  })

  it('refuses a key that is not the certificate\'s', async () => {
    const folder = freshFolder()
    mkdirSync(folder)
    writeFileSync(join(folder, 'ca.pem'), (await makeAuthority()).cert)
    writeFileSync(join(folder, 'ca-key.pem'), (await makeAuthority()).key)
    await expect(localCa({ SVC_MOCK_CA_DIR: folder })).rejects.toThrow(/not the key of ca\.pem/)
  })
})

describe('the server certificate', () => {
  it('covers localhost, 127.0.0.1, ::1, the bound address and the public URL\'s host, and verifies against the CA', async () => {
    const names = serverNames('192.0.2.7', 'https://svc-mock.internal:8443')
    expect(names).toEqual(['localhost', '127.0.0.1', '::1', '192.0.2.7', 'svc-mock.internal'])
    const authority = await makeAuthority()
    const leaf = new X509Certificate((await makeServerCertificate(authority, names)).cert)
    expect(leaf.verify(new X509Certificate(authority.cert).publicKey)).toBe(true)
    expect(leaf.ca).toBe(false)
    expect(leaf.checkHost('localhost')).toBe('localhost')
    expect(leaf.checkHost('svc-mock.internal')).toBe('svc-mock.internal')
    expect(leaf.checkIP('127.0.0.1')).toBe('127.0.0.1')
    expect(leaf.checkIP('::1')).toBe('::1')
    expect(leaf.checkIP('192.0.2.7')).toBe('192.0.2.7')
    expect(leaf.checkHost('example.com')).toBeUndefined()
    expect(leaf.keyUsage).toEqual(['1.3.6.1.5.5.7.3.1'])
  })

  it('leaves out an address that binds every interface', () => {
    expect(serverNames('0.0.0.0', undefined)).toEqual(['localhost', '127.0.0.1', '::1'])
    expect(serverNames('::', undefined)).toEqual(['localhost', '127.0.0.1', '::1'])
  })

  it('is signed by the local CA of the environment, and names the CA file', async () => {
    const folder = freshFolder()
    const tls = await serverTls(true, ['localhost'], { SVC_MOCK_CA_DIR: folder })
    expect(tls.caFile).toBe(join(folder, 'ca.pem'))
    expect(new X509Certificate(tls.cert).verify(new X509Certificate(readFileSync(join(folder, 'ca.pem'))).publicKey)).toBe(true)
    expect(tls.key).toContain('BEGIN PRIVATE KEY')
  })

  it('a pair of the user\'s own is served as given, and a key that is not the certificate\'s is refused', async () => {
    const authority = await makeAuthority()
    const own = await makeServerCertificate(authority, ['localhost'])
    expect(await serverTls(own, ['localhost'])).toEqual({ cert: own.cert, key: own.key })
    await expect(serverTls({ cert: own.cert, key: authority.key }, ['localhost'])).rejects.toThrow(/https\.key/)
    await expect(serverTls({ cert: 'not a certificate', key: own.key }, ['localhost'])).rejects.toThrow(/https\.cert/)
  })
})
