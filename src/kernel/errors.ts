/**
 * The error base class. Every error svc-mock throws at a caller has a `code` from one string union,
 * so `switch (err.code)` narrows; errors that become HTTP answers carry their own wire format
 * (`toResponse()`), rendered by the domain that owns the route.
 */

export type SvcMockErrorCode =
  | 'ERR_CONFIG'
  | 'ERR_FIXTURE'
  | 'ERR_SCENARIO'
  | 'ERR_UNKNOWN_SCENARIO'
  | 'ERR_CONTROL_BODY'
  | 'ERR_NOT_FOUND'
  | 'ERR_CONFLICT'
  | 'ERR_PAYLOAD_TOO_LARGE'
  | 'ERR_API_ACCESS'
  | 'ERR_VERSIONS'
  | 'ERR_PORT_IN_USE'
  | (string & {})

export class SvcMockError extends Error {
  readonly code: SvcMockErrorCode
  constructor(code: SvcMockErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.name = new.target.name
    this.code = code
  }
}

/** An option, flag or environment variable with a value svc-mock cannot use. */
export class ConfigError extends SvcMockError {
  readonly option: string
  constructor(option: string, problem: string) {
    super('ERR_CONFIG', `Invalid option ${option}: ${problem}`)
    this.option = option
  }
}

/** A fixture file that does not match its schema: names the file, the path inside it and the rule. */
export class FixtureError extends SvcMockError {
  readonly file: string
  readonly path: string
  readonly rule: string
  constructor(file: string, path: string, rule: string) {
    super('ERR_FIXTURE', `Invalid fixture ${file}${path ? ` at ${path}` : ''}: ${rule}`)
    this.file = file
    this.path = path
    this.rule = rule
  }
}

/** A scenario file that does not match the scenario format, or a bad activation of one. */
export class ScenarioError extends SvcMockError {
  readonly file: string
  readonly path: string
  readonly rule: string
  constructor(file: string, path: string, rule: string) {
    super('ERR_SCENARIO', `Invalid scenario ${file}${path ? ` at ${path}` : ''}: ${rule}`)
    this.file = file
    this.path = path
    this.rule = rule
  }
}

export class UnknownScenarioError extends SvcMockError {
  readonly scenario: string
  readonly known: readonly string[]
  constructor(scenario: string, known: readonly string[]) {
    super('ERR_UNKNOWN_SCENARIO', `Unknown scenario "${scenario}". Known scenarios: ${known.join(', ')}.`)
    this.scenario = scenario
    this.known = known
  }
}

/** An error that is answered over HTTP: it knows its status and renders its own body. */
export abstract class HttpError extends SvcMockError {
  abstract readonly status: number
  abstract toResponse(): Response
}

/** A control-plane request body or parameter that is not valid; names the field. */
export class ControlError extends HttpError {
  readonly status: number
  readonly field: string | undefined
  constructor(status: number, message: string, field?: string, code: SvcMockErrorCode = 'ERR_CONTROL_BODY') {
    super(code, message)
    this.status = status
    this.field = field
  }
  toResponse(): Response {
    return Response.json(
      { error: this.message, ...(this.field === undefined ? {} : { field: this.field }) },
      { status: this.status },
    )
  }
}
