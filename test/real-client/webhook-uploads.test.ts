/**
 * Real clients against the standalone server: curl's multipart upload of a binary file (the bytes
 * compared in the recorded execution), Node's own FormData, a raw socket announcing a body over
 * 5 MB (refused before a byte of it is sent). The 200 concurrent calls are in the contract suite.
 */
import { execFile } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { request as httpRequest } from 'node:http'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { type RunningServer, startServer } from '../../src/adapters/server.js'

const run = promisify(execFile)

describe('webhooks with real clients over a socket', () => {
  let server: RunningServer
  let dir: string

  beforeAll(async () => {
    server = await startServer({ port: 0, log: 'silent', clock: 'manual' })
    dir = mkdtempSync(join(tmpdir(), 'svc-mock-webhooks-'))
  })
  afterAll(async () => {
    await server.close()
    rmSync(dir, { recursive: true, force: true })
  })
  beforeEach(() => server.emulator.reset())

  it('curl -F uploads a binary file; the flow receives the same bytes, name and type', async () => {
    const bytes = randomBytes(300_000)
    const file = join(dir, 'scan.bin')
    writeFileSync(file, bytes)
    const { stdout } = await run('curl', ['-sS', '-w', '\n%{http_code}', '-F', 'title=Scan 7', '-F', `file=@${file};type=application/octet-stream`, `${server.url}/hooks/uploads`])
    expect(stdout).toBe('Accepted\n200')
    const [execution] = server.emulator.webhooks.executions('uploads')
    const received = execution?.bundle.file as { name: string; mime: string; data: Buffer }
    expect(execution?.bundle.title).toBe('Scan 7')
    expect(received.name).toBe('scan.bin')
    expect(received.mime).toBe('application/octet-stream')
    expect(Buffer.compare(received.data, bytes)).toBe(0)
  })

  it('curl sends a file over 5 MB: 413 Payload Too Large', async () => {
    const file = join(dir, 'big.bin')
    writeFileSync(file, Buffer.alloc(5_242_881))
    const { stdout } = await run('curl', ['-sS', '-w', '\n%{http_code}', '-F', `file=@${file}`, `${server.url}/hooks/uploads`])
    expect(stdout).toBe('Payload Too Large\n413')
    expect(server.emulator.webhooks.executions('uploads')).toEqual([])
  })

  it("Node's FormData (fetch over the socket): text fields and files", async () => {
    const bytes = randomBytes(70_000)
    const form = new FormData()
    form.append('title', 'naïve café')
    form.append('file', new Blob([bytes], { type: 'image/jpeg' }), 'photo é.jpg')
    const response = await fetch(`${server.url}/hooks/uploads`, { method: 'POST', body: form })
    expect([response.status, await response.text()]).toEqual([200, 'Accepted'])
    const bundle = server.emulator.webhooks.executions('uploads')[0]?.bundle
    expect(bundle?.title).toBe('naïve café')
    const file = bundle?.file as { name: string; mime: string; data: Buffer }
    expect([file.name, file.mime]).toEqual(['photo é.jpg', 'image/jpeg'])
    expect(Buffer.compare(file.data, bytes)).toBe(0)
  })

  it('a Content-Length over 5 MB is refused from the header, before the body is sent', async () => {
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpRequest(`${server.url}/hooks/orders`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': String(5_242_881) },
      })
      req.on('response', (res) => {
        let body = ''
        res.setEncoding('utf8')
        res.on('data', (chunk: string) => (body += chunk))
        res.on('end', () => {
          resolve({ status: res.statusCode ?? 0, body })
          req.destroy()
        })
      })
      req.on('error', reject)
      req.flushHeaders()
    })
    expect(answer).toEqual({ status: 413, body: 'Payload Too Large' })
  })
})
