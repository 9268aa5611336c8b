/**
 * The kernel's two general route capabilities: a domain whose route list changes at run time
 * (`kernel.routesChanged()` builds the route table again), and a domain's fallback, which answers
 * requests for paths no route serves instead of the 404, but never a path the emulator serves on
 * another method, nor one under the control plane's prefix.
 */
import * as z from 'zod'
import { describe, expect, it } from 'vitest'
import { Clock } from '../../src/kernel/clock.js'
import type { Domain, DomainModule } from '../../src/kernel/domain.js'
import { Journal } from '../../src/kernel/journal.js'
import { type Kernel, type KernelState, createKernel } from '../../src/kernel/kernel.js'
import { createLogger } from '../../src/kernel/logger.js'
import { Redactor } from '../../src/kernel/redact.js'
import { json } from '../../src/kernel/reply.js'
import type { RouteDefinition } from '../../src/kernel/route.js'
import { ScenarioCatalogue, scenarioCatalogue } from '../../src/kernel/scenarios/catalogue.js'
import { ScenarioEngine } from '../../src/kernel/scenarios/engine.js'
import { Pipeline } from '../../src/kernel/serve.js'
import { kernelSetup } from '../support/kernel.js'

const ORIGIN = 'https://emu.test'
const request = (method: string, path: string): { method: string; url: URL; headers: Headers; body: null } => ({ method, url: new URL(path, ORIGIN), headers: new Headers(), body: null })

const route = (id: string, method: RouteDefinition['method'], path: string, extra: Partial<RouteDefinition> = {}): RouteDefinition => ({
  id,
  method,
  path,
  origin: 'base',
  summary: id,
  resolve: () => json({ route: id }),
  ...extra,
})

function pipeline(routes: RouteDefinition[], fallback?: RouteDefinition): { pipeline: Pipeline; journal: Journal } {
  const clock = new Clock({ mode: 'manual' })
  const journal = new Journal(clock, new Redactor(), 10)
  const services = {
    clock,
    journal,
    scenarios: new ScenarioEngine(new ScenarioCatalogue(() => undefined), () => ({})),
    logger: createLogger('silent', () => undefined, () => undefined),
    settings: () => ({}),
    origins: { base: ORIGIN },
    targets: [],
    routeList: 'GET /routes',
  }
  return { pipeline: new Pipeline(services, routes, fallback), journal }
}

describe('a fallback route', () => {
  const routes = [route('things.list', 'GET', '/things'), route('control.health', 'GET', '/__own/health', { control: true })]
  const fallback = route('proxied', '*', '/*')

  it('answers a path no route serves, and the journal names it', async () => {
    const { pipeline: p, journal } = pipeline(routes, fallback)
    const reply = await p.serve(request('POST', '/elsewhere/1'), 'server')
    expect(reply.status).toBe(200)
    expect(reply.body).toBe('{"route":"proxied"}')
    expect(journal.list().map((e) => e.route)).toEqual(['proxied'])
    expect(p.routeIds()).toContain('proxied')
  })

  it('never answers a path a route serves on another method (405), nor one under the control prefix (404)', async () => {
    const { pipeline: p } = pipeline(routes, fallback)
    expect((await p.serve(request('DELETE', '/things'), 'server')).status).toBe(405)
    const own = await p.serve(request('GET', '/__own/nothing'), 'server')
    expect(own.status).toBe(404)
    expect(String(own.body)).toContain('has no route for GET /__own/nothing')
  })

  it('leaves the 404 "Not emulated" as it is when no domain gives one', async () => {
    const { pipeline: p } = pipeline(routes)
    const reply = await p.serve(request('GET', '/elsewhere'), 'server')
    expect(reply.status).toBe(404)
    expect(JSON.parse(String(reply.body))).toMatchObject({ error: 'Not emulated', path: '/elsewhere' })
  })
})

