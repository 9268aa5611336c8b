/**
 * The shape of the house, checked on every run: each domain is entered only through its
 * `index.ts`, the kernel imports nothing outside itself, no module imports itself back through
 * others, and no code line of the kernel names a domain's concepts (a webhook, an OAuth client).
 * Read from the source's own import statements.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../../src')
const DOMAINS = ['auth', 'versions', 'webhooks', 'user-routes', 'control', 'teams'] as const

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? files(path) : path.endsWith('.ts') ? [path] : []
  })
}

interface Import {
  readonly from: string
  readonly to: string
}

/** Every relative import of a source file (static, type-only and dynamic), resolved to a src path. */
function importsOf(file: string): Import[] {
  const text = readFileSync(file, 'utf8')
  const specifiers = [...text.matchAll(/(?:from|import)\s*\(?\s*'(\.[^']+)'/g)].map((m) => m[1] ?? '')
  return specifiers.map((spec) => ({ from: relative(SRC, file), to: relative(SRC, resolve(dirname(file), spec)).replace(/\.js$/, '.ts') }))
}

/** The relative imports of a source file that load a module when it loads: static, not type-only, not import(). */
function staticImportsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8')
  const specifiers = [...text.matchAll(/^(?:(?:import|export)(?!\s+type\b)[^;'(]*?from\s*|import\s*)'(\.[^']+)'/gm)].map((m) => m[1] ?? '')
  return specifiers.map((spec) => relative(SRC, resolve(dirname(file), spec)).replace(/\.js$/, '.ts'))
}

/** Every source file that loads when `entry` loads. */
function loadedWith(entry: string): Set<string> {
  const loaded = new Set<string>()
  const visit = (file: string): void => {
    if (loaded.has(file)) return
    loaded.add(file)
    for (const next of staticImportsOf(join(SRC, file))) visit(next)
  }
  visit(entry)
  return loaded
}

const top = (path: string): string => path.split('/')[0] ?? ''

const all = files(SRC).flatMap(importsOf)

describe('the house', () => {
  it('reads the imports it checks (the check is not vacuous)', () => {
    expect(all.length).toBeGreaterThan(100)
    expect(all.some((i) => i.to === 'auth/index.ts' && top(i.from) === 'webhooks')).toBe(true)
  })

  it.each(DOMAINS)('%s is entered only through its index', (domain) => {
    const deep = all.filter((i) => top(i.to) === domain && top(i.from) !== domain && i.to !== `${domain}/index.ts`)
    expect(deep.map((i) => `${i.from} -> ${i.to}`)).toEqual([])
  })

  it('a server that makes no team never loads the code that makes teams: only import() reaches it', () => {
    const making = ['teams/registry.ts', 'teams/launch.ts', 'teams/body.ts']
    expect(making.filter((file) => !all.some((i) => i.to === file))).toEqual([])
    for (const entry of ['adapters/server.ts', 'index.ts', 'cli/main.ts']) {
      const loaded = loadedWith(entry)
      expect(loaded.has('teams/index.ts'), entry).toBe(true)
      expect(making.filter((file) => loaded.has(file)), entry).toEqual([])
    }
  })

  it("a test using only the built-in APIs never loads route files, resources, the proxy, the recorder, TLS, saved states or the dashboard's files: only import() reaches them", () => {
    const sources = files(SRC).map((file) => relative(SRC, file))
    const lazy = [
      ...['declare', 'template', 'placeholders', 'answer', 'resources', 'resource-routes', 'proxy', 'recorder', 'record-file', 'record-body', 'record-names'].map((name) => `user-routes/${name}.ts`),
      ...sources.filter((file) => file.startsWith('tls/') && file !== 'tls/errors.ts'),
      ...sources.filter((file) => /^kernel\/saved-state\/|^kernel\/saved-store\.ts$|^(?!kernel\/)[\w-]+\/saved(-bundle)?\.ts$/.test(file)),
      'adapters/state-file.ts',
      'control/dashboard-files.ts',
    ]
    expect(lazy.filter((file) => !all.some((i) => i.to === file))).toEqual([])
    expect(lazy.filter((file) => file.endsWith('/saved.ts')).length).toBeGreaterThanOrEqual(5)
    for (const entry of ['index.ts', 'adapters/vitest.ts', 'adapters/server.ts', 'cli/main.ts']) {
      const loaded = loadedWith(entry)
      expect(loaded.has('user-routes/index.ts'), entry).toBe(true)
      expect(lazy.filter((file) => loaded.has(file)), entry).toEqual([])
    }
  })

  it("a test in-process never loads the server's code (its error class is apart)", () => {
    const loaded = loadedWith('index.ts')
    expect(loaded.has('adapters/errors.ts')).toBe(true)
    expect(['adapters/server.ts', 'adapters/node-http.ts', 'adapters/client-error.ts'].filter((file) => loaded.has(file))).toEqual([])
  })

  it('a test that takes and shows no access token never loads jose: only import() reaches it', () => {
    const sources = files(SRC)
    const dynamic = sources.filter((file) => /import\('jose'\)/.test(readFileSync(file, 'utf8')))
    const loading = sources.filter((file) => /^(?:import|export)(?!\s+type\b)[^;'(]*?from\s*'jose'/m.test(readFileSync(file, 'utf8')))
    expect(dynamic.map((file) => relative(SRC, file)).sort()).toEqual(['auth/oauth/keys.ts', 'auth/oauth/verify.ts'])
    expect(loading.map((file) => relative(SRC, file))).toEqual([])
  })

  it('the kernel imports nothing outside the kernel', () => {
    const outside = all.filter((i) => top(i.from) === 'kernel' && top(i.to) !== 'kernel')
    expect(outside.map((i) => `${i.from} -> ${i.to}`)).toEqual([])
  })

  it('no code line of the kernel names a webhook, an OAuth client or OAuth', () => {
    const named: string[] = []
    for (const file of files(join(SRC, 'kernel'))) {
      const code = readFileSync(file, 'utf8')
        .replace(/\/\*[\s\S]*?\*\//g, '')
        .split('\n')
        .map((line) => line.replace(/\/\/.*$/, ''))
      code.forEach((line, index) => {
        if (/webhook|oauth|client_?id|clientOf/i.test(line)) named.push(`${relative(SRC, file)}:${index + 1}: ${line.trim()}`)
      })
    }
    expect(named).toEqual([])
  })

  it('no module imports itself back through others (type-only imports count)', () => {
    const next = new Map<string, string[]>()
    for (const i of all) next.set(i.from, [...(next.get(i.from) ?? []), i.to])
    const circles: string[] = []
    const done = new Set<string>()
    const visit = (file: string, path: string[]): void => {
      const at = path.indexOf(file)
      if (at >= 0) return void circles.push([...path.slice(at), file].join(' -> '))
      if (done.has(file)) return
      for (const to of next.get(file) ?? []) visit(to, [...path, file])
      done.add(file)
    }
    for (const file of next.keys()) visit(file, [])
    expect(circles).toEqual([])
  })
})
