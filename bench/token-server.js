// A token server for bench/token.js, in its own process so the load generator does not share its
// CPU: `node bench/token-server.js svc-mock|oauth2-mock-server ALG`. Prints the port when ready,
// stops on SIGTERM. Loopback only.
import { OAuth2Server } from 'oauth2-mock-server'
import { startServer } from '../dist/server.js'

const [kind, alg] = process.argv.slice(2)
let stop
if (kind === 'svc-mock') {
  const server = await startServer({ port: 0, host: '127.0.0.1', log: 'silent', tokenAlgorithm: alg })
  // Make the key before measuring, as the first token request would.
  await server.emulator.oauth.issueToken({ clientId: 'ci-client' })
  process.stdout.write(`${server.port}\n`)
  stop = () => server.close()
} else if (kind === 'oauth2-mock-server') {
  const server = new OAuth2Server()
  await server.issuer.keys.generate(alg)
  await server.start(0, '127.0.0.1')
  process.stdout.write(`${server.address().port}\n`)
  stop = () => server.stop()
} else {
  process.stderr.write(`unknown server kind ${kind}\n`)
  process.exit(2)
}
process.once('SIGTERM', () => {
  stop().then(() => process.exit(0))
})
