/**
 * Generated elements (the `generate` fixture section) are each made when first read, yet behave as
 * if they had been seeded with the fixtures: same place in the element list, kept by a reset, their
 * changes undone by it, and the same elements whatever asks for them first. A store of 100,000 costs
 * nothing up front.
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

  it('are the same elements whatever else asked first, in a store of any size', async () => {
    const small = await createEmulator({ fixtures: [{ generate: { elements: 30 } }] })
    const large = await createEmulator({ fixtures: [{ generate: { elements: 3_000 } }] })
    const listedSmall = small.elements.list(FACET)
    expect(large.elements.list(FACET).slice(0, listedSmall.length)).toEqual(listedSmall)
    const sample = listedSmall[listedSmall.length - 1]?.id ?? ''
    for (const id of large.elements.list(FACET).slice(100, 110).map((e) => e.id)) await large.handle(new Request(versionsUrl(large.urls.base, id), { headers: APP_KEY }))
    const fromSmall = await (await small.handle(new Request(versionsUrl(small.urls.base, sample), { headers: APP_KEY }))).json()
    const fromLarge = await (await large.handle(new Request(versionsUrl(large.urls.base, sample), { headers: APP_KEY }))).json()
    expect(JSON.stringify(fromLarge).replaceAll(large.urls.base, '<base>')).toBe(JSON.stringify(fromSmall).replaceAll(small.urls.base, '<base>'))
  })

  it('answer a lookup in a store of 100,000 without making the others first', async () => {
    const fixtureElements = (await createEmulator()).elements.list(FACET).length - 20
    const emu = await createEmulator({ fixtures: [{ generate: { elements: 100_000 } }] })
    const listed = emu.elements.list(FACET)
    expect(listed).toHaveLength(100_000 + fixtureElements)
    const last = listed[listed.length - 1]
    const answer = await emu.handle(new Request(versionsUrl(emu.urls.base, last?.versions[0]?.versionId ?? ''), { headers: APP_KEY }))
    expect(answer.status).toBe(200)
    expect(((await answer.json()) as { elements: Array<{ id: string }> }).elements.map((e) => e.id)).toContain(last?.id)
  })

  it('are not found by an id no generated element has, though it looks like one', async () => {
    const emu = await createEmulator()
    const listed = emu.elements.list(FACET)
    const id = listed[listed.length - 1]?.id ?? ''
    const other = await createEmulator({ seed: 2 })
    const changed = `${id.slice(0, 35)}${id.endsWith('0') ? '1' : '0'}`
    for (const [target, candidate] of [
      [emu, changed],
      [other, id],
    ] as const) {
      const answer = await target.handle(new Request(versionsUrl(target.urls.base, candidate), { headers: APP_KEY }))
      expect(answer.status).toBe(404)
    }
  })
})
