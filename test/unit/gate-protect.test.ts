/**
 * `gate.protect(route, requirement)` is the one step that puts a route behind the gate: the
 * route is checked before its resolver runs (which then gets the caller's identity), and it is
 * tagged, so the gate's scenarios reach it. A conditional requirement lets some requests through
 * without a credential. Shown on a route of a domain of its own, served by a kernel with the
 * auth domain.
 */
import { describe, expect, it } from 'vitest'
import { type Identity, authDomain } from '../../src/auth/index.js'
import type { Domain, DomainModule } from '../../src/kernel/domain.js'
import { type Kernel, type KernelState, createKernel } from '../../src/kernel/kernel.js'
import { type Reply, json } from '../../src/kernel/reply.js'
import { builtInScenarios } from '../../src/defaults.js'
import { SETTINGS_SECTIONS } from '../../src/domains.js'
import { kernelSetup } from '../support/kernel.js'

const ORIGIN = 'https://emu.test'
const USER_KEY = 'test-user-key'

interface Probe {
  readonly module: DomainModule<'probe'>
  /** The identities the resolvers were handed, in order (`undefined`: no credential was needed). */
  readonly calls: Array<Identity | undefined>
}

function probe(): Probe {
  const calls: Array<Identity | undefined> = []
  const module: DomainModule<'probe'> = {
    name: 'probe',
    schemas: { fixtures: [] },
    define: ({ use }): Domain => {
      const { gate } = use(authDomain)
      const base = { method: 'GET', origin: 'base' } as const
      return {
        routes: [
          gate.protect({ ...base, id: 'probe.secret', path: '/secret', summary: 'secret', resolve: (_, caller) => (calls.push(caller), json({ who: caller.subject })) }),
          gate.protect(
            { ...base, id: 'probe.maybe', path: '/maybe/:open', summary: 'maybe', resolve: (_, caller) => (calls.push(caller), json({ who: caller?.subject ?? null })) },
            (ctx) => (ctx.params.open === 'yes' ? 'none' : {}),
          ),
        ],
      }
    },
  }
  return { module, calls }
}

async function kernelWith(domain: Probe): Promise<Kernel<KernelState, object, { auth: string; base: string }, object>> {
  const staticKeys = builtInScenarios().filter((s) => s.name === 'static-keys-rejected')
  return await createKernel(
    kernelSetup({ auth: ORIGIN, base: ORIGIN }, [authDomain, domain.module], {
      settingsSections: SETTINGS_SECTIONS,
      fixtures: [{ file: 'identities', data: { users: [{ id: 'alice', name: 'Alice', permissions: [] }], apiKeys: [{ id: 'alice-key', kind: 'user', key: USER_KEY, userId: 'alice' }] } }],
      scenarios: staticKeys,
    }),
  )
}

const get = (kernel: Awaited<ReturnType<typeof kernelWith>>, path: string, headers: Record<string, string> = {}): Promise<Reply> =>
  kernel.serve({ method: 'GET', url: new URL(path, ORIGIN), headers: new Headers(headers), body: null }, 'in-process')

describe('a route protected by gate.protect', () => {
  it('never runs its resolver for a request without a credential: the gate answers 401', async () => {
    const domain = probe()
    const kernel = await kernelWith(domain)
    const reply = await get(kernel, '/secret')
    expect(reply.status).toBe(401)
    expect(reply.headers.get('www-authenticate')).toBe('Bearer')
    expect(domain.calls).toEqual([])
  })

  it('hands its resolver the identity of a valid credential, with the gate\'s Deprecation header for a static key', async () => {
    const domain = probe()
    const kernel = await kernelWith(domain)
    const reply = await get(kernel, '/secret', { authorization: `Bearer ${USER_KEY}` })
    expect([reply.status, reply.body, reply.headers.get('deprecation')]).toEqual([200, '{"who":"alice"}', 'true'])
    expect(domain.calls.map((c) => c?.kind)).toEqual(['user-api-key'])
  })

  it('is reached by static-keys-rejected, which selects the gate\'s routes (@gated): 401, and the resolver never runs', async () => {
    const domain = probe()
    const kernel = await kernelWith(domain)
    const reply = await get(kernel, '/secret', { authorization: `Bearer ${USER_KEY}`, 'x-svc-mock-scenario': 'static-keys-rejected' })
    expect([reply.status, reply.headers.get('x-svc-mock-scenario')]).toEqual([401, 'static-keys-rejected'])
    expect(JSON.parse(String(reply.body))).toEqual({ error: 'Unauthorized', message: 'Static API keys are no longer supported. Migrate to OAuth 2.0.' })
    expect(domain.calls).toEqual([])
  })

  it('lets a request through without a credential where a conditional requirement says none, and checks the others', async () => {
    const domain = probe()
    const kernel = await kernelWith(domain)
    expect((await get(kernel, '/maybe/yes')).body).toBe('{"who":null}')
    expect((await get(kernel, '/maybe/no')).status).toBe(401)
    expect(domain.calls).toEqual([undefined])
  })
})
