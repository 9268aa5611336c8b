/**
 * The versions operation's wire format, in one place. Success: `{"count": n, "elements": […]}`
 * (or `values`, or both, as the settings say), built from each version's stored JSON bytes.
 * Errors: the platform's OperationResult,
 * `{"data":[{"error":"…"}],"message":"An error occurred.","output":"Volatile","type":"Error"}`;
 * the platform renders both enums as strings. Every 4xx of the operation uses it ("Error 4xx:
 * error body"), 401 and 403 included (`type` `Unauthorized`), and the 429 of a rate limit (with
 * the rate-limit headers).
 */
import { ApiAccessError, RateLimitError } from '../auth/index.js'
import { HttpError, PayloadTooLargeError } from '../kernel/errors.js'
import { json, type Reply, reply } from '../kernel/reply.js'

export type OperationResultType = 'Critical' | 'Error' | 'Warning' | 'Success' | 'Unauthorized'
export type OperationResultOutput = 'Volatile' | 'Permanent' | 'Dialog' | 'Inline'

export interface OperationResultBody {
  data: Array<{ error: string }>
  message: string
  output: OperationResultOutput
  type: OperationResultType
}

export type ListKey = 'elements' | 'values' | 'both'

const COMMA = Buffer.from(',')

/** 200 `{"count":n,"elements":[…]}` (or `values`, or both) from the versions' JSON bytes. */
export function versionList(items: readonly Uint8Array[], key: ListKey): Reply {
  return versionListReply(versionListBody(items, key))
}

/** The answer for a body `versionListBody` made. */
export function versionListReply(body: Uint8Array): Reply {
  return reply(body, { headers: { 'content-type': 'application/json; charset=utf-8' } })
}

/** The bytes of `{"count":n,"elements":[…]}` (or `values`, or both). */
export function versionListBody(items: readonly Uint8Array[], key: ListKey): Uint8Array {
  const parts: Uint8Array[] = [Buffer.from(`{"count":${items.length}`)]
  const names = key === 'both' ? ['elements', 'values'] : [key]
  for (const name of names) {
    parts.push(Buffer.from(`,"${name}":[`))
    items.forEach((item, index) => {
      if (index > 0) parts.push(COMMA)
      parts.push(item)
    })
    parts.push(Buffer.from(']'))
  }
  parts.push(Buffer.from('}'))
  return Buffer.concat(parts)
}

export function operationResult(errors: readonly string[], type: OperationResultType = 'Error'): OperationResultBody {
  return { data: errors.map((error) => ({ error })), message: 'An error occurred.', output: 'Volatile', type }
}

export class VersionsError extends HttpError<'ERR_VERSIONS'> {
  readonly code = 'ERR_VERSIONS'
  readonly status: number
  readonly type: OperationResultType
  constructor(status: number, message: string, type: OperationResultType = 'Error') {
    super(message)
    this.status = status
    this.type = type
  }
  toReply(): Reply {
    return json(operationResult([this.message], this.type), { status: this.status })
  }
}

export const badRequest = (message: string): VersionsError => new VersionsError(400, message)
export const notFound = (message: string): VersionsError => new VersionsError(404, message)

/**
 * Any error of the route, in the operation's own body. The gate's 401 and 403 keep their headers
 * (the challenge, and the reason in `x-svc-mock-reason`); their body says only what the platform's
 * does (`Unauthorized`, `Access is denied`, its documented texts), never svc-mock's reason.
 */
export function renderVersionsError(error: HttpError): Reply {
  // A body too large for the route is refused before the operation reads anything: the plain 413, not an OperationResult.
  if (error instanceof PayloadTooLargeError) return error.toReply()
  if (error instanceof RateLimitError) return json(operationResult([error.message]), { status: 429, headers: error.headers() })
  if (error instanceof ApiAccessError) {
    return json(operationResult([error.platformText()], 'Unauthorized'), { status: error.status, headers: error.headers() })
  }
  if (error instanceof VersionsError) return error.toReply()
  return json(operationResult([error.message], error.status >= 500 ? 'Critical' : 'Error'), { status: error.status })
}

/** Errors a scenario rule may ask the operation for. */
export const VERSIONS_SCENARIO_ERRORS = ['not-found', 'server-error', 'bad-request', 'unauthorized', 'forbidden'] as const

export function versionsScenarioError(code: string, elementId: string, message: string | undefined): Reply | undefined {
  switch (code) {
    case 'not-found':
      return renderVersionsError(notFound(message ?? `Element '${elementId}' not found.`))
    case 'server-error':
      return renderVersionsError(new VersionsError(500, message ?? 'An unexpected error occurred while reading the element versions.', 'Critical'))
    case 'bad-request':
      return renderVersionsError(new VersionsError(400, message ?? 'The request is not valid.'))
    case 'unauthorized':
      return renderVersionsError(new ApiAccessError('unknown-credential', message ?? 'Unauthorized'))
    case 'forbidden':
      return renderVersionsError(new ApiAccessError('missing-permission', message ?? 'Access is denied'))
    default:
      return undefined
  }
}
