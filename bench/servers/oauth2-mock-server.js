// Bench child for bench/compare.js: oauth2-mock-server (npm) signing with one algorithm, on
// 127.0.0.1 and a free port: `node bench/servers/oauth2-mock-server.js ALG`. Its key is made
// before it listens (svc-mock's bench child makes its own before the first timed request too).
// Prints `oauth2-mock-server listening on http://127.0.0.1:PORT`; SIGTERM ends it.
import { OAuth2Server } from 'oauth2-mock-server'

const alg = process.argv[2] ?? 'RS256'
const server = new OAuth2Server()
await server.issuer.keys.generate(alg)
await server.start(0, '127.0.0.1')
process.stdout.write(`oauth2-mock-server listening on http://127.0.0.1:${server.address().port}\n`)
process.once('SIGTERM', () => {
  server.stop().then(() => process.exit(0))
})
