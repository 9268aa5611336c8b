/** Every domain that keeps state declares its part of a saved state: one that forgets fails at once, and the house keeps to it. */
import { readFileSync, readdirSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { DOMAINS } from '../../src/domains.js'
import type { DomainModule } from '../../src/kernel/domain.js'
import { type KernelSetup, createKernel } from '../../src/kernel/kernel.js'
import { kernelSetup } from '../support/kernel.js'

const setup = (domain: DomainModule): KernelSetup<object, { base: string }> => kernelSetup({ base: 'https://x.test' }, [domain])

describe('a domain that keeps state', () => {
  it('fails at once when it declares no part of a saved state (it has a reset, and no saved)', async () => {
    const counted: number[] = []
    const forgetful: DomainModule = { name: 'counter', schemas: { fixtures: [] }, define: () => ({ routes: [], reset: async () => void counted.splice(0) }) }
    await expect(createKernel(setup(forgetful))).rejects.toThrow(/Domain "counter" keeps state .* declares no part of a saved state/)
  })

  it('fails at once when it gives a part without its schema, or a schema without its part', async () => {
    const partOnly: DomainModule = { name: 'half', schemas: { fixtures: [] }, define: () => ({ routes: [], saved: async () => ({ save: () => ({}), prepare: async () => ({ apply: () => undefined }) }) }) }
    await expect(createKernel(setup(partOnly))).rejects.toThrow(/declares saved\(\) but no schemas.saved/)
  })

  it('is every domain of the emulator that keeps a store: each declares its schema, and its folder its saved.ts', () => {
    const kept: string[] = []
    for (const domain of DOMAINS) {
      const folder = new URL(`../../src/${domain.name === 'userRoutes' ? 'user-routes' : domain.name}/`, import.meta.url)
      const sources = readdirSync(folder, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.ts'))
      const keeps = sources.some((file) => /new KeyedStore\(|new Collection\(|reset\(\): (Promise<)?void/.test(readFileSync(new URL(file, folder), 'utf8')))
      if (keeps) {
        kept.push(domain.name)
        expect(domain.schemas.saved, `${domain.name} keeps state`).toBeTypeOf('function')
        expect(sources, `${domain.name} keeps state`).toContain('saved.ts')
      }
    }
    expect(kept).toEqual(['auth', 'versions', 'webhooks', 'userRoutes'])
  })
})
