/**
 * The versions operation's error body, the platform's OperationResult:
 * `{"data":[{"error":"…"}],"message":"An error occurred.","output":"Volatile","type":"Error"}`.
 * The platform renders both enums as strings. Every 4xx of the operation uses it, 401 and 403
 * included (`type` `Unauthorized`).
 */
import { ApiAccessError, RateLimitError } from '../auth/errors.js'
import { HttpError } from '../kernel/errors.js'
import { json } from '../kernel/http.js'

export type OperationResultType = 'Critical' | 'Error' | 'Warning' | 'Success' | 'Unauthorized'
export type OperationResultOutput = 'Volatile' | 'Permanent' | 'Dialog' | 'Inline'

export interface OperationResultBody {
  data: Array<{ error: string }>
  message: string
  output: OperationResultOutput
  type: OperationResultType
}

export function operationResult(errors: readonly string[], type: OperationResultType = 'Error'): OperationResultBody {
  return { data: errors.map((error) => ({ error })), message: 'An error occurred.', output: 'Volatile', type }
}

export class VersionsError extends HttpError {
  readonly status: number
  readonly type: OperationResultType
  constructor(status: number, message: string, type: OperationResultType = 'Error') {
    super('ERR_VERSIONS', message)
    this.status = status
    this.type = type
  }
  toResponse(): Response {
    return json(operationResult([this.message], this.type), { status: this.status })
  }
}

export const badRequest = (message: string): VersionsError => new VersionsError(400, message)
export const notFound = (message: string): VersionsError => new VersionsError(404, message)

/**
 * Any error of the route, in the operation's own body (the gate's 401/403 keep their headers).
 * The platform's rate-limit answer (429) is the same on every API, so it keeps its own body.
 */
export function renderVersionsError(error: HttpError): Response {
  if (error instanceof RateLimitError) return error.toResponse()
  if (error instanceof ApiAccessError) {
    return json(operationResult([error.message], 'Unauthorized'), { status: error.status, headers: error.headers() })
  }
  if (error instanceof VersionsError) return error.toResponse()
  return json(operationResult([error.message], error.status >= 500 ? 'Critical' : 'Error'), { status: error.status })
}
