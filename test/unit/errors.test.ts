/**
 * The error classes: one class per code, each with its literal `code`, so a caller's
 * `switch (error.code)` over `AnySvcMockError` narrows to the class and its fields (this file
 * only type-checks if it does).
 */
import { describe, expect, it } from 'vitest'
import {
  type AnySvcMockError,
  ApiAccessError,
  ConfigError,
  ConflictError,
  ExecutionTimeoutError,
  FixtureError,
  ForeignOriginError,
  InvalidInputError,
  LocalCaError,
  MisdirectedRequestError,
  MswMissingError,
  NotJsonError,
  NotFoundError,
  OAuthError,
  PayloadTooLargeError,
  PortInUseError,
  RateLimitError,
  RecordBodyError,
  RecordConflictError,
  RecordNotFoundError,
  RouteFileError,
  ScenarioError,
  ServerClosingError,
  SvcMockError,
  TeamDeletedError,
  TeamPortError,
  TeamsUnavailableError,
  TooManyTeamsError,
  UnknownScenarioError,
  UpstreamError,
  VersionsError,
  WebhookError,
} from '../../src/index.js'

/** What a caller can read off each error, found by its code alone. */
function describeError(error: AnySvcMockError): string {
  switch (error.code) {
    case 'ERR_CONFIG':
      return `option ${error.option}`
    case 'ERR_FIXTURE':
    case 'ERR_SCENARIO':
      return `${error.file} ${error.path}`
    case 'ERR_UNKNOWN_SCENARIO':
      return `${error.scenario} of ${error.known.length}`
    case 'ERR_PAYLOAD_TOO_LARGE':
      return `limit ${error.limit}`
    case 'ERR_CONTROL_BODY':
    case 'ERR_NOT_FOUND':
    case 'ERR_CONFLICT':
      return `${error.status} ${error.field ?? ''}`
    case 'ERR_PORT_IN_USE':
      return `port ${error.port}`
    case 'ERR_LOCAL_CA':
      return `ca ${error.folder}`
    case 'ERR_MSW_MISSING':
      return 'install msw'
    case 'ERR_FOREIGN_ORIGIN':
    case 'ERR_NOT_JSON':
    case 'ERR_MISDIRECTED':
      return `guard ${error.status}`
    case 'ERR_NO_TEAMS':
    case 'ERR_TEAM_PORT':
    case 'ERR_TEAM_DELETED':
    case 'ERR_SERVER_CLOSING':
      return `teams ${error.status}`
    case 'ERR_TOO_MANY_TEAMS':
      return `teams limit ${error.limit}`
    case 'ERR_API_ACCESS':
      return `access ${error.problem}`
    case 'ERR_RATE_LIMIT':
      return `reset ${error.resetSeconds}`
    case 'ERR_OAUTH':
      return `oauth ${error.error}`
    case 'ERR_AUTHORIZE_REDIRECT':
      return `redirect ${error.redirectUri}`
    case 'ERR_AUTHORIZE_PAGE':
      return `page ${error.title}`
    case 'ERR_VERSIONS':
      return `versions ${error.type}`
    case 'ERR_WEBHOOK':
      return `webhook ${error.problem}`
    case 'ERR_EXECUTION_TIMEOUT':
      return `webhook ${error.webhook}`
    case 'ERR_ROUTES':
      return `${error.file} ${error.item} ${error.field}`
    case 'ERR_RECORD_NOT_FOUND':
    case 'ERR_RECORD_BODY':
    case 'ERR_RECORD_CONFLICT':
      return `record ${error.status}`
    case 'ERR_UPSTREAM':
      return `upstream ${error.status} ${error.upstream}`
  }
}

