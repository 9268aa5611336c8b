// Bench child: the built svc-mock server (dist/server.js) on 127.0.0.1, a free port, with TEAMS
// teams made at start (default 0). Prints {"port": N} once it listens; SIGTERM closes it.
import { startServer } from '../../dist/server.js'

const server = await startServer({ port: 0, host: '127.0.0.1', log: 'silent', teams: Number(process.env.TEAMS ?? 0) })
process.on('SIGTERM', () => server.close().then(() => process.exit(0)))
process.stdout.write(`${JSON.stringify({ port: server.port })}\n`)
