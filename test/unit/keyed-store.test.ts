/** The kernel's KeyedStore: synchronous writes parsed by the schema, reset to a baseline, changes against it, a new baseline. */
import { describe, expect, it } from 'vitest'
import * as z from 'zod'
import { KeyedStore } from '../../src/kernel/keyed-store.js'

const Row = z.strictObject({ id: z.string(), n: z.number().default(0) })
const seeded = (): KeyedStore<typeof Row> => {
  const store = new KeyedStore(Row, (r) => r.id)
  store.seed([
    { id: 'a', n: 1 },
    { id: 'b', n: 2 },
    { id: 'c', n: 3 },
  ])
  return store
}
const rows = (store: KeyedStore<typeof Row>): Array<[string, number]> => store.all().map((r) => [r.id, r.n])

describe('KeyedStore', () => {
  it('sees a write at once, in the order writes were made, a replaced record in its place', () => {
    const store = seeded()
    expect(store.put({ id: 'b', n: 20 })).toEqual({ id: 'b', n: 20 })
    store.put({ id: 'd' })
    expect(store.get('d')).toEqual({ id: 'd', n: 0 })
    expect(store.delete('a')).toBe(true)
    expect(store.delete('a')).toBe(false)
    expect(rows(store)).toEqual([['b', 20], ['c', 3], ['d', 0]])
    expect(store.size).toBe(3)
    expect(store.filter((r) => r.n > 2).map((r) => r.id)).toEqual(['b', 'c'])
  })

  it('parses every write with the schema and keeps nothing it refuses', () => {
    const store = seeded()
    expect(() => store.put({ id: 'x', n: 'one' } as unknown as z.input<typeof Row>)).toThrow(z.ZodError)
    expect(() => store.put({ id: 'x', extra: true } as unknown as z.input<typeof Row>)).toThrow(/extra/)
    expect(store.has('x')).toBe(false)
    expect(store.changes()).toEqual({ put: [], deleted: [] })
  })

  it('resets to the baseline: additions gone, deletions and replacements undone, the baseline order back', () => {
    const store = seeded()
    store.put({ id: 'd', n: 4 })
    store.put({ id: 'b', n: 20 })
    store.delete('a')
    store.put({ id: 'a', n: 10 })
    expect(rows(store)).toEqual([['b', 20], ['c', 3], ['d', 4], ['a', 10]])
    store.reset()
    expect(rows(store)).toEqual([['a', 1], ['b', 2], ['c', 3]])
    expect(store.changes()).toEqual({ put: [], deleted: [] })
  })

  it('tells what changed against the baseline: records added or replaced, keys deleted', () => {
    const store = seeded()
    expect(store.changes()).toEqual({ put: [], deleted: [] })
    store.put({ id: 'd', n: 4 })
    store.put({ id: 'b', n: 20 })
    store.delete('c')
    store.put({ id: 'e', n: 5 })
    store.delete('e')
    expect(store.changes()).toEqual({ put: [{ id: 'd', n: 4 }, { id: 'b', n: 20 }], deleted: ['c'] })
  })

  it('gives changes that, replayed on the baseline, make the same records in the same order', () => {
    const store = seeded()
    store.put({ id: 'd', n: 4 })
    store.put({ id: 'e', n: 5 })
    store.delete('d')
    store.put({ id: 'd', n: 44 })
    store.delete('a')
    store.put({ id: 'a', n: 10 })
    store.put({ id: 'c', n: 30 })
    store.delete('b')
    const { put, deleted } = store.changes()
    const replayed = seeded()
    for (const key of deleted) replayed.delete(key)
    for (const record of put) replayed.put(record)
    expect(rows(replayed)).toEqual(rows(store))
    expect(rows(store)).toEqual([['c', 30], ['e', 5], ['d', 44], ['a', 10]])
  })

  it('takes the records held now as a new baseline: reset returns to them, and nothing has changed against them', () => {
    const store = seeded()
    store.put({ id: 'd', n: 4 })
    store.delete('a')
    store.rebase()
    expect(store.changes()).toEqual({ put: [], deleted: [] })
    store.put({ id: 'e', n: 5 })
    store.put({ id: 'b', n: 20 })
    store.delete('d')
    store.reset()
    expect(rows(store)).toEqual([['b', 2], ['c', 3], ['d', 4]])
  })

  it('seeds records as they are (parsed already), replacing whatever it held, as the baseline', () => {
    const store = seeded()
    store.put({ id: 'z', n: 26 })
    const record = { id: 'q', n: 7 }
    store.seed([record])
    expect(store.get('q')).toBe(record)
    expect(store.has('a')).toBe(false)
    expect(store.changes()).toEqual({ put: [], deleted: [] })
    store.reset()
    expect(rows(store)).toEqual([['q', 7]])
  })

  it('says what changed against the seed through every new baseline, which restored on the seed gives the same records in the same order', () => {
    const store = seeded()
    store.put({ id: 'd', n: 4 })
    store.delete('a')
    store.rebase()
    store.put({ id: 'b', n: 20 })
    store.put({ id: 'a', n: 10 })
    store.delete('d')
    store.put({ id: 'e', n: 5 })
    expect(store.changes()).toEqual({ put: [{ id: 'b', n: 20 }, { id: 'a', n: 10 }, { id: 'e', n: 5 }], deleted: ['d'] })
    expect(store.saved()).toEqual({ put: [{ id: 'b', n: 20 }, { id: 'a', n: 10 }, { id: 'e', n: 5 }], deleted: ['a'] })
    const copy = seeded()
    copy.restore(store.saved())
    expect(rows(copy)).toEqual(rows(store))
    expect(rows(store)).toEqual([['b', 20], ['c', 3], ['a', 10], ['e', 5]])
  })

  it('restores changes on the seed as the new baseline: a reset returns to them, and they stay what changed against the seed', () => {
    const store = seeded()
    store.put({ id: 'z', n: 26 })
    store.restore({ put: [{ id: 'b', n: 20 }, { id: 'd', n: 4 }], deleted: ['c'] })
    expect(rows(store)).toEqual([['a', 1], ['b', 20], ['d', 4]])
    expect(store.changes()).toEqual({ put: [], deleted: [] })
    store.put({ id: 'e', n: 5 })
    store.delete('b')
    store.reset()
    expect(rows(store)).toEqual([['a', 1], ['b', 20], ['d', 4]])
    expect(store.saved()).toEqual({ put: [{ id: 'b', n: 20 }, { id: 'd', n: 4 }], deleted: ['c'] })
    expect(store.seeded('c')).toBe(true)
    expect(store.seeded('d')).toBe(false)
  })
})
