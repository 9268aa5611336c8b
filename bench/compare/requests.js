// The three requests every socket row of bench/compare.js sends (the versions GET, the webhook
// POST, the client-credentials token), and how one is sent and its answer compared: one request
// without keep-alive keeping the whole answer, and a byte-for-byte check with each server's own
// origin set aside.
import http from 'node:http'

export const VERSIONS_PATH =
  '/acme-collection/acme-tenant/_api/rest/facets/processes/views/default/elements/0f8fad5b-d9cb-469f-a165-70867728950e/versions'
export const VERSIONS_HEADERS = { authorization: 'AppKey svcmock-app-key' }
export const WEBHOOK_PATH = '/hooks/orders'
export const WEBHOOK_BODY = '{"orderId":"A-1"}'
export const WEBHOOK_HEADERS = { 'content-type': 'application/json' }
export const TOKEN_BODY = 'grant_type=client_credentials&scope=audit.log%3Aread'
export const TOKEN_HEADERS = {
  authorization: `Basic ${Buffer.from('ci-client:ci-secret').toString('base64')}`,
  'content-type': 'application/x-www-form-urlencoded',
}

/** One request without keep-alive; keeps the whole answer. Resolves { status, headers, body } or { status: 0, error }. */
export function request(url, { method = 'GET', headers = {}, body, timeoutMs = 5000 } = {}) {
  return new Promise((resolve) => {
    const req = http.request(url, { method, headers, agent: false, timeout: timeoutMs }, (res) => {
      const chunks = []
      res.on('data', (c) => chunks.push(c))
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }))
      res.on('error', (error) => resolve({ status: 0, error: error.message }))
    })
    req.on('timeout', () => req.destroy(new Error('timeout')))
    req.on('error', (error) => resolve({ status: 0, error: error.code ?? error.message }))
    req.end(body)
  })
}

/** The same bytes, once each server's own origin (svc-mock writes it into links) is set aside. */
export function sameBytes(a, b) {
  const strip = (buf) => buf.toString('latin1').replace(/http:\/\/127\.0\.0\.1:\d+/g, 'http://127.0.0.1:PORT')
  return a.length === b.length && strip(a) === strip(b)
}
