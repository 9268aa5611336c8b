/**
 * The node:http adapter's PrereadRequest behaves like a Fetch Request with that body: read once,
 * by any of the body methods or as a stream; looking at `body` does not consume it.
 */
import { describe, expect, it } from 'vitest'
import { PrereadRequest } from '../../src/adapters/preread-request.js'

const make = (body: string, type = 'application/json'): PrereadRequest =>
  new PrereadRequest('http://x/hooks/a', { method: 'POST', headers: { 'content-type': type } }, new TextEncoder().encode(body))

describe('PrereadRequest', () => {
  it('reads as text, json, arrayBuffer, once', async () => {
    const request = make('{"a":1}')
    expect(request.bodyUsed).toBe(false)
    expect(await request.clone().json()).toEqual({ a: 1 })
    expect(new TextDecoder().decode(await request.clone().arrayBuffer())).toBe('{"a":1}')
    expect(await request.text()).toBe('{"a":1}')
    expect(request.bodyUsed).toBe(true)
    await expect(request.text()).rejects.toThrow(TypeError)
  })

  it('looking at body does not consume it; reading the stream does', async () => {
    const request = make('hello', 'text/plain')
    expect(request.body).not.toBeNull()
    await new Promise((resolve) => setImmediate(resolve))
    expect(request.bodyUsed).toBe(false)
    const reader = (request.body as ReadableStream<Uint8Array>).getReader()
    const { value } = await reader.read()
    expect(new TextDecoder().decode(value)).toBe('hello')
    expect((await reader.read()).done).toBe(true)
    expect(request.bodyUsed).toBe(true)
  })

  it('parses a form body with formData()', async () => {
    const form = await make('a=1&b=two', 'application/x-www-form-urlencoded').formData()
    expect([form.get('a'), form.get('b')]).toEqual(['1', 'two'])
  })

  it('keeps method, headers and url', () => {
    const request = make('{}')
    expect([request.method, request.url, request.headers.get('content-type')]).toEqual(['POST', 'http://x/hooks/a', 'application/json'])
  })
})
