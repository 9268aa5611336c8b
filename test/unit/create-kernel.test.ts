/**
 * A kernel is made in one call: what `createKernel()` returns serves at once, a domain listed
 * last (the control plane's place) gets the records of the domains before it and, from its
 * resolvers, the whole emulator, and one that asks for the emulator while it is being defined is
 * told why it cannot have it.
 */
import { describe, expect, it } from 'vitest'
import type { Domain, DomainContext, DomainModule } from '../../src/kernel/domain.js'
import { type KernelApi, type KernelSetup, type KernelState, createKernel } from '../../src/kernel/kernel.js'
import { json } from '../../src/kernel/reply.js'
import type { RouteDefinition } from '../../src/kernel/route.js'
import { kernelSetup } from '../support/kernel.js'

const ORIGIN = 'https://emu.test'
const request = (path: string): { method: string; url: URL; headers: Headers; body: null } => ({ method: 'GET', url: new URL(path, ORIGIN), headers: new Headers(), body: null })

const route = (id: string, path: string, resolve: RouteDefinition['resolve'], extra: Partial<RouteDefinition> = {}): RouteDefinition => ({ id, method: 'GET', path, origin: 'base', summary: id, resolve, ...extra })

const things: DomainModule<'things'> = {
  name: 'things',
  schemas: { fixtures: [] },
  define: (): Domain => ({
    routes: [route('things.list', '/things', () => json(['a', 'b']))],
    targets: [{ name: 'thing', description: 'Only this thing.', read: () => undefined, values: () => ['a', 'b'] }],
    control: { routes: [] },
  }),
}

function setup(domains: KernelSetup<object, { base: string }>['domains']): KernelSetup<object, { base: string }> {
  return kernelSetup({ base: ORIGIN }, domains)
}

describe('createKernel', () => {
  it('returns a kernel that answers a request at once, with no other call', async () => {
    const kernel = await createKernel(setup([things]))
    const reply = await kernel.serve(request('/things'), 'in-process')
    expect(reply.status).toBe(200)
    expect(reply.body).toBe('["a","b"]')
    expect(kernel.routes().map((r) => r.id)).toEqual(['things.list'])
  })

  it('gives a domain listed last the records defined before it, and the whole emulator from its resolvers', async () => {
    let seen: readonly Domain[] = []
    const steering: DomainModule<'steering'> = {
      name: 'steering',
      schemas: { fixtures: [] },
      define: ({ defined, emulator }: DomainContext<object, KernelApi<KernelState, object, { base: string }>>): Domain => {
        seen = defined
        return { routes: [route('control.routes', '/__own/routes', () => json(emulator().routes().map((r) => r.id)), { control: true })] }
      },
    }
    const kernel = await createKernel(setup([things, steering]))
    expect(seen.flatMap((d) => d.targets ?? []).map((t) => t.name)).toEqual(['thing'])
    expect((await kernel.serve(request('/__own/routes'), 'in-process')).body).toBe('["things.list","control.routes"]')
  })

  it('tells a domain that asks for the emulator while it is being defined to ask from a resolver', async () => {
    const eager: DomainModule<'eager'> = {
      name: 'eager',
      schemas: { fixtures: [] },
      define: ({ emulator }): Domain => {
        emulator()
        return { routes: [] }
      },
    }
    await expect(createKernel(setup([eager]))).rejects.toThrow(/call emulator\(\) from a resolver, not from define\(\)/)
  })
})
