/**
 * The build's snapshot of the defaults (dist/precompiled.json) is a shortcut, never a second
 * behaviour: a built package that starts from it answers exactly as the sources do, which compute
 * everything, down to the ids taken after start. The package is copied first (new modification
 * times, as an install gives), without faker and without the generator's chunk, so the walk can
 * only succeed if the snapshot was used.
 */
import { execFileSync } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { AuthSettings } from '../../src/auth/settings.js'
import { createEmulator } from '../../src/index.js'
import { VersionsSettings } from '../../src/versions/settings.js'
import { WebhooksSettings } from '../../src/webhooks/model.js'
import { walkDefaults } from '../support/defaults-walk.mjs'

const root = resolve(import.meta.dirname, '../..')
const copies: string[] = []

afterAll(() => {
  for (const dir of copies) rmSync(dir, { recursive: true, force: true })
})

/** A copy of the built package (dist, fixtures, scenarios), its dependencies but faker linked, the generator removed. */
function packageCopy(): string {
  const dir = mkdtempSync(join(tmpdir(), 'svc-mock-precompiled-'))
  copies.push(dir)
  for (const part of ['package.json', 'dist', 'fixtures', 'scenarios']) cpSync(join(root, part), join(dir, part), { recursive: true })
  mkdirSync(join(dir, 'node_modules'))
  for (const name of readdirSync(join(root, 'node_modules'))) {
    if (name !== '@faker-js') symlinkSync(join(root, 'node_modules', name), join(dir, 'node_modules', name), 'dir')
  }
  const generators = readdirSync(join(dir, 'dist')).filter((f) => f.endsWith('.js') && readFileSync(join(dir, 'dist', f), 'utf8').includes('function* generateElements('))
  expect(generators).toHaveLength(1)
  for (const file of generators) rmSync(join(dir, 'dist', file))
  return dir
}

function walkBuilt(dir: string, seed?: number): unknown {
  const script = `
    import { createEmulator } from ${JSON.stringify(join(dir, 'dist', 'index.js'))}
    import { walkDefaults } from ${JSON.stringify(join(root, 'test', 'support', 'defaults-walk.mjs'))}
    process.stdout.write(JSON.stringify(await walkDefaults(createEmulator, ${JSON.stringify(seed === undefined ? {} : { seed })})))
  `
  return JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, stdio: ['ignore', 'pipe', 'pipe'] }))
}

/** What the child printed when the walk failed. */
function failureOf(walk: () => unknown): string {
  try {
    walk()
  } catch (error) {
    return String((error as { stderr?: string }).stderr)
  }
  throw new Error('the walk succeeded')
}

describe('the build snapshot of the defaults', () => {
  it('is in the build', () => {
    expect(existsSync(join(root, 'dist', 'precompiled.json'))).toBe(true)
  })

  it('gives a built package, installed anew, the answers and ids of the sources', async () => {
    const fromSources = JSON.parse(JSON.stringify(await walkDefaults(createEmulator)).replaceAll(root, '<package>'))
    expect(fromSources.elements.length).toBeGreaterThan(20)
    expect(fromSources.addVersion.status).toBe(201)
    expect(fromSources.addElement.status).toBe(201)
    expect(fromSources.webhook.status).toBe(200)
    const dir = packageCopy()
    // Files named in the answers (fixture and scenario sources) are the copy's.
    expect(JSON.parse(JSON.stringify(walkBuilt(dir)).replaceAll(dir, '<package>'))).toEqual(fromSources)
  })

  it('spares only the settings it validated: a built package still refuses bad settings, from an option or given as settings', () => {
    const script = `
      import { createEmulator } from ${JSON.stringify(join(root, 'dist', 'index.js'))}
      const out = []
      for (const options of [{ staticKeys: 'bogus' }, { settings: { auth: { tokenLifetime: -5 } } }, { versionListKey: 'elements' }]) {
        try { await createEmulator(options); out.push('created') } catch (error) { out.push(error.message) }
      }
      process.stdout.write(JSON.stringify(out))
    `
    const out = JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' })) as string[]
    expect(out[0]).toMatch(/settings\.auth\.staticKeys/)
    expect(out[1]).toMatch(/settings\.auth\.tokenLifetime/)
    // The default list key, given explicitly, is the tree the build validated.
    expect(out[2]).toBe('created')
    const snapshot = JSON.parse(readFileSync(join(root, 'dist', 'precompiled.json'), 'utf8')) as Record<string, { value: unknown }>
    const tree = JSON.parse(String(snapshot['settings:default-base']?.value)) as Record<string, unknown>
    expect(tree).toMatchObject({ auth: { staticKeys: 'allowed' }, versions: { listKey: 'elements' } })
    // The tree's sections as the domains' schemas parse them, which a start reads instead of parsing.
    expect(JSON.parse(String(snapshot['settings:default-sections']?.value))).toEqual({
      auth: AuthSettings.parse(tree.auth),
      versions: VersionsSettings.parse(tree.versions),
      webhooks: WebhooksSettings.parse(tree.webhooks),
    })
  })

  it('is not used for another seed, nor once a default fixture changed', () => {
    const dir = packageCopy()
    // Another seed generates other elements: the generator is needed, and it is gone from the copy (faker too).
    expect(failureOf(() => walkBuilt(dir, 7))).toContain('MODULE_NOT_FOUND')
    const fixture = join(dir, 'fixtures', 'default', '90-generate.json')
    const edited = JSON.parse(readFileSync(fixture, 'utf8'))
    edited.generate.elements = 3
    writeFileSync(fixture, JSON.stringify(edited))
    expect(failureOf(() => walkBuilt(dir))).toContain('MODULE_NOT_FOUND')
  })
})
