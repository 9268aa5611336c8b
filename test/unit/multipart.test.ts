/**
 * The streaming multipart parser on its own: the same parts whatever sizes the body arrives in
 * (one byte at a time included, so delimiters split across chunks), bodies serialised by the
 * platform's own FormData, and the 400 reasons for broken bodies.
 */
import { describe, expect, it } from 'vitest'
import { MultipartParser } from '../../src/webhooks/multipart.js'
import { WebhookError } from '../../src/webhooks/wire.js'

async function serialise(form: FormData): Promise<{ boundary: string; body: Buffer }> {
  const request = new Request('http://x/', { method: 'POST', body: form })
  const type = request.headers.get('content-type') ?? ''
  return { boundary: /boundary=(.+)$/.exec(type)?.[1] ?? '', body: Buffer.from(await request.arrayBuffer()) }
}

function parse(boundary: string, body: Buffer, chunk: number): ReturnType<MultipartParser['end']> {
  const parser = new MultipartParser(boundary)
  for (let i = 0; i < body.length; i += chunk) parser.push(body.subarray(i, i + chunk))
  return parser.end()
}

describe('multipart parser', () => {
  it.each([1, 2, 7, 41, 64 * 1024])('gives the same parts when the body arrives in chunks of %i bytes', async (chunk) => {
    const binary = Buffer.from(Array.from({ length: 3000 }, (_, i) => (i * 31) % 256))
    const form = new FormData()
    form.append('a', 'first')
    form.append('a', 'second\r\n--not a boundary')
    form.append('file', new Blob([binary], { type: 'application/pdf' }), 'x.pdf')
    form.append('empty', '')
    const { boundary, body } = await serialise(form)
    expect(parse(boundary, body, chunk)).toEqual([
      { kind: 'field', name: 'a', value: 'first' },
      { kind: 'field', name: 'a', value: 'second\r\n--not a boundary' },
      { kind: 'file', name: 'file', filename: 'x.pdf', mime: 'application/pdf', data: binary },
      { kind: 'field', name: 'empty', value: '' },
    ])
  })

  it('reads a preamble and an epilogue, RFC 5987 filenames and a part charset', () => {
    const body = Buffer.concat([
      Buffer.from('preamble\r\n--b\r\nContent-Disposition: form-data; name="f"; filename*=UTF-8\'\'na%C3%AFve.txt\r\n\r\nhi\r\n'),
      Buffer.from('--b\r\nContent-Disposition: form-data; name="t"\r\nContent-Type: text/plain; charset=iso-8859-1\r\n\r\n'),
      Buffer.from([0x63, 0x61, 0x66, 0xe9]),
      Buffer.from('\r\n--b--\r\nepilogue'),
    ])
    expect(parse('b', body, 5)).toEqual([
      { kind: 'file', name: 'f', filename: 'naïve.txt', mime: 'application/octet-stream', data: Buffer.from('hi') },
      { kind: 'field', name: 't', value: 'café' },
    ])
  })

  it.each([
    ['no boundary at all', 'just text', /it has no boundary line/],
    ['no closing boundary', '--b\r\nContent-Disposition: form-data; name="a"\r\n\r\nx', /ends before the closing boundary/],
    ['garbage after a boundary', '--bXY\r\n', /followed by something other than a line break/],
    ['a header line without a name', '--b\r\nnonsense\r\n\r\nx\r\n--b--', /header line without a name/],
  ])('refuses %s with a 400 that says why', (_what, body, reason) => {
    let error: unknown
    try {
      parse('b', Buffer.from(body), 3)
    } catch (caught) {
      error = caught
    }
    expect(error).toBeInstanceOf(WebhookError)
    expect((error as WebhookError).status).toBe(400)
    expect((error as WebhookError).body).toMatch(reason)
  })
})
