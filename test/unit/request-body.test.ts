/**
 * A request's body as the pipeline hands it to a route: read as bytes, text or a form, chunk by
 * chunk as it streams, kept once read (so it can be read again), and refused past the route's
 * limit with PayloadTooLargeError, whether it came in memory or as a stream.
 */
import { describe, expect, it } from 'vitest'
import { PayloadTooLargeError } from '../../src/kernel/errors.js'
import { RequestBody, incomingOf } from '../../src/kernel/request.js'

const encoder = new TextEncoder()

async function* chunks(...parts: string[]): AsyncIterable<Uint8Array> {
  for (const part of parts) yield encoder.encode(part)
}

describe('RequestBody', () => {
  it('reads bytes already in memory as text, and again', async () => {
    const body = new RequestBody(encoder.encode('{"a":1}'))
    expect(body.length).toBe(7)
    expect(await body.text()).toBe('{"a":1}')
    expect(await body.text()).toBe('{"a":1}')
  })

  it('streams chunk by chunk; a small body is kept as it passes (for the journal), a large one is not', async () => {
    const body = new RequestBody(chunks('hel', 'lo'))
    const seen: string[] = []
    expect(body.kept()).toBeUndefined()
    expect(await body.each((chunk) => seen.push(new TextDecoder().decode(chunk)))).toBe(5)
    expect(seen).toEqual(['hel', 'lo'])
    expect(new TextDecoder().decode(body.kept())).toBe('hello')
    expect(await body.text()).toBe('hello')

    const large = new RequestBody(chunks('x'.repeat(40_000), 'y'.repeat(40_000)))
    expect(await large.each(() => undefined)).toBe(80_000)
    expect(large.kept()).toBeUndefined()
    await expect(large.text()).rejects.toThrow(/already been read/)
  })

  it('keeps a streamed body once read whole, so a second reader gets it from memory', async () => {
    const body = new RequestBody(chunks('a=1&', 'b=two'))
    const form = await body.formData('application/x-www-form-urlencoded')
    expect([form.get('a'), form.get('b')]).toEqual(['1', 'two'])
    expect(await body.text()).toBe('a=1&b=two')
  })

  it('parses multipart with the boundary of the Content-Type as sent (case kept)', async () => {
    const text = '--XyZ\r\nContent-Disposition: form-data; name="grant_type"\r\n\r\nclient_credentials\r\n--XyZ--\r\n'
    const form = await new RequestBody(encoder.encode(text)).formData('multipart/form-data; boundary=XyZ')
    expect(form.get('grant_type')).toBe('client_credentials')
  })

  it('refuses a streamed body past the limit while it arrives, and every later read the same way', async () => {
    const body = new RequestBody(chunks('12345', '67890'))
    body.limit(8)
    const seen: number[] = []
    await expect(body.each((chunk) => seen.push(chunk.byteLength))).rejects.toBeInstanceOf(PayloadTooLargeError)
    expect(seen).toEqual([5])
    await expect(body.bytes()).rejects.toBeInstanceOf(PayloadTooLargeError)
  })

  it('refuses bytes in memory past the limit', async () => {
    const body = new RequestBody(encoder.encode('0123456789'))
    body.limit(4)
    await expect(body.bytes()).rejects.toMatchObject({ code: 'ERR_PAYLOAD_TOO_LARGE', limit: 4 })
  })

  it('is made from a Fetch Request: null without a body, the announced length with one', async () => {
    expect(incomingOf(new Request('https://x/a')).body).toBeNull()
    const incoming = incomingOf(new Request('https://x/a', { method: 'POST', body: 'hi', headers: { 'content-length': '2' } }))
    expect(incoming.body?.length).toBe(2)
    expect(await incoming.body?.text()).toBe('hi')
    expect([incoming.method, incoming.url.pathname]).toEqual(['POST', '/a'])
  })
})
