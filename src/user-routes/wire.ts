/**
 * The wire format of the user's resources, in one place: the platform's documented error shape
 * (`{"title","status","detail","errorCode"}`, as its 403 `ADMIN_ACCESS_ERROR` and 429
 * `LIMIT_RATE_EXCEEDED`) for a missing record (404), a body that is not a JSON object (400) and a
 * record that exists already (409); and the proxy's own answers when the upstream fails it (502,
 * 504), which are svc-mock's, since no platform server answered.
 */
import { REASON_HEADER } from '../kernel/constants.js'
import { HttpError } from '../kernel/errors.js'
import { json, type Reply } from '../kernel/reply.js'

/** The platform's error body. */
export interface PlatformErrorBody {
  title: string
  status: number
  detail: string
  errorCode: string
}

function platformError(status: number, title: string, errorCode: string, detail: string): Reply {
  const body: PlatformErrorBody = { title, status, detail, errorCode }
  return json(body, { status, headers: { [REASON_HEADER]: detail } })
}

/** 404: no record with that id. */
export class RecordNotFoundError extends HttpError<'ERR_RECORD_NOT_FOUND'> {
  readonly code = 'ERR_RECORD_NOT_FOUND'
  readonly status = 404
  toReply(): Reply {
    return platformError(404, 'Not Found', 'NOT_FOUND', this.message)
  }
}

/** 400: a create or replace whose body is not a JSON object, or whose id disagrees with the path. */
export class RecordBodyError extends HttpError<'ERR_RECORD_BODY'> {
  readonly code = 'ERR_RECORD_BODY'
  readonly status = 400
  toReply(): Reply {
    return platformError(400, 'Bad Request', 'BAD_REQUEST', this.message)
  }
}

/** 409: a create with the id of a record that exists. */
export class RecordConflictError extends HttpError<'ERR_RECORD_CONFLICT'> {
  readonly code = 'ERR_RECORD_CONFLICT'
  readonly status = 409
  toReply(): Reply {
    return platformError(409, 'Conflict', 'CONFLICT', this.message)
  }
}

/** The proxy could not get an answer from the user's team: 502 (unreachable, failed) or 504 (too slow). */
export class UpstreamError extends HttpError<'ERR_UPSTREAM'> {
  readonly code = 'ERR_UPSTREAM'
  readonly status: 502 | 504
  readonly upstream: string
  constructor(status: 502 | 504, upstream: string, message: string) {
    super(message)
    this.status = status
    this.upstream = upstream
  }
  toReply(): Reply {
    const error = this.status === 504 ? 'Gateway Timeout' : 'Bad Gateway'
    return json({ error, upstream: this.upstream, message: this.message }, { status: this.status, headers: { [REASON_HEADER]: this.message } })
  }
}
