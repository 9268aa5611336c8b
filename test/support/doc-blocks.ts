/**
 * The code blocks of the README and docs/*.md, as the docs tests read them: each with its language,
 * its text, where it stands (file, line) and the `## ` section it stands under.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

export const ROOT = fileURLToPath(new URL('../../', import.meta.url))

/** The documents whose examples the docs tests use: the README first, then docs/ (its decisions included). */
export const DOCUMENTS = ['README.md', ...readdirSync(join(ROOT, 'docs'), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`)]

/**
 * Sections (by `## ` heading) whose blocks another test runs, with the context they assume:
 * docs/scenarios.md's recipes use the consumer's `client` and `sender` (test/docs/scenario-recipes.test.ts
 * runs them), and its saved file is compared with what svc-mock saves (test/unit/docs.test.ts);
 * docs/jest.md's set-up is a jest project's files, which .ci/jest-consumer.sh runs with jest
 * (test/docs/jest-doc.test.ts checks the page shows them word for word).
 */
export const RUN_ELSEWHERE: Readonly<Record<string, readonly string[]>> = {
  'docs/scenarios.md': ['Recipes', 'Save what is on'],
  'docs/jest.md': ['Set-up'],
}

export interface Block {
  readonly file: string
  readonly lang: string
  readonly code: string
  readonly line: number
  /** The `## ` heading the block stands under. */
  readonly section: string
}

export function blocksOf(file: string): Block[] {
  const text = readFileSync(join(ROOT, file), 'utf8')
  return [...text.matchAll(/^```(\w+)\n([\s\S]*?)^```$/gm)].map((m) => {
    const before = text.slice(0, m.index)
    return {
      file,
      lang: m[1] ?? '',
      code: m[2] ?? '',
      line: before.split('\n').length,
      section: [...before.matchAll(/^## (.+)$/gm)].at(-1)?.[1] ?? '',
    }
  })
}

export const where = (b: Block): string => `${b.file}:${b.line}`
