/**
 * An answer as verify compares and saves it: status, media type, the documented headers it has
 * (normalized), and its body: the shape of a success body's JSON, the normalized values of an
 * error body's JSON, a text body's normalized text, an HTML page's title. A success body's values
 * are never kept (they are the team's data: names, e-mail addresses); its shape is what is compared.
 */
import type { JsonValue } from '../kernel/json.js'
import type { ProbeComparison } from '../kernel/verify-probe.js'
import { COMPARED_HEADERS, type NormalizeContext, mediaType, normalizeHeader, normalizeJson, normalizeText } from './normalize.js'
import { type Shape, shapeOf } from './shape.js'
import type { RawAnswer } from './transport.js'

export type AnswerBody =
  | { readonly kind: 'shape'; readonly shape: Shape }
  | { readonly kind: 'json'; readonly value: JsonValue }
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'html'; readonly title: string }
  | { readonly kind: 'binary'; readonly bytes: number }
  | { readonly kind: 'empty' }

export interface NormalizedAnswer {
  readonly status: number
  /** The media type, lower case, no parameters; '' when there is none. */
  readonly contentType: string
  /** The documented headers present, by lower-case name, normalized. */
  readonly headers: Readonly<Record<string, string>>
  readonly body: AnswerBody
}

/** How much of a text body is kept and compared. */
const TEXT_KEPT = 2000

const isJsonType = (type: string): boolean => type === 'application/json' || type.endsWith('+json')

/** The answer as compared: what is meant to differ normalized with the side's context. */
export function normalizeAnswer(raw: RawAnswer, context: NormalizeContext, comparison: ProbeComparison = {}): NormalizedAnswer {
  const contentType = mediaType(raw.headers['content-type'])
  const headers = Object.create(null) as Record<string, string>
  for (const name of COMPARED_HEADERS) {
    const value = raw.headers[name]
    if (value !== undefined) headers[name] = normalizeHeader(name, value, context)
  }
  return { status: raw.status, contentType, headers, body: bodyOf(raw, contentType, context, comparison) }
}

function bodyOf(raw: RawAnswer, contentType: string, context: NormalizeContext, comparison: ProbeComparison): AnswerBody {
  if (raw.body.length === 0) return { kind: 'empty' }
  const text = decode(raw.body)
  if (text === undefined) return { kind: 'binary', bytes: raw.body.length }
  if (isJsonType(contentType)) {
    const value = parse(text)
    if (value !== undefined) {
      if (raw.status >= 200 && raw.status < 300) return { kind: 'shape', shape: shapeOf(value) }
      return { kind: 'json', value: normalizeJson(value, context, comparison.text) }
    }
  }
  if (contentType === 'text/html' || (contentType === '' && /^\s*<(!doctype html|html)/i.test(text))) {
    const title = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(text)?.[1]?.replace(/\s+/g, ' ').trim() ?? ''
    return { kind: 'html', title: normalizeText(title.slice(0, 120), context) }
  }
  return { kind: 'text', text: normalizeText(text.slice(0, TEXT_KEPT), context, comparison.text) }
}

function decode(bytes: Uint8Array): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    return undefined
  }
}

function parse(text: string): JsonValue | undefined {
  try {
    return JSON.parse(text) as JsonValue
  } catch {
    return undefined
  }
}

/** The body in a few words, for a difference of kind (`an HTML page "Sign in"`). */
export function describeBody(body: AnswerBody): string {
  switch (body.kind) {
    case 'shape':
    case 'json':
      return 'JSON'
    case 'text':
      return `text ${JSON.stringify(body.text.slice(0, 80))}`
    case 'html':
      return body.title === '' ? 'an HTML page' : `an HTML page ${JSON.stringify(body.title)}`
    case 'binary':
      return `${body.bytes} bytes that are not text`
    case 'empty':
      return 'no body'
  }
}
