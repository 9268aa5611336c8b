/**
 * svc-mock's local certificate authority: where it lives on each platform, made once (key mode
 * 0600 in a folder of mode 0700) and then reused, the same one when several servers start at
 * once, a broken folder refused with how to mend it; the local names it alone vouches for, and a
 * CA made before that replaced; and the server certificates it signs.
 */
import { X509Certificate } from 'node:crypto'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { checkServerIdentity, connect as tlsConnect, createServer as createTlsServer } from 'node:tls'
import { afterAll, describe, expect, it } from 'vitest'
import { makeAuthority, makeServerCertificate, type PemPair } from '../../src/tls/certificates.js'
import { LocalCaError, caFolder, existingLocalCa, isLocalName, localCa, serverNames, serverTls, unvouchableName } from '../../src/tls/index.js'
import { writeUnconstrainedCa } from '../support/old-ca.js'

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

/** What Node's TLS client, trusting `ca` alone, says of a server presenting `leaf` when it dials `name`: true, or its error. */
async function tlsVerdict(ca: string, leaf: PemPair, name: string): Promise<true | string> {
  const server = createTlsServer({ cert: leaf.cert, key: leaf.key }, (socket) => socket.end())
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  try {
    return await new Promise((resolve) => {
      const socket = tlsConnect({ host: '127.0.0.1', port: (server.address() as AddressInfo).port, ca, ...(isIP(name) ? {} : { servername: name }), checkServerIdentity: (_host, cert) => checkServerIdentity(name, cert) }, () => {
        socket.destroy()
        resolve(true)
      })
      socket.on('error', (error) => resolve(error.message))
    })
  } finally {
    server.close()
  }
}

const isIP = (name: string): boolean => /^[\d.]+$|:/.test(name)

describe('the local names the CA vouches for', () => {
  it('a certificate for www.example.com signed with the CA\'s key fails verification against the CA; its leaf for the local names passes', async () => {
    const authority = await makeAuthority()
    const rogue = await makeServerCertificate(authority, ['www.example.com'])
    expect(await tlsVerdict(authority.cert, rogue, 'www.example.com')).toMatch(/permitted subtree violation/)
    const rogueIp = await makeServerCertificate(authority, ['localhost', '8.8.8.8'])
    expect(await tlsVerdict(authority.cert, rogueIp, 'localhost')).toMatch(/permitted subtree violation/)
    const names = ['localhost', '127.0.0.1', '::1', 'svc-mock.test', 'svc-mock.internal', 'app.localhost', '127.0.0.2']
    const leaf = await makeServerCertificate(authority, names)
    for (const name of names) expect([name, await tlsVerdict(authority.cert, leaf, name)]).toEqual([name, true])
  })

  it('are localhost, test and internal with every name under them, 127.0.0.0/8 and ::1', () => {
    for (const name of ['localhost', 'LOCALHOST', 'a.localhost', 'test', 'svc-mock.test', 'svc-mock.internal', '127.0.0.1', '127.255.0.9', '::1', '[::1]', '0:0:0:0:0:0:0:1']) expect([name, isLocalName(name)]).toEqual([name, true])
    for (const name of ['www.example.com', 'localhost.example.com', 'mytest', 'internal.example', '10.0.0.1', '::2', '::ffff:8.8.8.8', '0.0.0.0']) expect([name, isLocalName(name)]).toEqual([name, false])
  })

  it('a bound address or public URL host outside them is named, with the option that gave it; every-interface addresses are never dialled', () => {
    expect(unvouchableName('127.0.0.1', 'https://svc-mock.example.com:8443')).toEqual({ option: 'publicUrl', name: 'svc-mock.example.com' })
    expect(unvouchableName('192.0.2.7', undefined)).toEqual({ option: 'host', name: '192.0.2.7' })
    expect(unvouchableName('0.0.0.0', 'https://svc-mock.internal')).toBeUndefined()
    expect(unvouchableName('::', 'https://[::1]:4010')).toBeUndefined()
  })
})

describe('a CA made before the local-name constraints', () => {
  it('is replaced by the next localCa(), once, for servers that start at the same moment, and its key is gone', async () => {
    const folder = freshFolder()
    const old = await writeUnconstrainedCa(folder)
    const oldKey = readFileSync(join(folder, 'ca-key.pem'), 'utf8')
    const made = await Promise.all(Array.from({ length: 4 }, () => localCa({ SVC_MOCK_CA_DIR: folder })))
    expect(new Set(made.map((ca) => ca.cert)).size).toBe(1)
    expect(made.filter((ca) => ca.replaced)).toHaveLength(1)
    expect(made[0]?.cert).not.toBe(old)
    expect(readFileSync(join(folder, 'ca.pem'), 'utf8')).toBe(made[0]?.cert)
    expect(readFileSync(join(folder, 'ca-key.pem'), 'utf8')).not.toBe(oldKey)
    expect(readdirSync(scratch).filter((entry) => entry.startsWith(`${folder.split('/').pop() ?? ''}.`))).toEqual([])
    const leaf = await makeServerCertificate(made[0] ?? (await makeAuthority()), ['localhost'])
    expect(await tlsVerdict(made[0]?.cert ?? '', leaf, 'localhost')).toBe(true)
    expect((await localCa({ SVC_MOCK_CA_DIR: folder })).replaced).toBe(false)
  })

  it('is read but never made or replaced by existingLocalCa (what GET /__svc-mock/ca.pem reads)', async () => {
    const none = freshFolder()
    expect(await existingLocalCa({ SVC_MOCK_CA_DIR: none })).toEqual({ state: 'none' })
    expect(existsSync(none)).toBe(false)
    const outdated = freshFolder()
    const old = await writeUnconstrainedCa(outdated)
    expect(await existingLocalCa({ SVC_MOCK_CA_DIR: outdated })).toEqual({ state: 'outdated', folder: outdated })
    expect(readFileSync(join(outdated, 'ca.pem'), 'utf8')).toBe(old)
    const current = freshFolder()
    const made = await localCa({ SVC_MOCK_CA_DIR: current })
    expect(await existingLocalCa({ SVC_MOCK_CA_DIR: current })).toMatchObject({ state: 'current', ca: { cert: made.cert, certFile: join(current, 'ca.pem') } })
  })
})
