/** The user docs keep up with the code: every scenario of the catalogue is documented, and the saved-file example is what svc-mock saves. */
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

describe('docs/scenarios.md, Save what is on', () => {
  it('shows the file svc-mock saves for the set it describes', async () => {
    const doc = readFileSync(new URL('../../docs/scenarios.md', import.meta.url), 'utf8')
    const section = doc.slice(doc.indexOf('## Save what is on'))
    const example = /```json\n([\s\S]*?)\n```/.exec(section)?.[1] ?? ''
    const emu = await createEmulator()
    emu.scenarios.use('webhook-queue-full:capacity=2,webhook=orders')
    emu.scenarios.use('token-server-error:client=ci-client,times=3')
    expect(JSON.parse(example)).toEqual(emu.scenarios.snapshot({ name: 'qa-session' }))
    await emu.close()
  })
})
