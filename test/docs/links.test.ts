/**
 * Every link of the README, CONTRIBUTING.md and docs/ leads somewhere: a relative link names a file
 * of this repository (and, with a `#fragment`, a heading of it); a link from a file the package
 * ships (the README, docs/) names a file the package ships too, since a reader on npm has nothing
 * else; a link into this repository on GitHub (`…/blob/main/<path>`) names a file that exists.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, normalize, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { files: string[]; repository: { url: string } }

/** The repository's own address on GitHub, from package.json: `https://github.com/owner/name`. */
const REPOSITORY = manifest.repository.url.replace(/^git\+/, '').replace(/\.git$/, '')

const DOCUMENTS = [
  'README.md',
  'CONTRIBUTING.md',
  ...readdirSync(join(ROOT, 'docs'), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`),
]

/** What `npm pack` ships besides the folders of package.json "files". */
const ALWAYS_SHIPPED = ['README.md', 'package.json']
const shippedFolders = manifest.files.filter((f) => !f.startsWith('!'))
const isShipped = (path: string): boolean => ALWAYS_SHIPPED.includes(path) || shippedFolders.some((f) => path === f || path.startsWith(`${f}/`))

/** The text outside code: fenced blocks and inline code spans emptied, so an example's brackets are not links. */
function prose(text: string): string {
  return text.replace(/^```[\s\S]*?^```$/gm, '').replace(/`[^`\n]*`/g, '``')
}

/** GitHub's anchors for a document's headings: lower case, punctuation dropped, spaces as hyphens, repeats numbered. */
function anchorsOf(text: string): Set<string> {
  const anchors = new Set<string>()
  const seen = new Map<string, number>()
  for (const [, heading] of text.replace(/^```[\s\S]*?^```$/gm, '').matchAll(/^#{1,6} (.+)$/gm)) {
    const slug = (heading ?? '').trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-')
    const count = seen.get(slug) ?? 0
    seen.set(slug, count + 1)
    anchors.add(count === 0 ? slug : `${slug}-${count}`)
  }
  return anchors
}

/** The links of a document (inline links and images), with what is wrong with each; `read` gives another document's text. */
function problemsOf(file: string, text: string, read: (path: string) => string | undefined): string[] {
  const problems: string[] = []
  for (const [, target = ''] of prose(text).matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
    if (target.startsWith(`${REPOSITORY}/blob/`)) {
      const path = target.slice(`${REPOSITORY}/blob/`.length).split('/').slice(1).join('/').split('#')[0] ?? ''
      if (!existsSync(join(ROOT, path))) problems.push(`${file}: ${target} names ${path}, which this repository does not hold`)
      continue
    }
    if (/^[a-z][a-z+.-]*:/i.test(target)) continue // another site, mailto:
    const [pathPart = '', fragment] = target.split('#')
    const path = pathPart === '' ? file : normalize(join(dirname(file), decodeURIComponent(pathPart)))
    const content = read(path)
    if (content === undefined) {
      problems.push(`${file}: ${target} names ${path}, which does not exist`)
      continue
    }
    if (isShipped(file) && !isShipped(path)) problems.push(`${file}: ${target} names ${path}, which the package does not ship (link it through ${REPOSITORY}/blob/main/…)`)
    if (fragment !== undefined && path.endsWith('.md') && !anchorsOf(content).has(fragment)) problems.push(`${file}: ${target}: ${path} has no heading #${fragment}`)
  }
  return problems
}

/** A file of the repository (not a folder) as text, or undefined. */
function readRepositoryFile(path: string): string | undefined {
  const full = join(ROOT, path)
  if (relative(ROOT, full).startsWith('..') || !existsSync(full) || !statSync(full).isFile()) return undefined
  return readFileSync(full, 'utf8')
}

describe('the links of the README, CONTRIBUTING.md and docs/', () => {
  it('all lead to a file that exists, a heading it has, and from shipped documents to shipped files', () => {
    const problems = DOCUMENTS.flatMap((file) => problemsOf(file, readFileSync(join(ROOT, file), 'utf8'), readRepositoryFile))
    expect(problems).toEqual([])
  })

  it('are found in every document (the check is not vacuous)', () => {
    const counts = DOCUMENTS.map((file) => [file, [...prose(readFileSync(join(ROOT, file), 'utf8')).matchAll(/\]\(/g)].length] as const)
    expect(counts.filter(([file]) => file === 'README.md' || file === 'CONTRIBUTING.md').every(([, n]) => n > 3)).toBe(true)
    expect(counts.reduce((sum, [, n]) => sum + n, 0)).toBeGreaterThan(50)
  })

  it('are caught when broken: a missing file, a missing heading, a file the package does not ship, a missing repository file', () => {
    const read = (path: string): string | undefined => ({ 'docs/a.md': '# A\n\n## Two words\n', 'src/x.ts': '' })[path]
    const text = [
      '[ok](a.md#two-words)',
      '[gone](b.md)',
      '[no heading](a.md#three)',
      '[unshipped](../src/x.ts)',
      `[repository](${REPOSITORY}/blob/main/no/such/file.ts)`,
      '`[in code](c.md)`',
      '[elsewhere](https://example.com/x.md)',
    ].join('\n')
    const problems = problemsOf('docs/a.md', text, read)
    expect(problems).toHaveLength(4)
    expect(problems.join('\n')).toMatch(/b\.md.*does not exist[\s\S]*#three[\s\S]*does not ship[\s\S]*no\/such\/file\.ts/)
  })
})
