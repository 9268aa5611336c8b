#!/usr/bin/env node
// The svc-mock command. Runs the compiled JavaScript in dist/ (built by `npm install` through the
// `prepare` script), so start-up does not pay for a TypeScript loader.
//
// About a fifth of a cold start is V8 compiling the bundle. Node.js >= 22.1 keeps that work on disk
// between runs for ES modules (module.enableCompileCache). Older versions cannot, so there the
// command runs dist/cli.cjs (the same code as one CommonJS file) compiled through node:vm with a V8
// code cache of its own, kept in the same place Node's cache would be (the system's temporary
// folder). NODE_DISABLE_COMPILE_CACHE=1 turns either cache off, as it does for Node's.
import { isAscii } from 'node:buffer'
import { createHash } from 'node:crypto'
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import module from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import vm from 'node:vm'

const cacheOff = Boolean(process.env.NODE_DISABLE_COMPILE_CACHE)
let cli
let keepCodeCache = () => {}
try {
  if (module.enableCompileCache || cacheOff) {
    if (!cacheOff) module.enableCompileCache()
    cli = await import('../dist/cli.js')
  } else {
    ;({ cli, keepCodeCache } = loadWithCodeCache(fileURLToPath(new URL('../dist/cli.cjs', import.meta.url))))
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

/**
 * Runs a CommonJS file as `require()` would, compiled with the V8 code cache of an earlier run when
 * there is one for this very file (its content digest, and this Node.js, name the cache entry: V8
 * itself checks only the source's length, and `npm pack` gives every file the same modification
 * time). Once the server listens, a missing or refused cache is written (to a temporary name, then
 * renamed, so a concurrent start never reads half a file). Any failure to read or write the cache
 * only costs the time it would have saved.
 */
function loadWithCodeCache(file) {
  const bytes = readFileSync(file)
  // The build keeps the file ASCII, which reads as one-byte text at once (UTF-8 decoding of the
  // whole file costs a few milliseconds).
  const source = isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8')
  const digest = createHash('sha1').update(bytes).digest('hex').slice(0, 16)
  const uid = typeof process.getuid === 'function' ? process.getuid() : 'user'
  const dir = join(tmpdir(), `svc-mock-compile-cache-${uid}`)
  const cacheFile = join(dir, `cli-${digest}-${process.version}-${process.arch}.bin`)
  let cachedData
  try {
    if (ownedByUs(dir) && ownedByUs(cacheFile)) cachedData = readFileSync(cacheFile)
  } catch {
    // none yet
  }
  const script = new vm.Script(module.wrap(source), { filename: file, cachedData })
  const exports = {}
  const holder = { exports }
  script.runInThisContext()(exports, module.createRequire(file), holder, file, join(file, '..'))
  let kept = cachedData !== undefined && !script.cachedDataRejected
  const keepCodeCache = () => {
    if (kept) return
    kept = true
    setImmediate(() => {
      try {
        mkdirSync(dir, { recursive: true, mode: 0o700 })
        if (!ownedByUs(dir)) return
        const partial = `${cacheFile}.${process.pid}`
        writeFileSync(partial, script.createCachedData())
        renameSync(partial, cacheFile)
        pruneOldCaches(dir, cacheFile)
      } catch {
        // a read-only or full temporary folder: run without the cache
      }
    })
  }
  return { cli: holder.exports, keepCodeCache }
}

/**
 * Only this user's own cache is read or written: compiled code from a folder or file someone else
 * could have put in a shared temporary folder would run as this user.
 */
function ownedByUs(path) {
  if (typeof process.getuid !== 'function') return true
  const { uid, mode } = statSync(path)
  return uid === process.getuid() && (mode & 0o022) === 0
}

/** Keeps the newest few caches (each build of svc-mock writes its own): a temporary folder does not fill up with old ones. */
function pruneOldCaches(dir, keep) {
  const others = readdirSync(dir)
    .filter((name) => /^cli-.*\.bin$/.test(name))
    .map((name) => join(dir, name))
    .filter((path) => path !== keep)
    .map((path) => ({ path, mtimeMs: statSync(path).mtimeMs }))
    .sort((a, b) => b.mtimeMs - a.mtimeMs)
  for (const { path } of others.slice(3)) rmSync(path, { force: true })
}
