/**
 * Module-level schemas built on first use (`onFirstUse`): nothing is built until the schema is
 * used, and once built the stand-in behaves as the schema would, including in JSON Schema output
 * and in the store, which must not build a schema its baseline never needs.
 */
import { describe, expect, it, vi } from 'vitest'
import * as z from 'zod'
import { onFirstUse } from '../../src/kernel/on-first-use.js'
import { IndexedCollection } from '../../src/kernel/store.js'

/** A stand-in and the number of times its schema was built. */
function counted<T extends z.ZodType>(build: () => T): { schema: T; builds: () => number } {
  let builds = 0
  const schema = onFirstUse(() => {
    builds += 1
    return build()
  })
  return { schema, builds: () => builds }
}

const permissionShape = (): z.ZodObject<{ action: z.ZodString; resource: z.ZodString }, z.core.$strict> =>
  z.strictObject({ action: z.string().min(1), resource: z.string().min(1) })

describe('onFirstUse', () => {
  it('builds nothing until the schema is used, then builds it once', () => {
    const { schema, builds } = counted(permissionShape)
    const user = onFirstUse(() => z.strictObject({ id: z.string(), permissions: z.array(schema).default([]) }))
    expect(builds()).toBe(0)
    expect(user.parse({ id: 'u', permissions: [{ action: 'read', resource: 'x' }] })).toEqual({ id: 'u', permissions: [{ action: 'read', resource: 'x' }] })
    expect(schema.safeParse({ action: '', resource: 'x' }).success).toBe(false)
    expect(builds()).toBe(1)
  })

  it('parses, composes and extends as the schema itself', () => {
    const direct = permissionShape()
    const { schema } = counted(permissionShape)
    const inputs: unknown[] = [{ action: 'a', resource: 'b' }, { action: 'a' }, { action: 'a', resource: 'b', extra: 1 }, 'text', null]
    for (const input of inputs) {
      const a = direct.safeParse(input)
      const b = schema.safeParse(input)
      expect(b.success).toBe(a.success)
      expect(b.error?.issues).toEqual(a.error?.issues)
    }
    expect(schema.extend({ scope: z.string() }).safeParse({ action: 'a', resource: 'b', scope: 'c' }).success).toBe(true)
    expect(schema.partial().parse({})).toEqual({})
    expect(Object.keys(schema.shape)).toEqual(['action', 'resource'])
    expect(schema instanceof z.ZodObject).toBe(true)
    expect(z.array(schema).optional().parse(undefined)).toBeUndefined()
  })

  it('converts to the same JSON Schema as the schema built at once, shared parts included', () => {
    const sharedDirect = permissionShape()
    const direct = z.object({ granted: z.array(sharedDirect), denied: z.array(sharedDirect), one: sharedDirect.optional() })
    const shared = onFirstUse(permissionShape)
    const lazy = onFirstUse(() => z.object({ granted: z.array(shared), denied: z.array(shared), one: shared.optional() }))
    expect(z.toJSONSchema(lazy)).toEqual(z.toJSONSchema(direct))
    expect(z.toJSONSchema(lazy, { io: 'input' })).toEqual(z.toJSONSchema(direct, { io: 'input' }))
  })

  it('keeps the metadata of the built schema, an id at its top included', () => {
    const build = (): z.ZodObject<{ token: z.ZodString }> => z.object({ token: z.string().meta({ description: 'A JWT.' }) }).meta({ id: 'TokenAnswer' })
    const lazy = onFirstUse(build)
    const json = z.toJSONSchema(z.object({ a: lazy, b: lazy }))
    expect(json).toEqual(z.toJSONSchema(((shared) => z.object({ a: shared, b: shared }))(build())))
    expect(JSON.stringify(json)).toContain('TokenAnswer')
    expect(JSON.stringify(json)).toContain('A JWT.')
  })

  it('converts a recursive shape as the schema built at once does', () => {
    type Node = { name: string; children: Node[] }
    const directNode: z.ZodType<Node> = z.lazy(() => z.object({ name: z.string(), children: z.array(directNode) }))
    const lazyNode: z.ZodType<Node> = onFirstUse(() => z.lazy(() => z.object({ name: z.string(), children: z.array(lazyNode) })))
    expect(z.toJSONSchema(lazyNode)).toEqual(z.toJSONSchema(directNode))
    expect(lazyNode.parse({ name: 'a', children: [{ name: 'b', children: [] }] })).toEqual({ name: 'a', children: [{ name: 'b', children: [] }] })
  })
})

describe('IndexedCollection with a schema built on first use', () => {
  it('seeds its baseline without building the schema, and validates the first write it did not make', async () => {
    const { schema, builds } = counted(() => z.object({ id: z.string().min(1), name: z.string() }))
    const store = new IndexedCollection(schema, (r) => r.id)
    await store.seed([{ id: 'a', name: 'A' }])
    expect(store.get('a')).toEqual({ id: 'a', name: 'A' })
    expect(builds()).toBe(0)
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined) // @msw/data prints the issues
    await expect(store.insert({ id: '', name: 'B' })).rejects.toThrow()
    errors.mockRestore()
    expect(builds()).toBe(1)
    await store.insert({ id: 'b', name: 'B' })
    expect(store.get('b')).toEqual({ id: 'b', name: 'B' })
  })
})
