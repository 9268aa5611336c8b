/**
 * Where the docs point an editor for a file's JSON Schema: every `"$schema"` of the README and
 * docs/*.md, read from where its file stands in a user's project (the path a `cat > PATH` example
 * writes, else a folder of the project such as `routes/` or `fixtures/`), reaches a schema the
 * installed package ships (`node_modules/svc-mock/docs/*.schema.json`); and each generated
 * schema's own `$id` is its address in the repository package.json names.
 */
import { existsSync, readFileSync } from 'node:fs'
import { join, posix } from 'node:path'
import { describe, expect, it } from 'vitest'
import { fixturesJsonSchema, routesJsonSchema, scenarioJsonSchema } from '../../src/json-schemas.js'
import { DOCUMENTS, ROOT } from '../support/doc-blocks.js'

const PROJECT = '/project'
const INSTALLED = `${PROJECT}/node_modules/svc-mock/`

/** Each `"$schema"` of a document, with the path of the file it stands in, when an example writes one. */
function schemasOf(file: string): Array<{ value: string; writtenTo: string | undefined }> {
  const text = readFileSync(join(ROOT, file), 'utf8')
  return [...text.matchAll(/"\$schema": "([^"]+)"/g)].map((m) => {
    const before = text.slice(0, m.index)
    const heredoc = [...before.matchAll(/cat > (\S+) <<'EOF'\n/g)].at(-1)
    const open = heredoc !== undefined && !before.slice((heredoc.index ?? 0) + heredoc[0].length).includes('\nEOF\n')
    return { value: m[1] ?? '', writtenTo: open ? heredoc[1] : undefined }
  })
}

describe('the JSON Schemas the docs point at', () => {
  const found = DOCUMENTS.flatMap((file) => schemasOf(file).map((s) => ({ file, ...s })))

  it('are given for routes, fixtures and scenario files', () => {
    expect(found.map((s) => posix.basename(s.value)).sort()).toEqual(expect.arrayContaining(['fixtures.schema.json', 'routes.schema.json', 'scenario.schema.json']))
  })

  it("every \"$schema\" of a doc, read from where its file stands in a project, is a schema the installed package ships", () => {
    for (const { file, value, writtenTo } of found) {
      const dir = posix.dirname(posix.join(PROJECT, writtenTo ?? 'a-folder/file.json'))
      const resolved = posix.resolve(dir, value)
      expect(resolved.startsWith(INSTALLED), `${file}: ${value} (from ${dir})`).toBe(true)
      const shipped = resolved.slice(INSTALLED.length)
      expect(shipped, `${file}: ${value}`).toMatch(/^docs\/[a-z]+\.schema\.json$/)
      expect(existsSync(join(ROOT, shipped)), `${file}: ${shipped}`).toBe(true)
    }
  })

  it("each generated schema's $id is its address in the repository package.json names", () => {
    const { repository } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { repository: { url: string } }
    const repo = /github\.com\/(.+?)\.git$/.exec(repository.url)?.[1]
    for (const [name, schema] of [['routes', routesJsonSchema()], ['fixtures', fixturesJsonSchema()], ['scenario', scenarioJsonSchema()]] as const) {
      expect(schema.$id).toBe(`https://raw.githubusercontent.com/${repo ?? ''}/main/docs/${name}.schema.json`)
    }
  })
})
