// Bench child: a bare node:http server answering one fixed response (status, headers, body bytes)
// that the parent sends over IPC: the ceiling svc-mock's requests/s is compared with.
// Started without an IPC channel (the start-up baseline) it answers a small JSON body and prints
// a banner like svc-mock's: `bare node:http listening on http://127.0.0.1:PORT`.
import { createServer } from 'node:http'
import { answerIpc } from './common.js'

let status = 200
let body = Buffer.from('{"ok":true}')
let headers = { 'content-type': 'application/json; charset=utf-8', 'content-length': String(body.length) }

const server = createServer((req, res) => {
  // Drain any request body, then answer the same bytes every time.
  req.resume()
  res.writeHead(status, headers)
  res.end(body)
})
server.keepAliveTimeout = 65_000

if (process.send) {
  answerIpc({
    respond(msg) {
      status = msg.status
      body = Buffer.from(msg.body, 'base64')
      headers = { ...msg.headers, 'content-length': String(body.length) }
      return { bytes: body.length }
    },
  })
  process.on('SIGTERM', () => server.close(() => process.exit(0)))
}
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address()
  if (process.send) process.send({ type: 'listening', port })
  else process.stdout.write(`bare node:http listening on http://127.0.0.1:${port}\n`)
})
if (!process.send) process.on('SIGTERM', () => process.exit(0))
