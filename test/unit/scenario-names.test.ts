/** The BuiltInScenarioName type (src/scenario-names.ts, written by `npm run schemas`) names exactly the built-in scenario files. */
import { readdirSync, readFileSync } from 'node:fs'
import { expect, it } from 'vitest'

it('BuiltInScenarioName lists every scenario of scenarios/*.json, and nothing else (npm run schemas rewrites it)', () => {
  const dir = new URL('../../scenarios/', import.meta.url)
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .map((f) => (JSON.parse(readFileSync(new URL(f, dir), 'utf8')) as { name: string }).name)
    .sort()
  const source = readFileSync(new URL('../../src/scenario-names.ts', import.meta.url), 'utf8')
  const typed = [...source.matchAll(/^ {2}\| '([a-z0-9-]+)'$/gm)].map((m) => m[1])
  expect(typed).toEqual(files)
})
