/**
 * docs/python.md's examples are the Python suite's own files: each Python block that names its file
 * in its first line (`# conftest.py: …`) is that file of test/real-client/python/, byte for byte, so
 * the Python suite (test/real-client/python/run.sh) runs the example as written. The one other
 * block, pycelonis, cannot run in CI (the SDK is proprietary); the suite runs its calls instead.
 */
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const text = readFileSync(`${ROOT}docs/python.md`, 'utf8')
const blocks = [...text.matchAll(/^```python\n([\s\S]*?)^```$/gm)].map((m) => m[1] ?? '')
const named = blocks.flatMap((code) => {
  const file = /^# ([\w-]+\.py): /.exec(code)?.[1]
  return file === undefined ? [] : [{ file, code }]
})

describe('docs/python.md', () => {
  it('shows the session fixture and the first tests as files of the Python suite', () => {
    expect(named.map((b) => b.file)).toEqual(['conftest.py', 'test_first_ten_minutes.py'])
  })

  for (const { file, code } of named) {
    it(`its ${file} is test/real-client/python/${file} as written`, () => {
      expect(code).toBe(readFileSync(`${ROOT}test/real-client/python/${file}`, 'utf8'))
    })
  }

  it('has no other Python block than the pycelonis one', () => {
    const others = blocks.filter((code) => !/^# [\w-]+\.py: /.test(code))
    expect(others).toHaveLength(1)
    expect(others[0]).toContain('from pycelonis import get_celonis')
  })
})
