/**
 * Oversized uploads: the 413 reaches a client that is still sending, every time, whether the
 * limit was decided from Content-Length before the body was read or while a body of unknown
 * length streamed in; and the emulator keeps serving afterwards.
 */
import { expect, it } from 'vitest'
import { APP_KEY, VERSIONS, contract } from '../support/harness.js'

const SIX_MB = 6 * 1024 * 1024

contract('hardening: oversized uploads', (h) => {
  it('twenty concurrent 6 MB uploads to a webhook each receive the 413 (Content-Length over 5 MB)', async () => {
    const body = Buffer.alloc(SIX_MB, 0x61)
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        h
          .fetch('/hooks/orders', { method: 'POST', headers: { 'content-type': 'text/plain' }, body })
          .then(async (response) => `${response.status} ${await response.text()}`, (error: unknown) => `failed: ${String(error)}`),
      ),
    )
    expect(answers).toEqual(Array.from({ length: 20 }, () => '413 Payload Too Large'))
    expect((await h.fetch(VERSIONS(), { headers: APP_KEY })).status).toBe(200)
  })

  it('an upload of unknown length over 5 MB receives the 413 while it streams', async () => {
    const chunk = new Uint8Array(256 * 1024).fill(0x62)
    let sent = 0
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= SIX_MB) controller.close()
        else {
          sent += chunk.byteLength
          controller.enqueue(chunk)
        }
      },
    })
    const response = await h.fetch('/hooks/orders', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: stream, duplex: 'half' } as RequestInit)
    expect([response.status, await response.text()]).toEqual([413, 'Payload Too Large'])
    expect((await h.fetch(VERSIONS(), { headers: APP_KEY })).status).toBe(200)
  })
})
