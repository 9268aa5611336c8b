/**
 * The bundle: what the flow receives for one call. The body's fields, then the query string's
 * (the query wins on a clash); a name sent more than once becomes an array; files are
 * collections `{name, mime, data}`. JSON pass-through gives the raw JSON text as `value` (the body
 * unparsed); the other options add the
 * request headers (`__IMTHEADERS__`) and the method (`__IMTMETHOD__`). The headers are those of
 * the call the flow receives: the gateway's mark `x-service-authenticated: true` on a call it
 * authenticated, without the `Authorization` it consumed, and never a caller's own mark. The
 * journal shows a bundle through the redactor (file bytes counted, credentials redacted).
 */
import { SCENARIO_HEADER } from '../kernel/constants.js'
import type { Bundle, WebhookOptions } from './model.js'
import type { Payload } from './payload.js'
import type { Pair } from './urlencoded.js'
import { AUTHENTICATED_HEADER } from './wire.js'

export const HEADERS_FIELD = '__IMTHEADERS__'
export const METHOD_FIELD = '__IMTMETHOD__'

/** svc-mock's own request headers (`x-svc-mock-scenario`, …) never reach a flow. */
const OWN_HEADER = /^x-svc-mock-/

export interface BundleSource {
  readonly method: string
  readonly headers: Headers
  readonly query: readonly Pair[]
  readonly payload: Payload
  readonly options: WebhookOptions
  /** The gateway authenticated the caller (a webhook secured for public use): the call carries its mark. */
  readonly authenticated: boolean
}

export function buildBundle(source: BundleSource): Bundle {
  const { payload, options } = source
  // A spread defines each member as its own (`__proto__` included), in the object's order.
  const fields: Record<string, unknown> = payload.object ? { ...payload.object } : {}
  if (payload.value !== undefined) define(fields, 'value', payload.value)
  addRepeated(fields, payload.pairs)
  if (source.query.length > 0) {
    const query: Record<string, unknown> = {}
    addRepeated(query, source.query)
    for (const name of Object.keys(query)) define(fields, name, query[name])
  }
  if (payload.raw !== undefined) define(fields, 'value', payload.raw)
  if (options.requestHeaders) define(fields, HEADERS_FIELD, requestHeaders(source.headers, source.authenticated))
  if (options.requestMethod) define(fields, METHOD_FIELD, source.method)
  return fields
}

/** Sets a member as an own data property: assigning `__proto__` would set the prototype instead. */
function define(target: Record<string, unknown>, name: string, value: unknown): void {
  if (name === '__proto__') Object.defineProperty(target, name, { value, writable: true, enumerable: true, configurable: true })
  else target[name] = value
}

function addRepeated(target: Record<string, unknown>, pairs: ReadonlyArray<readonly [string, unknown]>): void {
  if (pairs.length === 0) return
  const seen = new Map<string, number>()
  for (const [name, value] of pairs) {
    const count = seen.get(name) ?? 0
    seen.set(name, count + 1)
    if (count === 0) define(target, name, value)
    else if (count === 1) define(target, name, [target[name], value])
    else {
      const current = target[name]
      if (Array.isArray(current)) current.push(value)
    }
  }
}

/**
 * The headers of the call the flow receives, in the caller's header order (alphabetical). A
 * caller's `x-service-authenticated` is dropped on every webhook, so the mark cannot be forged;
 * on an authenticated call the gateway's own mark takes its place and the `Authorization` it
 * consumed is not passed on.
 */
function requestHeaders(headers: Headers, authenticated: boolean): Array<{ name: string; value: string }> {
  const out: Array<{ name: string; value: string }> = []
  headers.forEach((value, name) => {
    if (OWN_HEADER.test(name) || name === SCENARIO_HEADER || name === AUTHENTICATED_HEADER) return
    if (authenticated && name === 'authorization') return
    out.push({ name, value })
  })
  if (authenticated) {
    const at = out.findIndex((entry) => entry.name > AUTHENTICATED_HEADER)
    out.splice(at === -1 ? out.length : at, 0, { name: AUTHENTICATED_HEADER, value: 'true' })
  }
  return out
}
