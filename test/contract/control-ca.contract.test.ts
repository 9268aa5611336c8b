/**
 * `GET /__svc-mock/ca.pem`: the local CA's certificate, on every way in (made if there is none),
 * never its private key; like every control route, refused to another web page.
 */
import { X509Certificate } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { contract } from '../support/harness.js'

contract('the local CA at GET /__svc-mock/ca.pem', (h) => {
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

  it('is refused to a page of another origin', async () => {
    const response = await h.fetch('/__svc-mock/ca.pem', { headers: { origin: 'https://evil.example' } })
    expect(response.status).toBe(403)
  })
})
