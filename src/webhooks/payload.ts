/**
 * A call's payload, read as its Content-Type says: a query string (GET and anything without a
 * body), `application/x-www-form-urlencoded`, `multipart/form-data` (text fields and files),
 * `application/json`, and text (`text/*`, XML, or no Content-Type), which arrives as `value`.
 * With JSON pass-through a JSON body is only decoded, never parsed: its text is what the flow gets.
 * Bodies stream through a parser; anything that cannot be read is a 400 with the reason.
 */
import { NESTING_RULE, nestsDeeperThan } from '../kernel/nesting.js'
import type { RequestContext } from '../kernel/route.js'
import { parseMediaType, readText } from './body.js'
import type { FileValue } from './model.js'
import { malformedBody } from './wire.js'
import { MultipartParser, boundaryOf } from './multipart.js'
import { type Pair, parseUrlencoded } from './urlencoded.js'

/** `json-text`: a JSON body kept as its text, unparsed (JSON pass-through). */
export type PayloadKind = 'none' | 'json' | 'json-text' | 'form' | 'multipart' | 'text'

export interface Payload {
  readonly kind: PayloadKind
  /** Name/value pairs in order (form and multipart; repeated names stay repeated). */
  readonly pairs: ReadonlyArray<readonly [string, string | FileValue]>
  /** A JSON object's members. */
  readonly object: Readonly<Record<string, unknown>> | undefined
  /** The `value` of a text body, or of a JSON body that is not an object. */
  readonly value: unknown
  /** The body's text as sent (a JSON body under JSON pass-through), unparsed. */
  readonly raw: string | undefined
}

const NONE: Payload = { kind: 'none', pairs: [], object: undefined, value: undefined, raw: undefined }

export function isJsonType(type: string): boolean {
  return type === 'application/json' || (type.startsWith('application/') && type.endsWith('+json'))
}

function isTextType(type: string): boolean {
  return type.startsWith('text/') || type === 'application/xml' || (type.startsWith('application/') && type.endsWith('+xml'))
}

/** `passThrough`: the webhook's JSON pass-through option (a JSON body is then not parsed or checked). */
export async function readPayload(ctx: RequestContext, passThrough: boolean): Promise<Payload> {
  const body = ctx.body
  if (ctx.method === 'GET' || ctx.method === 'HEAD' || body === null || body.length === 0) return NONE
  const media = parseMediaType(ctx.headers.get('content-type'))
  const charset = media?.params.get('charset')
  const type = media?.type

  if (type === 'multipart/form-data') {
    const parser = new MultipartParser(boundaryOf(media?.params ?? new Map()))
    const bytes = await body.each((chunk) => parser.push(chunk))
    if (bytes === 0) return NONE
    const pairs = parser.end().map((part): readonly [string, string | FileValue] =>
      part.kind === 'field' ? [part.name, part.value] : [part.name, { name: part.filename, mime: part.mime, data: part.data }],
    )
    return { kind: 'multipart', pairs, object: undefined, value: undefined, raw: undefined }
  }
  if (type === 'application/x-www-form-urlencoded') {
    // The body is ASCII with %XX escapes; latin1 keeps each byte as one character for the parser.
    const { text } = await readText(body, 'latin1', 'The form body')
    const pairs: Pair[] = parseUrlencoded(text.trim(), charset, 'The form body')
    return { kind: 'form', pairs, object: undefined, value: undefined, raw: undefined }
  }
  if (type !== undefined && isJsonType(type)) {
    const { text } = await readText(body, charset, 'The JSON body')
    if (text.trim() === '') return NONE
    if (passThrough) return { kind: 'json-text', pairs: [], object: undefined, value: undefined, raw: text }
    let parsed: unknown
    try {
      parsed = JSON.parse(text)
    } catch (error) {
      throw malformedBody(`The JSON body is not valid JSON: ${error instanceof Error ? error.message : String(error)}`)
    }
    if (nestsDeeperThan(parsed)) throw malformedBody(`The JSON body ${NESTING_RULE}.`)
    const isObject = typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
    return {
      kind: 'json',
      pairs: [],
      object: isObject ? (parsed as Record<string, unknown>) : undefined,
      value: isObject ? undefined : parsed,
      raw: undefined,
    }
  }
  if (type === undefined || isTextType(type)) {
    const { text, bytes } = await readText(body, charset, 'The body')
    if (bytes === 0) return NONE
    return { kind: 'text', pairs: [], object: undefined, value: text, raw: undefined }
  }
  throw malformedBody(
    `Unsupported Content-Type '${type}'. Send application/json, application/x-www-form-urlencoded, multipart/form-data or text/plain.`,
  )
}
