/**
 * The built package's entry points (`svc-mock`, `svc-mock/msw`, `svc-mock/server`) share one core
 * (src/core-loader.ts): one class per error and one msw handler class whichever entry a value came
 * from, in both forms of the core. The CommonJS form keeps V8's compiled code for the next process
 * once the first emulator has answered (src/code-cache.ts); the ES-module form keeps nothing.
 * Each case is a fresh Node.js process on the built dist/, with its own temporary folder.
 */
import { execFileSync } from 'node:child_process'
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

const root = resolve(import.meta.dirname, '..')
const dist = (file: string): string => JSON.stringify(join(root, 'dist', file))
const cacheDirIn = (tmp: string): string => join(tmp, `svc-mock-compile-cache-${process.getuid?.() ?? 'user'}`)
const coreCaches = (tmp: string): string[] => (existsSync(cacheDirIn(tmp)) ? readdirSync(cacheDirIn(tmp)).filter((f) => f.startsWith('core-') && f.endsWith('.bin')) : [])

interface Probe {
  form: string
  sameErrorClasses: boolean
  sameServerClasses: boolean
  handlerIsEmulatorHandler: boolean
  thrownIsSvcMockError: boolean
  status: number
}

/** Runs a fresh process that imports every entry point, creates an emulator and (unless told not to) asks it one question. */
function probe(tmp: string, env: Record<string, string> = {}, answer = true): Probe {
  const script = `
    import * as main from ${dist('index.js')}
    import * as msw from ${dist('msw.js')}
    import * as server from ${dist('server.js')}
    import { coreForm } from ${dist('core-loader.js')}
    const emu = await main.createEmulator({ clock: 'manual' })
    let thrown
    try { emu.scenarios.use('no-such-scenario') } catch (error) { thrown = error }
    let status = 0
    if (${answer}) {
      const res = await emu.handle(new Request(emu.urls.base + '/__svc-mock/health'))
      status = res.status
    }
    process.stdout.write(JSON.stringify({
      form: coreForm,
      sameErrorClasses: main.MswMissingError === msw.MswMissingError && main.SvcMockError !== undefined,
      sameServerClasses: main.PortInUseError === server.PortInUseError,
      handlerIsEmulatorHandler: emu.handlers.length > 0 && emu.handlers.every((h) => h instanceof msw.EmulatorHandler),
      thrownIsSvcMockError: thrown instanceof main.SvcMockError && thrown instanceof main.UnknownScenarioError,
      status,
    }))
  `
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
    encoding: 'utf8',
    env: { ...process.env, TMPDIR: tmp, NODE_DISABLE_COMPILE_CACHE: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  return JSON.parse(out) as Probe
}

const oneCopy = { sameErrorClasses: true, sameServerClasses: true, handlerIsEmulatorHandler: true, thrownIsSvcMockError: true }

describe('the package entry points', () => {
  it('share one core: the CommonJS file, compiled code kept after the first answer and used by the next process', () => {
    const tmp = mkdtempSync(join(tmpdir(), 'svc-mock-entries-'))
    expect(probe(tmp)).toEqual({ form: 'commonjs', status: 200, ...oneCopy })
    const [cache] = coreCaches(tmp)
    expect(cache).toMatch(/^core-[0-9a-f]{16}-v[\d.]+-\w+\.bin$/)
    const path = join(cacheDirIn(tmp), cache ?? '')
    const { mtimeMs } = statSync(path)
    expect(probe(tmp)).toEqual({ form: 'commonjs, compiled code from an earlier run', status: 200, ...oneCopy })
    // Used, not written again.
    expect(statSync(path).mtimeMs).toBe(mtimeMs)
  })

  it('keep nothing until an emulator has answered', () => {
    const tmp = mkdtempSync(join(tmpdir(), 'svc-mock-entries-'))
    expect(probe(tmp, {}, false)).toMatchObject({ form: 'commonjs', status: 0 })
    expect(coreCaches(tmp)).toEqual([])
  })

  it('start as usual from a damaged cache, and replace it', () => {
    const tmp = mkdtempSync(join(tmpdir(), 'svc-mock-entries-'))
    probe(tmp)
    const path = join(cacheDirIn(tmp), coreCaches(tmp)[0] ?? '')
    writeFileSync(path, 'not a code cache')
    expect(probe(tmp)).toEqual({ form: 'commonjs', status: 200, ...oneCopy })
    expect(readFileSync(path, 'utf8')).not.toBe('not a code cache')
    expect(probe(tmp).form).toBe('commonjs, compiled code from an earlier run')
  })

  it("keep each install's compiled code apart: an error's stack names the copy that threw it", () => {
    const tmp = mkdtempSync(join(tmpdir(), 'svc-mock-entries-'))
    const copies = ['a', 'b'].map((name) => {
      const dir = mkdtempSync(join(tmpdir(), `svc-mock-copy-${name}-`))
      for (const part of ['package.json', 'dist', 'fixtures', 'scenarios']) cpSync(join(root, part), join(dir, part), { recursive: true })
      symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'), 'dir')
      return dir
    })
    const stackFrom = (dir: string): { form: string; frame: string } => {
      const script = `
        import { createEmulator } from ${JSON.stringify(join(dir, 'dist', 'index.js'))}
        import { coreForm } from ${JSON.stringify(join(dir, 'dist', 'core-loader.js'))}
        const emu = await createEmulator({ clock: 'manual' })
        await emu.handle(new Request(emu.urls.base + '/__svc-mock/health'))
        let frame = ''
        try { await createEmulator({ journalSize: -1 }) } catch (error) { frame = error.stack.split('\\n').find((line) => line.includes('core.cjs')) ?? '' }
        process.stdout.write(JSON.stringify({ form: coreForm, frame }))
      `
      return JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', env: { ...process.env, TMPDIR: tmp, NODE_DISABLE_COMPILE_CACHE: '' } })) as { form: string; frame: string }
    }
    const [a, b] = copies as [string, string]
    expect(stackFrom(a).frame).toContain(join(a, 'dist', 'core.cjs'))
    // The same bytes elsewhere get a cache of their own, and their own path in stacks.
    expect(stackFrom(b)).toMatchObject({ form: 'commonjs', frame: expect.stringContaining(join(b, 'dist', 'core.cjs')) })
    expect(stackFrom(b)).toMatchObject({ form: 'commonjs, compiled code from an earlier run', frame: expect.stringContaining(join(b, 'dist', 'core.cjs')) })
    expect(stackFrom(a)).toMatchObject({ form: 'commonjs, compiled code from an earlier run', frame: expect.stringContaining(join(a, 'dist', 'core.cjs')) })
  })

  it("serve through msw without loading msw's GraphQL support (msw 2's main entry loads the graphql package)", () => {
    const tmp = mkdtempSync(join(tmpdir(), 'svc-mock-entries-'))
    const log = join(tmp, 'resolved.txt')
    // A resolve hook (it runs on the loader's thread) appends every module the process loads to a file.
    const hook = `import { appendFileSync } from 'node:fs'
      export async function resolve(specifier, context, next) {
        const resolved = await next(specifier, context)
        appendFileSync(${JSON.stringify(log)}, resolved.url + String.fromCharCode(10))
        return resolved
      }`
    const script = `
      import { register } from 'node:module'
      register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(hook)}))
      const { setupServer } = await import('msw/node')
      const { createEmulator } = await import(${dist('index.js')})
      const { EmulatorHandler } = await import(${dist('msw.js')})
      const emu = await createEmulator({ clock: 'manual' })
      const server = setupServer(...emu.handlers)
      server.listen({ onUnhandledRequest: 'error' })
      const res = await fetch(emu.urls.base + '/__svc-mock/health')
      server.close()
      process.stdout.write(JSON.stringify({ status: res.status, handlers: emu.handlers.every((h) => h instanceof EmulatorHandler) }))
    `
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', cwd: root, env: { ...process.env, TMPDIR: tmp } })
    expect(JSON.parse(out)).toEqual({ status: 200, handlers: true })
    const loaded = readFileSync(log, 'utf8').split('\n')
    expect(loaded.some((url) => url.includes('/node_modules/msw/'))).toBe(true)
    expect(loaded.filter((url) => url.includes('/node_modules/graphql/'))).toEqual([])
  })

  it('run the ES modules with NODE_DISABLE_COMPILE_CACHE=1, sharing one core there too, and keep nothing', () => {
    const tmp = mkdtempSync(join(tmpdir(), 'svc-mock-entries-'))
    expect(probe(tmp, { NODE_DISABLE_COMPILE_CACHE: '1' })).toEqual({ form: 'es modules', status: 200, ...oneCopy })
    expect(existsSync(cacheDirIn(tmp))).toBe(false)
  })
})
