/**
 * The error base classes, after jose's: every error svc-mock throws at a caller is a subclass of
 * `SvcMockError` with a literal `code`, one class per code, so `switch (err.code)` over the union
 * of the classes narrows (`src/index.ts` exports that union; each domain adds its own classes).
 * Errors that become HTTP answers extend `HttpError` and render their wire format (`toReply()`).
 */
import { closest } from './closest.js'
import { json, type Reply, text, toFetchResponse } from './reply.js'

export abstract class SvcMockError<Code extends string = string> extends Error {
  abstract readonly code: Code
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.name = new.target.name
  }
}

/** A value of an option as a ConfigError shows it. */
export type OptionValue = string | number | boolean | null

/** Names another option a problem mentions (`{proxy}`), with the value it suggests for it (`{clock.mode=real}`). */
export type OptionNamer = (option: string, value: string | undefined) => string

/** `{name}` or `{name=value}` in a problem: another option, named as the reader knows it. */
const MENTION = /\{([A-Za-z][\w.]*)(?:=([^{}]*))?\}/g

/**
 * An option with a value svc-mock cannot use. `problem` says what is wrong without naming the
 * option (`must use http or https`), and mentions other options as `{proxy}`, so the command line
 * can name them as the flags or variables they came from; `got` is the value refused.
 */
export class ConfigError extends SvcMockError<'ERR_CONFIG'> {
  readonly code = 'ERR_CONFIG'
  readonly option: string
  readonly problem: string
  readonly got: OptionValue | undefined
  /** The allowed value closest to the one refused, when there is a list of them. */
  readonly near: string | undefined
  constructor(option: string, problem: string, refused: { got?: OptionValue; near?: string | undefined; cause?: unknown } = {}) {
    const error = { problem, got: refused.got, near: refused.near }
    super(`Invalid option ${option}: ${explained(error, (name, value) => (value === undefined ? name : `${name} ${JSON.stringify(value)}`), undefined)}`, refused.cause === undefined ? undefined : { cause: refused.cause })
    this.option = option
    this.problem = problem
    this.got = refused.got
    this.near = refused.near
  }

  /** The problem with the options it mentions named by `name`, and the value refused shown as `shown` (default: as given). */
  explain(name: OptionNamer, shown?: string): string {
    return explained(this, name, shown)
  }
}

function explained(error: Pick<ConfigError, 'problem' | 'got' | 'near'>, name: OptionNamer, shown: string | undefined): string {
  const problem = error.problem.replace(MENTION, (_, option: string, value: string | undefined) => name(option, value))
  const got = error.got === undefined ? '' : `, got ${shown ?? (typeof error.got === 'string' ? JSON.stringify(error.got) : String(error.got))}`
  return `${problem}${got}${error.near === undefined ? '' : ` (did you mean ${error.near}?)`}`
}

/** A document that does not match its schema: names the file, the path inside it and the rule. */
abstract class DocumentError<Code extends string> extends SvcMockError<Code> {
  readonly file: string
  readonly path: string
  readonly rule: string
  constructor(what: string, file: string, path: string, rule: string) {
    super(`Invalid ${what} ${file}${path ? ` at ${path}` : ''}: ${rule}`)
    this.file = file
    this.path = path
    this.rule = rule
  }
}

/** A fixture file that does not match its schema. */
export class FixtureError extends DocumentError<'ERR_FIXTURE'> {
  readonly code = 'ERR_FIXTURE'
  constructor(file: string, path: string, rule: string) {
    super('fixture', file, path, rule)
  }
}

/** A scenario file that does not match the scenario format, or a bad activation of one. */
export class ScenarioError extends DocumentError<'ERR_SCENARIO'> {
  readonly code = 'ERR_SCENARIO'
  constructor(file: string, path: string, rule: string) {
    super('scenario', file, path, rule)
  }
}

export class UnknownScenarioError extends SvcMockError<'ERR_UNKNOWN_SCENARIO'> {
  readonly code = 'ERR_UNKNOWN_SCENARIO'
  readonly scenario: string
  readonly known: readonly string[]
  constructor(scenario: string, known: readonly string[]) {
    const near = closest(scenario, known)
    super(`Unknown scenario "${scenario}"${near === undefined ? '' : ` (did you mean "${near}"?)`}. Known scenarios: ${known.join(', ')}.`)
    this.scenario = scenario
    this.known = known
  }
}

/** An error that is answered over HTTP: it knows its status and renders its own body. */
export abstract class HttpError<Code extends string = string> extends SvcMockError<Code> {
  abstract readonly status: number
  abstract toReply(): Reply
  /** The answer as a Fetch Response. */
  toResponse(): Response {
    return toFetchResponse(this.toReply(), 'GET')
  }
}

/** A request body larger than its route takes: refused before or while it is read. */
export class PayloadTooLargeError extends HttpError<'ERR_PAYLOAD_TOO_LARGE'> {
  readonly code = 'ERR_PAYLOAD_TOO_LARGE'
  readonly status = 413
  readonly limit: number
  constructor(limit: number) {
    super(`The request body is larger than ${limit} bytes.`)
    this.limit = limit
  }
  toReply(): Reply {
    return text('Payload Too Large', { status: 413 })
  }
}

/** A control-plane request the emulator refuses: `{"error": "…", "field": "…"}` with the status. */
export abstract class ControlError<Code extends string = string> extends HttpError<Code> {
  readonly field: string | undefined
  constructor(message: string, field?: string) {
    super(message)
    this.field = field
  }
  toReply(): Reply {
    return json({ error: this.message, ...(this.field === undefined ? {} : { field: this.field }) }, { status: this.status })
  }
}

/** 400: a control-plane body or parameter that is not valid; names the field. */
export class InvalidInputError extends ControlError<'ERR_CONTROL_BODY'> {
  readonly code = 'ERR_CONTROL_BODY'
  readonly status = 400
}

/** 404: the control plane has no such thing (webhook, client, user, element, …). */
export class NotFoundError extends ControlError<'ERR_NOT_FOUND'> {
  readonly code = 'ERR_NOT_FOUND'
  readonly status = 404
}

/** 409: the thing exists already, or the change would leave it broken. */
export class ConflictError extends ControlError<'ERR_CONFLICT'> {
  readonly code = 'ERR_CONFLICT'
  readonly status = 409
}

/** The kernel's error classes (each domain's index exports its own). */
export type KernelError =
  | ConfigError
  | FixtureError
  | ScenarioError
  | UnknownScenarioError
  | PayloadTooLargeError
  | InvalidInputError
  | NotFoundError
  | ConflictError
