/**
 * `GET /__svc-mock/ca.pem`: the local CA's certificate, on every way in, when there is one (a GET
 * never makes one: 404 saying what does), never its private key; like every control route,
 * refused to another web page.
 */
import { X509Certificate } from 'node:crypto'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { localCa } from '../../src/tls/index.js'
import { contract } from '../support/harness.js'

const scratch = mkdtempSync(join(tmpdir(), 'svc-mock-ca-route-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

contract('the local CA at GET /__svc-mock/ca.pem', (h) => {
  // There is a CA, as after `svc-mock ca` or a first `--https`.
  beforeAll(() => localCa())

  it('answers the CA certificate the HTTPS server is signed by, as PEM, never its key', async () => {
    const response = await h.fetch('/__svc-mock/ca.pem')
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('application/pem-certificate-chain')
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="svc-mock-ca.pem"')
    const pem = await response.text()
    expect(pem).toBe(readFileSync(join(process.env.SVC_MOCK_CA_DIR ?? '', 'ca.pem'), 'utf8'))
    expect(new X509Certificate(pem).ca).toBe(true)
    expect(pem).not.toContain('PRIVATE KEY')
  })

  it('when there is no CA, answers 404 saying `svc-mock ca` or `--https` makes it, and makes none', async () => {
    const none = join(mkdtempSync(join(scratch, `${h.kind}-`)), 'ca')
    const theirs = process.env.SVC_MOCK_CA_DIR
    process.env.SVC_MOCK_CA_DIR = none
    try {
      const response = await h.fetch('/__svc-mock/ca.pem')
      expect(response.status).toBe(404)
      expect(await response.json()).toEqual({ error: 'svc-mock has no local CA yet: `svc-mock ca` or `svc-mock --https` makes it.' })
      expect(existsSync(none)).toBe(false)
    } finally {
      process.env.SVC_MOCK_CA_DIR = theirs
    }
  })

  it('is refused to a page of another origin', async () => {
    const response = await h.fetch('/__svc-mock/ca.pem', { headers: { origin: 'https://evil.example' } })
    expect(response.status).toBe(403)
  })
})
