#!/usr/bin/env node
// The svc-mock command: runs the built dist/cli.js (`npm install` builds it through `prepare`).
// Where Node.js can keep compiled code between runs (>= 22.1) it does so, unless
// NODE_DISABLE_COMPILE_CACHE says not to, which Node itself honours.
import module from 'node:module'

module.enableCompileCache?.()
let cli
try {
  cli = await import('../dist/cli.js')
} catch (error) {
  if (error?.code === 'ERR_MODULE_NOT_FOUND' && String(error.message).includes('dist')) {
    process.stderr.write('svc-mock is not built yet: run `npm install` (or `npm run build`) in the svc-mock folder first.\n')
    process.exit(1)
  }
  throw error
}
const code = await cli.main(process.argv.slice(2), cli.processIo)
process.exitCode = code
// Once the work is done nothing may keep svc-mock alive (exec must never leave a server behind):
// exit when the event loop drains, or at the latest after a short grace period.
setTimeout(() => process.exit(code), 2000).unref()
