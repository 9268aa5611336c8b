/**
 * The README, CONTRIBUTING.md and docs/ render as written: one title, headings that do not skip a
 * level, and tables whose every row has the header's cells (an unescaped `|` in a cell, or a blank
 * line inside a table, breaks it on GitHub and npm without a word).
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const DOCUMENTS = [
  'README.md',
  'CONTRIBUTING.md',
  ...readdirSync(join(ROOT, 'docs'), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`),
]

/** The document's lines with fenced code blocks blanked (kept as lines, so numbers stay right). */
function proseLines(text: string): string[] {
  return text.replace(/^```[\s\S]*?^```$/gm, (block) => '\n'.repeat(block.split('\n').length - 1)).split('\n')
}

/** What would render wrongly: a heading out of order, a table row with another number of cells, a table without its separator row. */
function problemsOf(file: string, text: string): string[] {
  const problems: string[] = []
  const lines = proseLines(text)
  const headings = lines.flatMap((line, i) => (/^#{1,6} /.test(line) ? [{ level: line.indexOf(' '), line: i + 1 }] : []))
  if (headings[0]?.level !== 1 || headings.filter((h) => h.level === 1).length !== 1) problems.push(`${file}: not exactly one title (#), first`)
  headings.forEach((h, i) => {
    const previous = headings[i - 1]
    if (previous && h.level > previous.level + 1) problems.push(`${file}:${h.line}: a heading of level ${h.level} under one of level ${previous.level}`)
  })
  const cells = (line: string): number => line.match(/(?<!\\)\|/g)?.length ?? 0
  let header: number | undefined
  lines.forEach((line, i) => {
    if (!line.startsWith('|')) {
      header = undefined
      return
    }
    if (header === undefined) {
      header = cells(line)
      if (!/^\|(\s*:?-+:?\s*\|)+$/.test(lines[i + 1] ?? '')) problems.push(`${file}:${i + 1}: a table row with no header separator above it (a blank line inside a table?)`)
    } else if (cells(line) !== header) {
      problems.push(`${file}:${i + 1}: ${cells(line) - 1} cells where the header has ${header - 1}`)
    }
  })
  return problems
}

describe('the README, CONTRIBUTING.md and docs/', () => {
  it('render as written: one title, no skipped heading level, whole tables', () => {
    expect(DOCUMENTS.flatMap((file) => problemsOf(file, readFileSync(join(ROOT, file), 'utf8')))).toEqual([])
  })

  it('would show a broken table or heading', () => {
    const text = '# T\n\n### Skipped\n\n| a | b |\n|---|---|\n| `x | y` | z |\n\n| orphan | row |\n'
    expect(problemsOf('x.md', text)).toEqual([
      'x.md:3: a heading of level 3 under one of level 1',
      'x.md:7: 3 cells where the header has 2',
      'x.md:9: a table row with no header separator above it (a blank line inside a table?)',
    ])
  })
})
