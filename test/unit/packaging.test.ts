/**
 * What the published package holds and says about itself: where it lives (repository, homepage,
 * bugs, keywords), the msw peer range, every file the README links to (the screenshot included),
 * and source maps that carry their sources (src/ is not shipped). Read from `npm pack --dry-run`.
 * And its package.json: no install-time script in the tarball, while a clone still builds.
 */
import { execFileSync } from 'node:child_process'
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { beforeAll, describe, expect, it } from 'vitest'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const manifest = JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8')) as {
  scripts: Record<string, string>
  repository?: { url?: string }
  homepage?: string
  bugs?: { url?: string }
  keywords?: string[]
  peerDependencies: Record<string, string>
  peerDependenciesMeta: Record<string, { optional?: boolean }>
}

describe('the package', () => {
  let files: string[] = []
  beforeAll(() => {
    // --ignore-scripts: no rebuild under the feet of the other tests.
    const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })
    files = (JSON.parse(out) as Array<{ files: Array<{ path: string }> }>)[0]?.files.map((f) => f.path) ?? []
  })

  it('says where it lives', () => {
    expect(manifest.repository?.url).toMatch(/^git\+https:\/\/github\.com\/.+\.git$/)
    expect(manifest.homepage).toMatch(/^https:\/\//)
    expect(manifest.bugs?.url).toMatch(/^https:\/\//)
    expect(manifest.keywords?.length).toBeGreaterThan(3)
  })

  it('takes msw 2 or 3, and only as an optional peer', () => {
    expect(manifest.peerDependencies.msw).toBe('^2.10.0 || ^3.0.0')
    expect(manifest.peerDependenciesMeta.msw?.optional).toBe(true)
  })

  it('ships every file the README links to or shows, and no sources or tests', () => {
    const readme = readFileSync(`${ROOT}README.md`, 'utf8')
    const linked = [...readme.matchAll(/\]\(((?:docs|bench|fixtures|scenarios)\/[^)#\s]+)/g)].map((m) => m[1] ?? '')
    expect(linked).toContain('docs/dashboard.png')
    for (const path of linked.filter((p) => !p.startsWith('bench/'))) expect(files, path).toContain(path)
    expect(files).toContain('docs/openapi.json')
    expect(files.filter((f) => f.startsWith('src/') || f.startsWith('test/'))).toEqual([])
  })

  it('ships source maps that carry their sources', () => {
    const maps = files.filter((f) => f.endsWith('.js.map'))
    expect(maps.length).toBeGreaterThan(0)
    for (const map of maps) {
      if (!existsSync(`${ROOT}${map}`)) continue
      const { sources, sourcesContent } = JSON.parse(readFileSync(`${ROOT}${map}`, 'utf8')) as { sources: string[]; sourcesContent?: Array<string | null> }
      expect(sourcesContent?.length, map).toBe(sources.length)
      expect(sourcesContent?.every((text) => typeof text === 'string'), map).toBe(true)
    }
  })

  it('ships types that need no @types/node: nothing the entry points a test imports reach names Buffer or NodeJS, or imports node: (a consumer type-checking with skipLibCheck off and no node types would fail)', () => {
    // svc-mock/server is for Node.js only; '.', './msw' and './vitest' are imported by suites that may have no node types.
    const reached = new Set<string>()
    const visit = (file: string): void => {
      if (reached.has(file)) return
      reached.add(file)
      const text = readFileSync(`${ROOT}${file}`, 'utf8')
      for (const [, spec] of text.matchAll(/(?:from\s+|import\()\s*['"](\.{1,2}\/[^'"]+)['"]/g)) {
        const target = new URL(spec!.replace(/\.js$/, '') + '.d.ts', `file:///${file}`).pathname.slice(1)
        if (files.includes(target)) visit(target)
      }
    }
    for (const entry of ['dist/types/index.d.ts', 'dist/types/adapters/msw.d.ts', 'dist/types/adapters/vitest.d.ts']) visit(entry)
    expect(reached.size).toBeGreaterThan(10)
    const strip = (text: string): string => text.replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '')
    const naming = [...reached].filter((f) => /(?<![\w.])(Buffer\b(?!\.)|NodeJS\.)|['"]node:/.test(strip(readFileSync(`${ROOT}${f}`, 'utf8'))))
    expect(naming).toEqual([])
  })
})

describe("the packed package's package.json", () => {
  it('carries no install-time script (npm warns of each on install), a clone still builds on npm install, and packing leaves the working tree\'s package.json byte for byte as it was', () => {
    expect(manifest.scripts.prepare).toBe('npm run build')
    // Packed in a copy whose build is a stand-in, so the real dist/ is not rebuilt under the other tests.
    const dir = mkdtempSync(join(tmpdir(), 'svc-mock-pack-'))
    try {
      mkdirSync(join(dir, 'scripts'))
      copyFileSync(`${ROOT}package.json`, join(dir, 'package.json'))
      copyFileSync(`${ROOT}scripts/pack-manifest.js`, join(dir, 'scripts/pack-manifest.js'))
      writeFileSync(join(dir, 'scripts/build.js'), '')
      execFileSync('npm', ['pack', '--pack-destination', dir], { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })
      const tarball = readdirSync(dir).find((f) => f.endsWith('.tgz')) ?? ''
      const packed = JSON.parse(execFileSync('tar', ['-xzOf', join(dir, tarball), 'package/package.json'], { encoding: 'utf8' })) as { scripts: Record<string, string>; name: string }
      expect(packed.name).toBe('svc-mock')
      expect(Object.keys(packed.scripts).filter((name) => ['preinstall', 'install', 'postinstall', 'prepare'].includes(name))).toEqual([])
      expect(readFileSync(join(dir, 'package.json'), 'utf8')).toBe(readFileSync(`${ROOT}package.json`, 'utf8'))
      expect(readdirSync(dir).sort()).toEqual(['package.json', 'scripts', tarball].sort())
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }, 60_000)
})
