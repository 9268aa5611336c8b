/**
 * Running a CommonJS file of the package with a V8 code cache kept between processes.
 *
 * A good part of what a fresh process pays for svc-mock is V8 compiling its code: the top level of
 * every module, then each function the first time it runs. Node.js keeps none of that between
 * processes for ES modules unless the application turns its compile cache on (Node.js >= 22.1,
 * process-wide), so the package ships its code a second time as CommonJS files (dist/core.cjs for
 * the library, dist/cli.cjs for the command), compiles them through node:vm and keeps V8's cached
 * data in the system's temporary folder, where Node.js keeps its own:
 * `<tmp>/svc-mock-compile-cache-<uid>/<name>-<digest of path and content>-<node version>-<arch>.bin`.
 *
 * - The cache is written once the code has done its first piece of work (`keep()`), so it holds
 *   the functions a start needed as well as the top level; and only when there was none or V8
 *   refused it (another Node.js, other V8 flags). Written to a temporary name, then renamed: a
 *   concurrent start never reads half a file.
 * - The file's path and content digest name the entry: V8 itself checks only the source's length
 *   (`npm pack` gives every file the same modification time), and it keeps the path the code was
 *   compiled from, which error stacks show.
 * - Only this user's folder and files are read or written (compiled code someone else planted in a
 *   shared temporary folder would run as this user); the newest four caches of each name are kept.
 * - `NODE_DISABLE_COMPILE_CACHE=1` (Node's own switch) turns it off. Any failure to read or write
 *   the cache costs only the time it would have saved.
 */
import { isAscii } from 'node:buffer'
import { createHash } from 'node:crypto'
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import module from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import vm from 'node:vm'

/** A CommonJS file loaded through `loadWithCodeCache`. */
export interface CachedLoad<T> {
  /** What the file assigned to `module.exports`. */
  readonly exports: T
  /** Whether V8 took compiled code from an earlier run. */
  readonly fromCache: boolean
  /** Keeps V8's compiled code for later runs, once (a no-op when the cache was used or is off). */
  readonly keep: () => void
}

/** Whether `NODE_DISABLE_COMPILE_CACHE` turns compile caches off in this process. */
export function codeCacheDisabled(): boolean {
  return Boolean(process.env.NODE_DISABLE_COMPILE_CACHE)
}

/**
 * Runs a CommonJS file as `require()` would, compiled with the V8 code cache an earlier run kept
 * for this very file (named `name`), if any.
 */
export function loadWithCodeCache<T>(file: string, name: string): CachedLoad<T> {
  const bytes = readFileSync(file)
  // The build keeps these files ASCII, which reads as one-byte text at once (decoding a megabyte of
  // UTF-8 costs a few milliseconds).
  const source = isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8')
  const off = codeCacheDisabled()
  const dir = join(tmpdir(), `svc-mock-compile-cache-${typeof process.getuid === 'function' ? process.getuid() : 'user'}`)
  // The file's path is part of the name too: V8 keeps the path the code was first compiled from
  // in its cache, and error stacks would name another install's copy of the same file.
  const digest = createHash('sha1').update(file).update('\0').update(bytes).digest('hex').slice(0, 16)
  const cacheFile = off ? '' : join(dir, `${name}-${digest}-${process.version}-${process.arch}.bin`)
  let cachedData: Buffer | undefined
  if (!off) {
    try {
      if (ownedByUs(dir) && ownedByUs(cacheFile)) cachedData = readFileSync(cacheFile)
    } catch {
      // none yet
    }
  }
  const script = new vm.Script(module.wrap(source), { filename: file, ...(cachedData === undefined ? {} : { cachedData }) })
  const holder = { exports: {} as T }
  const wrapper = script.runInThisContext() as (exports: T, require: NodeJS.Require, module: { exports: T }, filename: string, dirname: string) => void
  wrapper(holder.exports, module.createRequire(file), holder, file, dirname(file))
  const fromCache = cachedData !== undefined && script.cachedDataRejected !== true
  let kept = off || fromCache
  const keep = (): void => {
    if (kept) return
    kept = true
    setImmediate(() => {
      try {
        mkdirSync(dir, { recursive: true, mode: 0o700 })
        if (!ownedByUs(dir)) return
        const partial = `${cacheFile}.${process.pid}`
        writeFileSync(partial, script.createCachedData())
        renameSync(partial, cacheFile)
        pruneOldCaches(dir, name, cacheFile)
      } catch {
        // a read-only or full temporary folder: run without the cache
      }
    })
  }
  return { exports: holder.exports, fromCache, keep }
}

/**
 * Only this user's own cache is read or written: compiled code from a folder or file someone else
 * could have put in a shared temporary folder would run as this user.
 */
function ownedByUs(path: string): boolean {
  if (typeof process.getuid !== 'function') return true
  const { uid, mode } = statSync(path)
  return uid === process.getuid() && (mode & 0o022) === 0
}

/** Keeps the newest few caches of one name (each build of svc-mock writes its own): the folder does not fill up with old ones. */
function pruneOldCaches(dir: string, name: string, keep: string): void {
  const others = readdirSync(dir)
    .filter((file) => file.startsWith(`${name}-`) && file.endsWith('.bin'))
    .map((file) => join(dir, file))
    .filter((path) => path !== keep)
    .map((path) => ({ path, mtimeMs: statSync(path).mtimeMs }))
    .sort((a, b) => b.mtimeMs - a.mtimeMs)
  for (const { path } of others.slice(3)) rmSync(path, { force: true })
}
