/**
 * `application/x-www-form-urlencoded` and query strings, read as the platform reads them: `+` is a
 * space, `%XX` escapes are bytes, and the bytes of each name and value must be valid in the charset
 * (UTF-8 unless the Content-Type says otherwise). URLSearchParams would quietly turn bad bytes into
 * U+FFFD; here they are a 400 that says so. A `%` not followed by two hex digits stays literal,
 * as in the WHATWG URL standard.
 */
import type { TextDecoder } from 'node:util'
import { decodeChunk, wholeDecoder } from './body.js'

export type Pair = readonly [name: string, value: string]

/** Parses `a=1&b=2&a=3` into pairs, in order. */
export function parseUrlencoded(input: string, charset: string | undefined, what: string): Pair[] {
  const decoder = wholeDecoder(charset)
  const out: Pair[] = []
  if (input === '') return out
  for (const piece of input.split('&')) {
    if (piece === '') continue
    const eq = piece.indexOf('=')
    const rawName = eq === -1 ? piece : piece.slice(0, eq)
    const rawValue = eq === -1 ? '' : piece.slice(eq + 1)
    out.push([percentDecode(rawName, decoder, what), percentDecode(rawValue, decoder, what)])
  }
  return out
}

function percentDecode(raw: string, decoder: TextDecoder, what: string): string {
  const plus = raw.replaceAll('+', ' ')
  if (!plus.includes('%') && /^[\x00-\x7f]*$/.test(plus)) return plus
  const bytes: number[] = []
  for (let i = 0; i < plus.length; i++) {
    const ch = plus.charCodeAt(i)
    if (ch === 0x25 && i + 2 < plus.length && isHex(plus.charCodeAt(i + 1)) && isHex(plus.charCodeAt(i + 2))) {
      bytes.push(parseInt(plus.slice(i + 1, i + 3), 16))
      i += 2
    } else if (ch < 0x100) {
      // Bodies are read as latin1, so every character below 0x100 is one byte as sent.
      bytes.push(ch)
    } else {
      // A character beyond latin1 (text given in code, not bytes): its UTF-8 bytes.
      const code = plus.codePointAt(i) ?? ch
      for (const b of Buffer.from(String.fromCodePoint(code), 'utf8')) bytes.push(b)
      if (code > 0xffff) i++
    }
  }
  return decodeChunk(decoder, Uint8Array.from(bytes), false, what)
}

function isHex(code: number): boolean {
  return (code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x46) || (code >= 0x61 && code <= 0x66)
}
