/**
 * The normalizer of `svc-mock verify` (src/verify/normalize.ts, src/verify/answer.ts): what is meant
 * to differ between the team and svc-mock becomes the same placeholder on both sides, credentials
 * never survive it, and a success body keeps its shape only.
 */
import { describe, expect, it } from 'vitest'
import { normalizeAnswer } from '../../src/verify/answer.js'
import { type NormalizeContext, normalizeHeader, normalizeJson, normalizeText } from '../../src/verify/normalize.js'

const TEAM: NormalizeContext = {
  origins: { auth: 'https://login.acme.eu-1.celonis.cloud', base: 'https://acme.eu-1.celonis.cloud', webhook: 'https://acme.eu-1.celonis.cloud' },
  literals: [
    ['acme-coll', '{collection}'],
    ['default', '{view}'],
    ['/hooks/9f2c', '{webhook}'],
    ['nightly-ci', '{client_id}'],
  ],
  secrets: ['s3cr3t-of-the-team', 'api-key-of-the-team'],
  teamNames: ['acme'],
}

describe('normalizing text', () => {
  it('makes addresses, the element, the webhook and the client id placeholders, longest value first', () => {
    expect(normalizeText('see https://acme.eu-1.celonis.cloud/acme-coll/x and https://login.acme.eu-1.celonis.cloud/oauth2/token', TEAM)).toBe('see {base_url}/{collection}/x and {auth_url}/oauth2/token')
    expect(normalizeText('POST https://acme.eu-1.celonis.cloud/hooks/9f2c for client "nightly-ci"', TEAM)).toBe('POST {base_url}{webhook} for client "{client_id}"')
    expect(normalizeText('host acme.eu-1.celonis.cloud', TEAM)).toBe('host {host}')
  })

  it('replaces an element part or a team name only where it stands as a whole word', () => {
    expect(normalizeText('view default, the defaults, acme and acme-coll-2', TEAM)).toBe('view {view}, the defaults, {team} and acme-coll-2')
  })

  it('makes GUIDs, ISO 8601 times and JWTs placeholders', () => {
    const jwt = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl'
    expect(normalizeText("Element '0F8FAD5B-D9CB-469F-A165-70867728950E' at 2026-11-27T13:18:58.175Z, 2019-05-22T15:57:46.8643061; token " + jwt, TEAM)).toBe(
      "Element '{uuid}' at {time}, {time}; token {jwt}",
    )
  })

  it('hides every credential value, wherever it stands', () => {
    const text = normalizeText('secret=s3cr3t-of-the-team; key xapi-key-of-the-teamx', TEAM)
    expect(text).toBe('secret=[secret]; key x[secret]x')
  })

  it("applies a probe's own rules last, on the normalized text", () => {
    const rules = [{ find: 'for \\d+ parameter\\(s\\)', as: 'for {n} parameter(s)' }, { find: "(Missing value of required parameter '[^']*'\\.\\s*)+", as: "Missing value of required parameter '{name}'." }]
    const team = "Validation failed for 2 parameter(s). Missing value of required parameter 'id'. Missing value of required parameter 'total'."
    const svcMock = "Validation failed for 1 parameter(s). Missing value of required parameter 'orderId'."
    expect(normalizeText(team, TEAM, rules)).toBe(normalizeText(svcMock, TEAM, rules))
  })
})

describe('normalizing JSON and headers', () => {
  it('hides the value of a member whose name says it holds a secret', () => {
    expect(normalizeJson({ access_token: 'opaque', nested: [{ refresh_token: 'x', name: 'acme' }], expires_in: 899 }, TEAM)).toEqual({
      access_token: '[secret]',
      nested: [{ refresh_token: '[secret]', name: '{team}' }],
      expires_in: 899,
    })
  })

  it('keeps a challenge by scheme and parameter names, numbers of the rate-limit headers as {n}, a Location normalized', () => {
    expect(normalizeHeader('www-authenticate', 'Basic realm="oauth2/token", charset="UTF-8"', TEAM)).toBe('Basic realm, charset')
    expect(normalizeHeader('www-authenticate', 'bearer', TEAM)).toBe('Bearer')
    expect(normalizeHeader('www-authenticate', 'Bearer realm="x", error="invalid_token", Basic realm="y"', TEAM)).toBe('Bearer realm, error; Basic realm')
    expect(normalizeHeader('x-ratelimit-reset', '17', TEAM)).toBe('{n}')
    expect(normalizeHeader('retry-after', '120', TEAM)).toBe('{n}')
    expect(normalizeHeader('location', 'https://acme.eu-1.celonis.cloud/login?next=/acme-coll', TEAM)).toBe('{base_url}/login?next=/{collection}')
  })
})

describe('normalizing an answer', () => {
  const raw = (status: number, contentType: string, body: string, headers: Record<string, string> = {}): Parameters<typeof normalizeAnswer>[0] => ({
    status,
    headers: { 'content-type': contentType, date: 'Fri, 27 Nov 2026 13:18:58 GMT', ...headers },
    body: Buffer.from(body),
  })

  it('keeps only the shape of a success body: no value of the team survives', () => {
    const answer = normalizeAnswer(raw(200, 'application/json; charset=utf-8', JSON.stringify({ access_token: 's3cr3t-of-the-team', email: 'alice@acme.test', n: 1, list: [{ a: null }] })), TEAM)
    expect(JSON.stringify(answer)).not.toMatch(/alice|s3cr3t/)
    expect(answer).toEqual({
      status: 200,
      contentType: 'application/json',
      headers: {},
      body: { kind: 'shape', shape: { kinds: ['object'], members: { access_token: { kinds: ['string'] }, email: { kinds: ['string'] }, n: { kinds: ['number'] }, list: { kinds: ['array'], items: { kinds: ['object'], members: { a: { kinds: ['null'] } } } } } } },
    })
  })

  it('keeps an error body normalized, the documented headers only, and reads an HTML page by its title', () => {
    const error = normalizeAnswer(raw(401, 'application/json', '{"error":"invalid_client","error_description":"client nightly-ci"}', { 'www-authenticate': 'Basic realm="x"', 'set-cookie': 'session=1' }), TEAM)
    expect(error).toMatchObject({ status: 401, headers: { 'www-authenticate': 'Basic realm' }, body: { kind: 'json', value: { error: 'invalid_client', error_description: 'client {client_id}' } } })
    expect(Object.keys(error.headers)).toEqual(['www-authenticate'])
    expect(normalizeAnswer(raw(200, 'text/html', '<!doctype html><title>\n Sign in to acme </title>'), TEAM).body).toEqual({ kind: 'html', title: 'Sign in to {team}' })
    expect(normalizeAnswer(raw(400, 'text/plain; charset=utf-8', 'Queue is full.'), TEAM).body).toEqual({ kind: 'text', text: 'Queue is full.' })
    expect(normalizeAnswer(raw(200, 'application/json', '{not json'), TEAM).body).toEqual({ kind: 'text', text: '{not json' })
    expect(normalizeAnswer(raw(204, '', ''), TEAM).body).toEqual({ kind: 'empty' })
  })
})
