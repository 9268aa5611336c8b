/** The user docs keep up with the code: every scenario of the catalogue is documented. */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { createEmulator } from '../../src/index.js'

describe('docs/scenarios.md', () => {
  it('documents every scenario of the catalogue, with each of its parameters', async () => {
    const doc = readFileSync(new URL('../../docs/scenarios.md', import.meta.url), 'utf8')
    const emu = await createEmulator()
    for (const scenario of emu.scenarios.list()) {
      expect(doc, scenario.name).toContain(`| \`${scenario.name}\``)
      for (const param of Object.keys(scenario.params)) expect(doc, `${scenario.name} ${param}`).toMatch(new RegExp(`\\| \`${scenario.name}\` \\([^|]*\`${param}\``))
    }
  })
})