describe('the prefix the control routes reserve', () => {
  const greedy = [route('any.two', 'GET', '/:a/:b'), route('any.one', '*', '/:a'), route('control.health', 'GET', '/__own/health', { control: true })]

  it('is matched before any other route, even one registered earlier whose pattern matches the path', async () => {
    const { pipeline: p } = pipeline(greedy)
    expect((await p.serve(request('GET', '/__own/health'), 'server')).body).toBe('{"route":"control.health"}')
    expect((await p.serve(request('GET', '/tenant/health'), 'server')).body).toBe('{"route":"any.two"}')
  })

  it('answers a path under it no control route serves with the control plane\'s 404 or 405, never another route or the fallback', async () => {
    const { pipeline: p, journal } = pipeline(greedy, route('proxied', '*', '/*'))
    const missing = await p.serve(request('GET', '/__own/other'), 'server')
    expect(missing.status).toBe(404)
    expect(JSON.parse(String(missing.body))).toMatchObject({ error: 'Not Found', closest: 'GET /__own/health (control.health)' })
    expect((await p.serve(request('POST', '/__own/health'), 'server')).status).toBe(405)
    expect((await p.serve(request('GET', '/__own'), 'server')).status).toBe(404)
    expect(journal.list().map((e) => e.route)).toEqual(['unmatched', 'unmatched', 'unmatched'])
  })

  it('is a control route\'s fixed first segment: one that begins with a parameter is refused', () => {
    expect(() => pipeline([route('control.bad', 'GET', '/:x/state', { control: true })])).toThrow(/must begin with a fixed segment/)
  })
})

describe('a domain whose routes change at run time', () => {
  /** A domain that serves whatever is in its list, and tells the kernel when the list changes. */
  function growing(): { module: DomainModule<'growing'>; add(definition: RouteDefinition): void; seen(): string[] } {
    const first = route('first.read', 'GET', '/first')
    let list: RouteDefinition[] = [first]
    let changed: (() => void) | undefined
    let others: () => readonly RouteDefinition[] = () => []
    const module: DomainModule<'growing'> = {
      name: 'growing',
      // It keeps state (its list): a saved state holds none of it here.
      schemas: { fixtures: [], saved: async () => z.strictObject({}) },
      define: ({ kernel }): Domain => {
        changed = kernel.routesChanged
        others = kernel.routes
        return {
          get routes() {
            return list
          },
          saved: async () => ({ save: () => ({}), prepare: async () => ({ apply: () => undefined }) }),
          reset: async () => {
            list = [first]
            kernel.routesChanged()
          },
        }
      },
    }
    return {
      module,
      add: (definition) => {
        list = [...list, definition]
        changed?.()
      },
      seen: () => others().map((r) => r.id),
    }
  }

  async function kernelWith(domain: ReturnType<typeof growing>): Promise<Kernel<KernelState, object, { base: string }, object>> {
    const control: DomainModule<'control'> = { name: 'control', schemas: { fixtures: [] }, define: () => ({ routes: [route('control.health', 'GET', '/__own/health', { control: true })] }) }
    return await createKernel(
      kernelSetup({ base: ORIGIN }, [domain.module, control], {
        scenarios: [scenarioCatalogue([]).add({ name: 'slow', description: 'Late answers.', rules: [{ route: '*', delay: 10 }] })],
      }),
    )
  }

  it('serves a route added after start, lists it, and lets scenarios and journal filters name it', async () => {
    const domain = growing()
    const emu = await kernelWith(domain)
    expect((await emu.serve(request('GET', '/late'), 'server')).status).toBe(404)
    expect(() => emu.scenarios.use('slow', { route: 'late.read' })).toThrow(/no route "late.read"/)
    domain.add(route('late.read', 'GET', '/late'))
    expect((await emu.serve(request('GET', '/late'), 'server')).body).toBe('{"route":"late.read"}')
    expect(emu.routes().map((r) => r.id)).toEqual(['first.read', 'late.read', 'control.health'])
    expect(domain.seen()).toEqual(['first.read', 'late.read', 'control.health'])
    expect(emu.journal.list({ route: 'late.read' })).toHaveLength(1)
    emu.scenarios.use('slow', { route: 'late.read' })
    expect(emu.scenarios.list().find((s) => s.name === 'slow')?.active).toBe(true)
  })

  it('forgets the route once the domain takes it back (reset)', async () => {
    const domain = growing()
    const emu = await kernelWith(domain)
    domain.add(route('late.read', 'GET', '/late'))
    await emu.reset()
    expect((await emu.serve(request('GET', '/late'), 'server')).status).toBe(404)
    expect(emu.routes().map((r) => r.id)).toEqual(['first.read', 'control.health'])
  })
})
