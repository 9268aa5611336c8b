/**
 * The built-in defaults as a built package starts from them: the build's snapshot of the default
 * fixtures and built-in scenarios (dist/defaults.json) is a shortcut, never a second behaviour, and
 * faker is loaded only when a generated element's content is read. Each check runs a copy of the
 * built package (new modification times, as an install gives) in a fresh process.
 */
import { execFileSync } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { createEmulator } from '../../src/index.js'
import { walkDefaults } from '../support/defaults-walk.mjs'

const root = resolve(import.meta.dirname, '../..')
const copies: string[] = []

afterAll(() => {
  for (const dir of copies) rmSync(dir, { recursive: true, force: true })
})

/** A copy of the built package (dist, fixtures, scenarios) with links to its dependencies, faker left out when asked. */
function packageCopy(options: { faker: boolean }): string {
  const dir = mkdtempSync(join(tmpdir(), 'svc-mock-defaults-'))
  copies.push(dir)
  for (const part of ['package.json', 'dist', 'fixtures', 'scenarios']) cpSync(join(root, part), join(dir, part), { recursive: true })
  mkdirSync(join(dir, 'node_modules'))
  for (const name of readdirSync(join(root, 'node_modules'))) {
    if (options.faker || name !== '@faker-js') symlinkSync(join(root, 'node_modules', name), join(dir, 'node_modules', name), 'dir')
  }
  return dir
}

/** Runs `body` (an ES module's text, with `createEmulator` and `walkDefaults` in scope) in a fresh process; returns what it printed as JSON. */
function runBuilt(dir: string, body: string): unknown {
  const script = `
    import { createEmulator } from ${JSON.stringify(join(dir, 'dist', 'index.js'))}
    import { walkDefaults } from ${JSON.stringify(join(root, 'test', 'support', 'defaults-walk.mjs'))}
    ${body}
  `
  return JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, stdio: ['ignore', 'pipe', 'pipe'] }))
}

const WALK = 'process.stdout.write(JSON.stringify(await walkDefaults(createEmulator)))'

describe('the built-in defaults of a built package', () => {
  it('are kept by the build', () => {
    expect(existsSync(join(root, 'dist', 'defaults.json'))).toBe(true)
  })

  it('give a package installed anew the answers and ids of the sources', async () => {
    const fromSources = JSON.parse(JSON.stringify(await walkDefaults(createEmulator)).replaceAll(root, '<package>'))
    expect(fromSources.elements.length).toBeGreaterThan(20)
    expect(fromSources.addVersion.status).toBe(201)
    expect(fromSources.addElement.status).toBe(201)
    expect(fromSources.webhook.status).toBe(200)
    const dir = packageCopy({ faker: true })
    // Files named in the answers (fixture and scenario sources) are the copy's.
    expect(JSON.parse(JSON.stringify(runBuilt(dir, WALK)).replaceAll(dir, '<package>'))).toEqual(fromSources)
  })

  it('answer tokens, webhooks, the versions of fixture elements and the element list without loading faker', () => {
    const dir = packageCopy({ faker: false })
    const out = runBuilt(
      dir,
      `
      const emu = await createEmulator()
      const base = emu.urls.base
      const versions = await emu.handle(new Request(base + '/acme-collection/acme-tenant/_api/rest/facets/processes/views/default/elements/0f8fad5b-d9cb-469f-a165-70867728950e/versions', { headers: { authorization: 'AppKey svcmock-app-key' } }))
      const token = await emu.handle(new Request(base + '/oauth2/token', { method: 'POST', headers: { authorization: 'Basic ' + btoa('ci-client:ci-secret'), 'content-type': 'application/x-www-form-urlencoded' }, body: 'grant_type=client_credentials' }))
      const hook = await emu.handle(new Request(base + '/hooks/orders', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"orderId":"A-1"}' }))
      let listed
      try { listed = emu.elements.list().length } catch (error) { listed = error.code }
      process.stdout.write(JSON.stringify({ versions: versions.status, token: token.status, hook: hook.status, listed }))
    `,
    )
    // faker is not installed in this copy: it is loaded only when a generated element's content is read.
    const defaults = (name: string): { elements?: unknown[]; generate?: { elements: number } } => JSON.parse(readFileSync(join(root, 'fixtures/default', name), 'utf8')) as { elements?: unknown[]; generate?: { elements: number } }
    const listed = (defaults('30-elements.json').elements?.length ?? 0) + (defaults('90-generate.json').generate?.elements ?? 0)
    expect(out).toEqual({ versions: 200, token: 200, hook: 200, listed })
  })

  it('follow a default fixture edited after the build, never the snapshot of it', () => {
    const dir = packageCopy({ faker: true })
    const fixture = join(dir, 'fixtures', 'default', '90-generate.json')
    const edited = JSON.parse(readFileSync(fixture, 'utf8'))
    const before = (runBuilt(dir, WALK) as { elements: unknown[] }).elements.length
    edited.generate.elements -= 17
    writeFileSync(fixture, JSON.stringify(edited))
    expect((runBuilt(dir, WALK) as { elements: unknown[] }).elements.length).toBe(before - 17)
  })
})
