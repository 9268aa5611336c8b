// Bench child: the built svc-mock server (dist/server.js) on 127.0.0.1, a free port.
import { startServer } from '../../dist/server.js'
import { answerIpc } from './common.js'

const server = await startServer({ port: 0, host: '127.0.0.1', log: 'silent' })
answerIpc()
process.on('SIGTERM', () => server.close().then(() => process.exit(0)))
process.send({ type: 'listening', port: server.port })
