/**
 * The route file of one recorded call: the answer only (status, headers, body), everything
 * through the redactor's foreign view. Headers leave out `Set-Cookie`, `Date` and the framing ones;
 * a credential header, or one whose name holds a secret-looking word, is written `[redacted]`. The
 * request line, its secret parameters redacted, is in the file's `$comment`, with any note (a
 * body too large to keep, a header left out). A route recorded from a call with a credential keeps
 * the gate; one without is public.
 */
import type { Redactor } from '../kernel/redact.js'
import { holdsPlaceholder } from './placeholders.js'
import { recordedBody } from './record-body.js'
import type { RecordingName } from './record-names.js'
import type { RoutesDocumentInput, UserRouteInput } from './schema.js'

/** A proxied call as the recorder first sees it: the request, and its answer's head (the body follows). */
export interface ProxiedCallHead {
  readonly method: string
  readonly url: URL
  readonly requestHeaders: Headers
  readonly status: number
  readonly headers: ReadonlyArray<readonly [string, string]>
  /** Said in the file's `$comment` (what the team answered, when svc-mock answered otherwise). */
  readonly note?: string
}

/** An answer once its body is complete: the bytes, or how many there were when too many to keep. */
export type AnswerBody = { readonly kind: 'bytes'; readonly bytes: Uint8Array } | { readonly kind: 'too-large'; readonly size: number }

/** Answer headers not written: the framing ones, and those that say something of this one answer only. */
const LEFT_OUT = new Set(['content-length', 'transfer-encoding', 'connection', 'keep-alive', 'set-cookie', 'date'])

/** The most a route's summary holds (the route schema's limit). */
const SUMMARY_LIMIT = 200

/** The route file's text and, when the body goes beside it, the body file's bytes. */
export function routeFileOf(head: ProxiedCallHead, body: AnswerBody, name: RecordingName, template: string, view: Redactor, at: Date, limit: number): { json: string; body: Uint8Array | undefined } {
  const notes = head.note === undefined ? [] : [head.note]
  const type = headerOf(head, 'content-type') ?? ''
  let recorded = body.kind === 'too-large' ? ({ body: { kind: 'none', note: `the body (${body.size} bytes) was larger than ${limit / 1024 / 1024} MB, so only the head was recorded` }, decoded: false } as const) : recordedBody(body.bytes, type, headerOf(head, 'content-encoding'), view)
  if (head.method === 'HEAD' || [204, 205, 304].includes(head.status)) recorded = { body: { kind: 'none' }, decoded: recorded.decoded }
  if (recorded.body.kind === 'none' && recorded.body.note !== undefined) notes.push(recorded.body.note)

  const headers: Record<string, string> = {}
  for (const [header, value] of head.headers) {
    if (LEFT_OUT.has(header) || (recorded.decoded && header === 'content-encoding')) continue
    const shown = view.header(header, value)
    if (holdsPlaceholder(shown)) {
      notes.push(`the header ${header} was left out: its value holds "{{…}}", which a route file reads as a placeholder`)
      continue
    }
    headers[header] = headers[header] === undefined ? shown : `${headers[header]}, ${shown}`
  }
  const response: NonNullable<UserRouteInput['response']> = { status: head.status, ...(Object.keys(headers).length === 0 ? {} : { headers }) }
  if (recorded.body.kind === 'inline') response.body = recorded.body.value
  if (recorded.body.kind === 'file') response.bodyFile = name.body
  const route: UserRouteInput = {
    id: name.id,
    method: head.method as UserRouteInput['method'],
    path: template,
    summary: `Recorded: ${head.method} ${template}`.slice(0, SUMMARY_LIMIT),
    ...(head.requestHeaders.has('authorization') ? {} : { auth: 'none' as const }),
    response,
  }
  const said = notes.length === 0 ? '' : ` Note: ${notes.join('; ')}.`
  const document: RoutesDocumentInput = {
    $comment: `Recorded by svc-mock ${at.toISOString()} from ${head.method} ${view.path(head.url)}.${said} A newer answer to ${head.method} ${template} replaces it, but never a 401, 403 or 5xx.`,
    routes: [route],
  }
  return { json: `${JSON.stringify(document, null, 2)}\n`, body: recorded.body.kind === 'file' ? recorded.body.bytes : undefined }
}

/** The first value of a header of the answer. */
function headerOf(head: ProxiedCallHead, name: string): string | undefined {
  return head.headers.find(([header]) => header === name)?.[1]
}
