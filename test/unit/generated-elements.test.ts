/**
 * Generated elements (the `generate` fixture section) are made when first needed, yet behave as if
 * they had been seeded with the fixtures: same place in the element list, kept by a reset, their
 * changes undone by it, and the same elements whatever asks for them first.
 */
import { describe, expect, it } from 'vitest'
import { createEmulator } from '../../src/index.js'

const FACET = { storage: 'acme-collection/acme-tenant', facet: 'processes' }
const versionsUrl = (base: string, id: string): string => `${base}/acme-collection/acme-tenant/_api/rest/facets/processes/views/default/elements/${id}/versions`
const APP_KEY = { authorization: 'AppKey svcmock-app-key' }

describe('generated elements', () => {
  it('are the same elements whether the list or a lookup asks for them first', async () => {
    const listedFirst = await createEmulator({ defaultFixtures: true })
    const ids = listedFirst.elements.list(FACET).map((e) => e.id)
    const lookedUpFirst = await createEmulator({ defaultFixtures: true })
    const last = ids[ids.length - 1] ?? ''
    const answer = await lookedUpFirst.handle(new Request(versionsUrl(lookedUpFirst.urls.base, last), { headers: APP_KEY }))
    expect(answer.status).toBe(200)
    expect(lookedUpFirst.elements.list(FACET).map((e) => e.id)).toEqual(ids)
  })

  it('come before an element added at run time, as if seeded with the fixtures', async () => {
    const emu = await createEmulator()
    const seeded = (await createEmulator()).elements.list(FACET).map((e) => e.id)
    const added = await emu.elements.add({ ...FACET, type: 'mainProcess', versions: [{ state: 'released' }] })
    expect(emu.elements.list(FACET).map((e) => e.id)).toEqual([...seeded, added.id])
  })

  it('stay after a reset, which undoes a change to one of them', async () => {
    const emu = await createEmulator()
    const before = emu.elements.list(FACET)
    const generated = before[before.length - 1]
    expect(generated).toBeDefined()
    await emu.elements.addVersion(generated?.id ?? '', { state: 'inProcess' }, FACET)
    emu.elements.remove(before[before.length - 2]?.id ?? '', FACET)
    expect(emu.elements.list(FACET)).not.toEqual(before)
    await emu.reset()
    expect(emu.elements.list(FACET)).toEqual(before)
  })

  it('are found by a lookup made before anything listed them, and after a reset that came first', async () => {
    const ids = (await createEmulator()).elements.list(FACET).map((e) => e.id)
    const emu = await createEmulator()
    await emu.reset()
    const answer = await emu.handle(new Request(versionsUrl(emu.urls.base, ids[ids.length - 1] ?? ''), { headers: APP_KEY }))
    expect(answer.status).toBe(200)
    expect(((await answer.json()) as { count: number }).count).toBeGreaterThan(0)
  })
})
