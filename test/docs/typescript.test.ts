/**
 * The TypeScript of the README and docs/*.md type-checks as a new user's project checks it: a
 * consumer folder with the `package.json` and `tsconfig.json` docs/typescript.md gives (read from
 * its JSON blocks), `tsc --strict` against the built package's types (dist/types, through the
 * package's `exports`: run `npm run build` first), each block a module of its own. The recipes of
 * docs/scenarios.md get the context they assume declared (your API client and webhook sender).
 * Beside them, a consumer file of scenario names: a misspelt name is a type error
 * (`@ts-expect-error` fails the check where it is not), your own names are accepted.
 */
import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { type Block, DOCUMENTS, ROOT, RUN_ELSEWHERE, blocksOf, where } from '../support/doc-blocks.js'

/** What the recipes of docs/scenarios.md assume (test/docs/scenario-recipes.test.ts has the running kind). */
const RECIPE_CONTEXT = `import { expect, it } from 'vitest'
import type { InProcessEmulator } from 'svc-mock'
declare const emu: InProcessEmulator
declare const elementId: string
declare const client: { listVersions(id: string, options?: { sleep?: (ms: number) => Promise<unknown> }): Promise<{ count: number }> }
declare class Sender {
  constructor(sleep: (ms: number) => Promise<unknown>)
  send(payload: object): Promise<void>
  callSync(payload: object): Promise<unknown>
}
declare let sender: Sender
`

/** Scenario names as a consumer writes them: each `@ts-expect-error` line must be a type error. */
const SCENARIO_NAMES = `import { createEmulator } from 'svc-mock'
import { startServer } from 'svc-mock/server'
import { useEmulator } from 'svc-mock/vitest'

const emu = await createEmulator({ scenarios: ['latency:ms=200', { name: 'webhook-queue-full', webhook: 'orders' }] })
emu.scenarios.use('webhook-queue-full')
emu.scenarios.use('latency:ms=2000')
emu.scenarios.off('latency')
// @ts-expect-error a misspelt built-in scenario
emu.scenarios.use('webhook-queue-ful')
// @ts-expect-error in its text form too
emu.scenarios.use('latncy:ms=2000')
// @ts-expect-error and when switching it off
emu.scenarios.off('latncy')
// @ts-expect-error and at start
await createEmulator({ scenarios: ['versions-not-foud'] })
// @ts-expect-error and on the standalone server
await startServer({ scenarios: [{ name: 'rate-limitd' }] })

const mine = await createEmulator({
  scenarioDefinitions: [{ name: 'orders-maintenance', description: 'x', rules: [{ delay: 5 }] }],
  scenarios: ['orders-maintenance', 'latency'],
})
mine.scenarios.use('orders-maintenance:times=1')
mine.scenarios.use('versions-not-found')
// @ts-expect-error a misspelt own scenario
mine.scenarios.use('orders-maintenanse')
// @ts-expect-error at start too
await createEmulator({ scenarioDefinitions: [{ name: 'mine', description: 'x' }], scenarios: ['mien'] })

const fromFiles = await useEmulator<'orders-maintenance'>({ scenarioDirs: ['./scenarios'] })
fromFiles.scenarios.use('orders-maintenance')
// @ts-expect-error a name the type does not list
fromFiles.scenarios.use('orders')

const anyName = await createEmulator<string>()
anyName.scenarios.use(String(Math.random()))
`

/** The JSON block of docs/typescript.md that has `key` at its top level. */
function jsonBlock(key: string): Record<string, unknown> {
  const found = blocksOf('docs/typescript.md')
    .filter((b) => b.lang === 'json')
    .map((b) => JSON.parse(b.code) as Record<string, unknown>)
    .find((value) => key in value)
  if (!found) throw new Error(`docs/typescript.md has no JSON block with "${key}"`)
  return found
}

/** The packages the blocks import (`vitest`, `msw/node`, `openid-client`): linked from this checkout's node_modules. */
function importedPackages(blocks: readonly Block[]): Set<string> {
  const names = new Set(['@types/node', 'msw', 'vitest'])
  for (const block of blocks) {
    for (const [, spec = ''] of block.code.matchAll(/from '([^'.][^']*)'/g)) {
      if (spec.startsWith('node:') || spec === 'svc-mock' || spec.startsWith('svc-mock/')) continue
      names.add(spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : (spec.split('/')[0] ?? spec))
    }
  }
  return names
}

const scratch = mkdtempSync(join(tmpdir(), 'svc-mock-types-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

it('the README\'s and docs\' TypeScript, and typed scenario names, pass tsc --strict in a consumer set up as docs/typescript.md says', () => {
  // docs/jest.md's set-up needs jest's types: .ci/jest-consumer.sh type-checks it (ts-jest).
  const blocks = DOCUMENTS.flatMap(blocksOf).filter((b) => b.lang === 'ts' && !(b.file === 'docs/jest.md' && RUN_ELSEWHERE[b.file]?.includes(b.section)))
  expect(blocks.filter((b) => b.file === 'README.md').length).toBeGreaterThanOrEqual(2)
  expect(blocks.filter((b) => b.file === 'docs/in-process.md').length).toBeGreaterThanOrEqual(2)

  const modules = join(scratch, 'node_modules')
  for (const name of importedPackages(blocks)) {
    mkdirSync(dirname(join(modules, name)), { recursive: true })
    symlinkSync(join(ROOT, 'node_modules', name), join(modules, name))
  }
  symlinkSync(ROOT, join(modules, 'svc-mock'))
  writeFileSync(join(scratch, 'package.json'), JSON.stringify({ name: 'consumer', private: true, ...jsonBlock('type') }))
  writeFileSync(join(scratch, 'tsconfig.json'), JSON.stringify(jsonBlock('compilerOptions')))
  blocks.forEach((block, index) => {
    const context = block.file === 'docs/scenarios.md' && block.section === 'Recipes' ? RECIPE_CONTEXT : ''
    writeFileSync(join(scratch, `${block.file.replace(/\W/g, '-')}-line-${block.line}-${index}.ts`), `// ${where(block)}\n${context}${block.code}\nexport {}\n`)
  })
  writeFileSync(join(scratch, 'scenario-names.ts'), SCENARIO_NAMES)

  const tsc = spawnSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', scratch, '--noEmit'], { encoding: 'utf8' })
  // Files are named after the document and line of their block (README-md-line-42-0.ts).
  expect(`${tsc.stdout}${tsc.stderr}`).toBe('')
  expect(tsc.status).toBe(0)
}, 120_000)