describe('error classes', () => {
  it.each([
    [new ConfigError('port', 'bad'), 'ERR_CONFIG', 'option port'],
    [new FixtureError('f.json', 'users[0]', 'bad'), 'ERR_FIXTURE', 'f.json users[0]'],
    [new ScenarioError('s.json', 'rules[0]', 'bad'), 'ERR_SCENARIO', 's.json rules[0]'],
    [new UnknownScenarioError('x', ['a', 'b']), 'ERR_UNKNOWN_SCENARIO', 'x of 2'],
    [new PayloadTooLargeError(10), 'ERR_PAYLOAD_TOO_LARGE', 'limit 10'],
    [new InvalidInputError('bad', 'name'), 'ERR_CONTROL_BODY', '400 name'],
    [new NotFoundError('none', 'id'), 'ERR_NOT_FOUND', '404 id'],
    [new ConflictError('twice', 'id'), 'ERR_CONFLICT', '409 id'],
    [new PortInUseError('127.0.0.1', 4010), 'ERR_PORT_IN_USE', 'port 4010'],
    [new LocalCaError('/data/svc-mock/ca', 'broken'), 'ERR_LOCAL_CA', 'ca /data/svc-mock/ca'],
    [new MswMissingError(), 'ERR_MSW_MISSING', 'install msw'],
    [new ForeignOriginError('other page', 'origin'), 'ERR_FOREIGN_ORIGIN', 'guard 403'],
    [new NotJsonError('a form', 'content-type'), 'ERR_NOT_JSON', 'guard 415'],
    [new MisdirectedRequestError('rebinding', 'host'), 'ERR_MISDIRECTED', 'guard 421'],
    [new TeamsUnavailableError(), 'ERR_NO_TEAMS', 'teams 501'],
    [new TooManyTeamsError(3), 'ERR_TOO_MANY_TEAMS', 'teams limit 3'],
    [new TeamPortError('in use', 'port'), 'ERR_TEAM_PORT', 'teams 503'],
    [new TeamDeletedError(), 'ERR_TEAM_DELETED', 'teams 410'],
    [new ServerClosingError(), 'ERR_SERVER_CLOSING', 'teams 503'],
    [new ApiAccessError('missing-permission', 'no'), 'ERR_API_ACCESS', 'access missing-permission'],
    [new RateLimitError('slow down', 5, 3), 'ERR_RATE_LIMIT', 'reset 3'],
    [new OAuthError('invalid_grant', 'used'), 'ERR_OAUTH', 'oauth invalid_grant'],
    [new VersionsError(404, 'gone'), 'ERR_VERSIONS', 'versions Error'],
    [new WebhookError('queue-full', 400, 'Queue is full.'), 'ERR_WEBHOOK', 'webhook queue-full'],
    [new ExecutionTimeoutError('orders', 1000), 'ERR_EXECUTION_TIMEOUT', 'webhook orders'],
    [new RouteFileError('r.json', 'routes[0] (id "x")', 'path', 'bad'), 'ERR_ROUTES', 'r.json routes[0] (id "x") path'],
    [new RecordNotFoundError('none'), 'ERR_RECORD_NOT_FOUND', 'record 404'],
    [new RecordBodyError('not an object'), 'ERR_RECORD_BODY', 'record 400'],
    [new RecordConflictError('twice'), 'ERR_RECORD_CONFLICT', 'record 409'],
    [new UpstreamError(502, 'https://team.example', 'down'), 'ERR_UPSTREAM', 'upstream 502 https://team.example'],
  ] as const)('%o has its own code', (error, code, described) => {
    expect(error).toBeInstanceOf(SvcMockError)
    expect(error.code).toBe(code)
    expect(error.name).toBe(error.constructor.name)
    expect(describeError(error)).toBe(described)
  })

  it('a missing record renders the platform\'s error body', async () => {
    const response = new RecordNotFoundError('No pools record with id "x".').toResponse()
    expect(response.status).toBe(404)
    expect(await response.json()).toEqual({ title: 'Not Found', status: 404, detail: 'No pools record with id "x".', errorCode: 'NOT_FOUND' })
  })

  it('an HTTP error renders its own answer', async () => {
    const response = new NotFoundError('No webhook "x".', 'id').toResponse()
    expect(response.status).toBe(404)
    expect(await response.json()).toEqual({ error: 'No webhook "x".', field: 'id' })
  })

  it('a refused team past the limit says the limit in its answer', async () => {
    const response = new TooManyTeamsError(1000).toResponse()
    expect(response.status).toBe(429)
    expect(await response.json()).toMatchObject({ limit: 1000 })
  })
})
