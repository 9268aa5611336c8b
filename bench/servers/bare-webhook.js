// Bench child for bench/compare.js row 6, for information: a bare node:http webhook receiver that
// does by hand the work svc-mock's webhook does for the bench's call, and answers the same bytes.
//   node bench/servers/bare-webhook.js ROUTES.json
// ROUTES.json: bare-routes.js's file; its `POST /hooks/orders` entry is the answer. For that call it
// reads the body to its end, decodes it as UTF-8, parses the JSON (400 if it is not JSON or not an
// object), checks the data structure's one field (`orderId`, a string), and keeps a record of the
// call (the parsed body, the method, URL and headers, the time): the last 10,000, as svc-mock keeps
// executions (its journal keeps 1,000 more records of its own, which this server does not). It
// does no routing beyond one Map lookup, no scenarios, no clock and no redaction: what the bench
// compares svc-mock with here is a receiver written for this one call. Anything else is 404.
import { readFileSync } from 'node:fs'
import { createServer } from 'node:http'

const WEBHOOK = 'POST /hooks/orders'
const KEPT = 10_000
const routes = JSON.parse(readFileSync(process.argv[2], 'utf8'))
const r = routes[WEBHOOK]
if (!r) throw new Error(`${process.argv[2]} has no "${WEBHOOK}" answer`)
const body = Buffer.from(r.body, 'base64')
const headers = { ...r.headers, 'content-length': String(body.length) }
const refuse = (res, message) => {
  res.writeHead(400, { 'content-type': 'text/plain; charset=utf-8' })
  res.end(message)
}

const kept = []
let seq = 0
const server = createServer((req, res) => {
  if (`${req.method} ${req.url}` !== WEBHOOK) {
    req.resume()
    res.writeHead(404, { 'content-type': 'text/plain' })
    res.end('Not Found')
    return
  }
  const chunks = []
  req.on('data', (chunk) => chunks.push(chunk))
  req.on('end', () => {
    let parsed
    try {
      parsed = JSON.parse(Buffer.concat(chunks).toString('utf8'))
    } catch {
      refuse(res, 'The JSON body is not valid JSON.')
      return
    }
    if (typeof parsed !== 'object' || parsed === null || typeof parsed.orderId !== 'string') {
      refuse(res, 'Validation failed for 1 parameter(s).')
      return
    }
    kept.push({ seq: ++seq, method: req.method, url: req.url, headers: req.rawHeaders, bundle: parsed, receivedAt: Date.now() })
    if (kept.length > KEPT) kept.shift()
    res.writeHead(r.status, headers)
    res.end(body)
  })
})
server.keepAliveTimeout = 65_000
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`bare webhook receiver listening on http://127.0.0.1:${server.address().port}\n`)
})
process.on('SIGTERM', () => process.exit(0))
