/**
 * `startServer({ https })`: the socket behaviours of the HTTP server hold over TLS (keep-alive, a
 * 413 from Content-Length before the body is read, a stalled request timed out with 408, a stalled
 * handshake closed as soon), the certificate is signed by the local CA for the names a client dials
 * and refused by a client that does not trust the CA, a public URL the CA cannot vouch for is
 * refused, and a certificate of the user's own is served as given.
 */
import { readFileSync } from 'node:fs'
import { Agent, request as httpsRequest } from 'node:https'
import { connect as netConnect } from 'node:net'
import { connect as tlsConnect } from 'node:tls'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startServer, type RunningServer } from '../../src/adapters/server.js'
import { ConfigError } from '../../src/kernel/errors.js'
import { makeAuthority, makeServerCertificate } from '../../src/tls/certificates.js'
import { APP_KEY, VERSIONS } from '../support/harness.js'
import { STALLED_BODY, exchange, oversizedPost } from '../support/raw-socket.js'

interface Answer {
  status: number
  body: string
  localPort: number
}

function get(url: string, ca: string, options: { agent?: Agent; headers?: Record<string, string>; servername?: string } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest(url, { ca, ...options }, (res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => (body += chunk))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, localPort: req.socket?.localPort ?? -1 }))
    })
    req.on('error', reject)
    req.end()
  })
}

describe('svc-mock over HTTPS with the local CA', () => {
  let running: RunningServer
  let ca = ''
  beforeAll(async () => {
    running = await startServer({ port: 0, log: 'silent', https: true, requestTimeoutMs: 300 })
    ca = readFileSync(running.caFile ?? '', 'utf8')
  })
  afterAll(() => running.close())

  it('listens on an https:// URL, names the CA file, and every address the emulator writes is https', () => {
    expect(running.url).toBe(`https://127.0.0.1:${running.port}`)
    expect(running.caFile).toBe(`${process.env.SVC_MOCK_CA_DIR}/ca.pem`)
    expect(running.emulator.urls).toEqual({ auth: running.url, base: running.url, webhook: running.url })
  })

  it('presents a certificate a client that trusts the CA accepts for 127.0.0.1 and localhost', async () => {
    expect((await get(`${running.url}${VERSIONS()}`, ca, { headers: APP_KEY })).status).toBe(200)
    expect((await get(`https://localhost:${running.port}/__svc-mock/health`, ca)).status).toBe(200)
  })

  it('is refused by a client that does not trust the CA, and for a name it was not made for', async () => {
    await expect(fetch(`${running.url}/__svc-mock/health`)).rejects.toThrow()
    await expect(get(`${running.url}/__svc-mock/health`, ca, { servername: 'example.com', headers: { host: 'example.com' } })).rejects.toThrow(/example\.com/)
  })

  it('serves the CA it signs with at GET /__svc-mock/ca.pem', async () => {
    const answer = await get(`${running.url}/__svc-mock/ca.pem`, ca)
    expect(answer.status).toBe(200)
    expect(answer.body).toBe(ca)
  })

  it('keeps connections alive across requests', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 })
    const ports: number[] = []
    for (let i = 0; i < 3; i++) ports.push((await get(`${running.url}${VERSIONS()}`, ca, { agent, headers: APP_KEY })).localPort)
    agent.destroy()
    expect(new Set(ports).size).toBe(1)
  })

  it('refuses a body whose Content-Length is over the limit before reading it, and keeps serving', async () => {
    const status = await oversizedPost(httpsRequest, `${running.url}/__svc-mock/elements`, { ca })
    expect(status).toBe(413)
    expect((await get(`${running.url}/__svc-mock/health`, ca)).status).toBe(200)
  })

  it('answers a body that stops coming with 408 and closes the connection; the server keeps serving', async () => {
    const answer = await exchange((connected) => tlsConnect({ host: '127.0.0.1', port: running.port, ca, servername: 'localhost' }, connected), STALLED_BODY)
    expect(answer).toMatch(/^HTTP\/1\.1 408 /)
    expect((await get(`${running.url}/__svc-mock/health`, ca)).status).toBe(200)
  })

  it('closes a TLS handshake that stalls (half a ClientHello) within the request timeout; the server keeps serving', async () => {
    await new Promise<void>((resolve) => {
      const socket = netConnect(running.port, '127.0.0.1', () => {
        // A TLS record announcing a 512-byte ClientHello, of which only the first bytes come.
        socket.write(Buffer.from([0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, 0xfc, 0x03, 0x03]))
      })
      socket.on('error', () => undefined)
      socket.on('close', () => resolve())
    })
    expect((await get(`${running.url}/__svc-mock/health`, ca)).status).toBe(200)
  })
})

describe('svc-mock over HTTPS with a certificate of your own', () => {
  let running: RunningServer
  let authority = ''
  beforeAll(async () => {
    const own = await makeAuthority()
    authority = own.cert
    running = await startServer({ port: 0, log: 'silent', https: await makeServerCertificate(own, ['localhost', '127.0.0.1']) })
  })
  afterAll(() => running.close())

  it('presents that certificate (its issuer is trusted, the local CA is not needed) and names no CA file', async () => {
    expect(running.url).toMatch(/^https:\/\//)
    expect(running.caFile).toBeUndefined()
    expect((await get(`${running.url}${VERSIONS()}`, authority, { headers: APP_KEY })).status).toBe(200)
  })
})

describe('svc-mock over HTTPS with a name the local CA cannot vouch for', () => {
  it('refuses a public URL or bound address outside the local names, saying to bring a certificate of your own', async () => {
    const refused = await startServer({ port: 0, log: 'silent', https: true, publicUrl: 'https://svc-mock.example.com' }).catch((error: unknown) => error)
    expect(refused).toBeInstanceOf(ConfigError)
    expect(refused).toMatchObject({ option: 'publicUrl', message: expect.stringMatching(/names svc-mock\.example\.com, which svc-mock's local CA cannot vouch for .*with https\.cert and https\.key/) })
    const bound = await startServer({ port: 0, log: 'silent', https: true, host: '192.0.2.7' }).catch((error: unknown) => error)
    expect(bound).toMatchObject({ option: 'host' })
  })
})
