/**
 * docs/jest.md shows, word for word, the jest project .ci/jest-consumer.sh runs against the packed
 * package (.ci/consumer/jest/), so the page is what CI proves works.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { ROOT, blocksOf } from '../support/doc-blocks.js'

it('docs/jest.md shows every file of the jest consumer CI runs, word for word', () => {
  const shown = blocksOf('docs/jest.md').map((b) => b.code)
  const dir = join(ROOT, '.ci/consumer/jest')
  const files = readdirSync(dir).sort()
  expect(files).toEqual(['handle.test.ts', 'jest.config.js', 'msw.test.ts', 'package.json', 'tsconfig.json'])
  for (const file of files) expect(shown, file).toContain(readFileSync(join(dir, file), 'utf8'))
})
