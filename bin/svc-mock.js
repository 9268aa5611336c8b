#!/usr/bin/env node
// The svc-mock command. Runs the compiled JavaScript in dist/ (built by `npm install` through the
// `prepare` script), so start-up does not pay for a TypeScript loader.
//
// About a fifth of a cold start is V8 compiling the bundle. Node.js >= 22.1 keeps that work on disk
// between runs for ES modules (module.enableCompileCache). Older versions cannot, so there the
// command runs dist/cli.cjs (the same code as one CommonJS file) compiled through node:vm with a V8
// code cache of its own (src/code-cache.ts), kept where Node.js keeps its own (the system's temporary
// folder). NODE_DISABLE_COMPILE_CACHE=1 turns either cache off, as it does for Node's.
import module from 'node:module'
import { fileURLToPath } from 'node:url'

const cacheOff = Boolean(process.env.NODE_DISABLE_COMPILE_CACHE)
let cli
let keepCodeCache = () => {}
try {
  if (module.enableCompileCache || cacheOff) {
    if (!cacheOff) module.enableCompileCache()
    cli = await import('../dist/cli.js')
  } else {
    const { loadWithCodeCache } = await import('../dist/code-cache.js')
    const loaded = loadWithCodeCache(fileURLToPath(new URL('../dist/cli.cjs', import.meta.url)), 'cli')
    cli = loaded.exports
    keepCodeCache = loaded.keep
  }
} catch (error) {
  if (error && (error.code === 'ERR_MODULE_NOT_FOUND' || error.code === 'ENOENT') && String(error.message).includes('dist')) {
    process.stderr.write('svc-mock is not built yet: run `npm install` (or `npm run build`) in the svc-mock folder first.\n')
    process.exit(1)
  }
  throw error
}
const code = await cli.main(process.argv.slice(2), { ...cli.processIo, listening: keepCodeCache })
process.exitCode = code
// Once the work is done nothing may keep svc-mock alive (exec must never leave a server behind):
// exit when the event loop drains, or at the latest after a short grace period.
setTimeout(() => process.exit(code), 2000).unref()
