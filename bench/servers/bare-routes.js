// Bench child for bench/compare.js: a bare node:http server answering fixed responses (status,
// headers, body bytes) per "METHOD path" from a JSON file, the floor svc-mock is compared with:
//   node bench/servers/bare-routes.js ROUTES.json
// ROUTES.json: { "GET /path?query": { "status": 200, "headers": {...}, "body": "<base64>" }, ... }
// It reads each request body to its end before answering (as a webhook receiver must), answers
// 404 to anything else, listens on 127.0.0.1 on a free port and prints
// `bare node:http listening on http://127.0.0.1:PORT`. SIGTERM ends it.
import { readFileSync } from 'node:fs'
import { createServer } from 'node:http'

const routes = new Map()
for (const [key, r] of Object.entries(JSON.parse(readFileSync(process.argv[2], 'utf8')))) {
  const body = Buffer.from(r.body, 'base64')
  routes.set(key, { status: r.status, headers: { ...r.headers, 'content-length': String(body.length) }, body })
}
const notFound = { status: 404, headers: { 'content-type': 'text/plain', 'content-length': '9' }, body: Buffer.from('Not Found') }

const server = createServer((req, res) => {
  const answer = routes.get(`${req.method} ${req.url}`) ?? notFound
  req.on('data', () => {})
  req.on('end', () => {
    res.writeHead(answer.status, answer.headers)
    res.end(answer.body)
  })
})
server.keepAliveTimeout = 65_000
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`bare node:http listening on http://127.0.0.1:${server.address().port}\n`)
})
process.on('SIGTERM', () => process.exit(0))
