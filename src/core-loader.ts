/**
 * Where every entry point of the package (dist/index.js, server.js, msw.js, vitest.js) takes
 * svc-mock from: one copy per process, whichever entry points it imports (src/core.ts).
 *
 * In a test runner every test file is often a fresh process, and compiling svc-mock's code was
 * about half of what such a file paid for it. So the core is dist/core.cjs, compiled through
 * node:vm with a V8 code cache kept between processes (src/code-cache.ts), written once the
 * first emulator has answered its first request. Where that cannot work the same code runs as ES
 * modules (dist/core.js): with `NODE_DISABLE_COMPILE_CACHE=1`, and when this module is evaluated
 * inside a `node:vm` context of its own (vitest's vmThreads and vmForks pools, jest), where code
 * compiled for Node's main context would build its objects from another realm's classes.
 */
import { fileURLToPath } from 'node:url'
import vm from 'node:vm'
import { codeCacheDisabled, loadWithCodeCache } from './code-cache.js'
import type { MswAdapter } from './adapters/in-process.js'

type Core = typeof import('./core.js')

/** Which form of the core this process runs (for tests and diagnostics). */
export type CoreForm = 'commonjs, compiled code from an earlier run' | 'commonjs' | 'es modules'

async function load(): Promise<{ core: Core; form: CoreForm }> {
  if (!codeCacheDisabled() && vm.runInThisContext('globalThis') === globalThis) {
    const loaded = loadWithCodeCache<Core>(fileURLToPath(new URL('./core.cjs', import.meta.url)), 'core')
    const core = loaded.exports
    core.afterFirstAnswer(loaded.keep)
    // The msw adapter is an ES module of its own (it imports the consumer's msw); the specifier is
    // the built file beside this one.
    const adapter = './msw.js'
    core.mswAdapterLoader.load = async () => (await import(adapter)) as MswAdapter
    return { core, form: loaded.fromCache ? 'commonjs, compiled code from an earlier run' : 'commonjs' }
  }
  return { core: await import('./core.js'), form: 'es modules' }
}

const loaded = await load()

/** The one copy of svc-mock in this process. */
export const core: Core = loaded.core

/** How it was loaded. */
export const coreForm: CoreForm = loaded.form
