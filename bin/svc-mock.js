#!/usr/bin/env node
// The svc-mock command. Runs the compiled JavaScript in dist/ (built by `npm install` through the
// `prepare` script), so start-up does not pay for a TypeScript loader.
import module from 'node:module'

// Node.js >= 22.1 keeps the compiled bundle on disk between runs (about a third of start-up is
// compiling it); older Node.js versions have no such cache and skip this.
module.enableCompileCache?.()

let cli
try {
  cli = await import('../dist/cli.js')
} catch (error) {
  if (error && error.code === 'ERR_MODULE_NOT_FOUND' && String(error.message).includes('dist')) {
    process.stderr.write('svc-mock is not built yet: run `npm install` (or `npm run build`) in the svc-mock folder first.\n')
    process.exit(1)
  }
  throw error
}
const code = await cli.main(process.argv.slice(2))
process.exitCode = code
// Once the work is done nothing may keep svc-mock alive (exec must never leave a server behind):
// exit when the event loop drains, or at the latest after a short grace period.
setTimeout(() => process.exit(code), 2000).unref()
