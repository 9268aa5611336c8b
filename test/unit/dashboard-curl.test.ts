/**
 * The dashboard's copy-as-curl (dashboard/curl.js, plain JavaScript with no DOM, so it runs here):
 * the same method, URL, headers and body as the journal entry, one option per line, credentials
 * and secret fields as placeholders, shell quoting that survives quotes in a body.
 */
import { describe, expect, it } from 'vitest'
import type { JournalEntry } from '../../src/index.js'

type ToCurl = (entry: JournalEntry) => { command: string; bodyMissing: boolean }
const modulePath = '../../dashboard/curl.js'
const { toCurl } = (await import(modulePath)) as { toCurl: ToCurl }

function entry(fields: Partial<JournalEntry> & { headers?: Record<string, string>; bodyText?: string; body?: unknown }): JournalEntry {
  const { headers = {}, bodyText, body, ...rest } = fields
  return {
    seq: 1,
    time: '2026-01-01T00:00:00.000Z',
    route: 'auth.token',
    method: 'POST',
    origin: 'http://127.0.0.1:4010',
    path: '/oauth2/token',
    status: 200,
    identity: null,
    scenarios: [],
    durationMs: 0,
    transport: 'server',
    request: { headers, ...(bodyText === undefined ? {} : { bodyText }), ...(body === undefined ? {} : { body }) },
    response: { headers: {} },
    ...rest,
  }
}

describe('copy as curl', () => {
  it('writes a form request with Basic credentials as a placeholder, and leaves out what curl sets itself', () => {
    const { command, bodyMissing } = toCurl(
      entry({
        headers: { authorization: 'Basic [redacted]', 'content-type': 'application/x-www-form-urlencoded', host: '127.0.0.1:4010', 'content-length': '29', 'user-agent': 'node' },
        bodyText: 'grant_type=client_credentials&client_secret=%5Bredacted%5D',
      }),
    )
    expect(command).toBe(
      [
        'curl -X POST http://127.0.0.1:4010/oauth2/token',
        "-H 'authorization: Basic <base64 of client_id:client_secret>'",
        "-H 'content-type: application/x-www-form-urlencoded'",
        "--data-raw 'grant_type=client_credentials&client_secret=<client_secret>'",
      ].join(' \\\n  '),
    )
    expect(bodyMissing).toBe(false)
  })

  it('puts placeholders in JSON and in the query string, and quotes a body with a single quote', () => {
    const { command } = toCurl(
      entry({
        method: 'POST',
        path: '/__svc-mock/oauth-clients?code=%5Bredacted%5D',
        headers: { 'content-type': 'application/json', authorization: 'Bearer [redacted]' },
        bodyText: `{"name":"O'Brien","clientSecret":"[redacted]"}`,
      }),
    )
    expect(command).toContain("curl -X POST 'http://127.0.0.1:4010/__svc-mock/oauth-clients?code=<code>'")
    expect(command).toContain("-H 'authorization: Bearer <credentials>'")
    expect(command).toContain(`--data-raw '{"name":"O'\\''Brien","clientSecret":"<clientSecret>"}'`)
  })

  it('uses --head for HEAD, nothing for GET, and says when the body was not kept', () => {
    expect(toCurl(entry({ method: 'GET', path: '/hooks/orders?x=1' })).command).toBe("curl 'http://127.0.0.1:4010/hooks/orders?x=1'")
    expect(toCurl(entry({ method: 'HEAD', path: '/a' })).command).toBe('curl --head http://127.0.0.1:4010/a')
    expect(toCurl(entry({ path: '/hooks/uploads', headers: { 'content-type': 'multipart/form-data; boundary=x', 'content-length': '900' } })).bodyMissing).toBe(true)
  })
})
