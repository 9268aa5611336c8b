/**
 * The built package as a consumer imports it, by its names (`svc-mock`, `svc-mock/msw`,
 * `svc-mock/server`, `svc-mock/vitest`), each case in a fresh Node.js process: serving through msw
 * loads no GraphQL support, a test using only the built-in APIs loads none of what it does not use
 * (TLS, route files, resources, the proxy and the recorder) until it uses it, and the entry points
 * share one copy of svc-mock, so an error thrown through one is an instance of the class another
 * exports. (`npm test` builds first.)
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'

const root = resolve(import.meta.dirname, '../..')
const tmp = mkdtempSync(join(tmpdir(), 'svc-mock-entries-'))

afterAll(() => rmSync(tmp, { recursive: true, force: true }))

/** Runs `script` as an ES module in a fresh process inside the package (so `svc-mock` names it), and parses what it prints. */
function runFresh(script: string): unknown {
  return JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', cwd: root, stdio: ['ignore', 'pipe', 'pipe'] }))
}

/** A resolve hook (it runs on the loader's thread) that appends every module the process resolves to `log`. */
function resolveLogger(log: string): string {
  return `import { appendFileSync } from 'node:fs'
    export async function resolve(specifier, context, next) {
      const resolved = await next(specifier, context)
      appendFileSync(${JSON.stringify(log)}, resolved.url + String.fromCharCode(10))
      return resolved
    }`
}

describe('the package entry points', () => {
  it("serve through msw without loading msw's GraphQL support (msw 2's main entry loads the graphql package)", () => {
    const log = join(tmp, 'resolved.txt')
    const hook = resolveLogger(log)
    const result = runFresh(`
      import { register } from 'node:module'
      register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(hook)}))
      const { setupServer } = await import('msw/node')
      const { createEmulator } = await import('svc-mock')
      const { EmulatorHandler } = await import('svc-mock/msw')
      const emu = await createEmulator({ clock: 'manual' })
      const server = setupServer(...emu.handlers)
      server.listen({ onUnhandledRequest: 'error' })
      const res = await fetch(emu.urls.base + '/__svc-mock/health')
      server.close()
      process.stdout.write(JSON.stringify({ status: res.status, handlers: emu.handlers.every((h) => h instanceof EmulatorHandler) }))
    `)
    expect(result).toEqual({ status: 200, handlers: true })
    const loaded = readFileSync(log, 'utf8').split('\n')
    expect(loaded.some((url) => url.includes('/node_modules/msw/'))).toBe(true)
    expect(loaded.filter((url) => url.includes('/node_modules/graphql/'))).toEqual([])
  })

  it('load TLS, route files, resources, the proxy and the recorder only once a test uses them', () => {
    const log = join(tmp, 'loaded.txt')
    const hook = `import { appendFileSync } from 'node:fs'
      export async function load(url, context, next) {
        appendFileSync(${JSON.stringify(log)}, url + String.fromCharCode(10))
        return next(url, context)
      }`
    const script = (then: string): string => `
      import { register } from 'node:module'
      import { appendFileSync } from 'node:fs'
      register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(hook)}))
      const { setupServer } = await import('msw/node')
      const { createEmulator } = await import('svc-mock')
      const emu = await createEmulator({ clock: 'manual' })
      const server = setupServer(...emu.handlers)
      server.listen({ onUnhandledRequest: 'error' })
      const auth = { authorization: 'AppKey svcmock-app-key' }
      const statuses = [(await fetch(emu.urls.base + '/__svc-mock/health')).status, (await fetch(emu.urls.webhook + '/hooks/orders', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"orderId":"A-1"}' })).status]
      appendFileSync(${JSON.stringify(log)}, 'BUILT-IN APIS USED' + String.fromCharCode(10))
      ${then}
      server.close()
      process.stdout.write(JSON.stringify(statuses))
    `
    /** The source files (from the build's source maps) and packages the process loaded before and after the marker. */
    const loaded = (): { before: string[]; after: string[] } => {
      const urls = readFileSync(log, 'utf8').split('\n').filter(Boolean)
      const marker = urls.indexOf('BUILT-IN APIS USED')
      const sources = (part: string[]): string[] =>
        part.flatMap((url) => {
          if (!url.startsWith('file:')) return []
          const file = fileURLToPath(url)
          if (!file.startsWith(join(root, 'dist'))) return [file.slice(file.lastIndexOf('node_modules/'))]
          return (JSON.parse(readFileSync(`${file}.map`, 'utf8')) as { sources: string[] }).sources.map((source) => source.replace(/^(\.\.\/)+/, ''))
        })
      return { before: sources(urls.slice(0, marker)), after: sources(urls.slice(marker + 1)) }
    }
    const unused = /src\/tls\/(?!errors)|src\/user-routes\/(declare|template|placeholders|answer|resources|resource-routes|proxy|recorder|record-[a-z]+)\.ts|@msw\/data|@peculiar|reflect-metadata/
    writeFileSync(log, '')
    expect(runFresh(script(''))).toEqual([200, 200])
    const idle = loaded()
    expect(idle.before.some((source) => source.startsWith('src/kernel/'))).toBe(true)
    expect(idle.before.filter((source) => unused.test(source))).toEqual([])

    writeFileSync(log, '')
    const routes = { resources: [{ name: 'pools', path: '/integration/api/pools', records: [{ id: 'p-1' }] }] }
    runFresh(script(`statuses.push((await emu.userRoutes.add(${JSON.stringify(routes)})).length, (await fetch(emu.urls.base + '/integration/api/pools/p-1', { headers: auth })).status)`))
    const used = loaded()
    expect(used.after.filter((source) => unused.test(source))).toEqual(expect.arrayContaining(['src/user-routes/declare.ts', 'src/user-routes/resources.ts']))
  })

  it('share one class per error and one msw handler class, whichever entry point a value came from', () => {
    const result = runFresh(`
      const entries = { main: await import('svc-mock'), msw: await import('svc-mock/msw'), server: await import('svc-mock/server'), vitest: await import('svc-mock/vitest') }
      const { main, msw, server } = entries
      const byName = new Map()
      for (const entry of Object.values(entries)) for (const [name, value] of Object.entries(entry)) byName.set(name, [...(byName.get(name) ?? []), value])
      const shared = [...byName].filter(([, values]) => values.length > 1)
      const emu = await main.createEmulator({ clock: 'manual' })
      let unknownScenario
      try { emu.scenarios.use('no-such-scenario') } catch (error) { unknownScenario = error }
      const first = await server.startServer({ port: 0, clock: 'manual', log: 'silent' })
      let portInUse
      try { await server.startServer({ port: first.port, clock: 'manual', log: 'silent' }) } catch (error) { portInUse = error }
      await first.close()
      process.stdout.write(JSON.stringify({
        sharedNames: shared.map(([name]) => name).sort(),
        sameValues: shared.every(([, values]) => values.every((value) => value === values[0])),
        unknownScenario: unknownScenario instanceof main.UnknownScenarioError && unknownScenario instanceof main.SvcMockError,
        portInUse: portInUse instanceof main.PortInUseError && portInUse instanceof main.SvcMockError,
        handlers: emu.handlers.length > 0 && emu.handlers.every((h) => h instanceof msw.EmulatorHandler),
      }))
    `)
    expect(result).toEqual({ sharedNames: ['MswMissingError', 'PortInUseError'], sameValues: true, unknownScenario: true, portInUse: true, handlers: true })
  })

  it('loads nothing of saved states until one is exported or imported (the reader, the writer and every domain\'s part come with the first)', () => {
    const log = join(tmp, 'resolved-state.txt')
    const hook = resolveLogger(log)
    // The door (kernel/saved.ts: the types and the refusals) is all an emulator loads at start.
    const marks = /^\/\/ src\/(kernel\/saved-state\/|kernel\/saved-store\.ts|(?!kernel\/)[\w-]+\/saved(-bundle)?\.ts)/m
    const savedModules = (): string[] =>
      [...new Set(readFileSync(log, 'utf8').split('\n'))].filter((url) => url.startsWith('file:') && url.includes('/dist/') && marks.test(readFileSync(new URL(url), 'utf8')))
    runFresh(`
      import { register } from 'node:module'
      register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(hook)}))
      const { createEmulator } = await import('svc-mock')
      const emu = await createEmulator({ clock: 'manual' })
      await emu.handle(new Request(emu.urls.base + '/__svc-mock/health'))
      await emu.reset()
      process.stdout.write('{}')
    `)
    expect(savedModules()).toEqual([])
    runFresh(`
      import { register } from 'node:module'
      register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(hook)}))
      const { createEmulator } = await import('svc-mock')
      const emu = await createEmulator({ clock: 'manual' })
      await emu.importState(await emu.exportState())
      process.stdout.write('{}')
    `)
    expect(savedModules().length).toBeGreaterThan(0)
  })
})
