/**
 * What only the in-process use has: per-test scenario boundaries that concurrent tests cannot
 * see, separate origins, options checked at creation, determinism by seed.
 */
import { setupServer } from 'msw/node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ConfigError, createEmulator, FixtureError, ScenarioError } from '../../src/index.js'
import { APP_KEY, VERSIONS } from '../support/harness.js'

describe('per-test scenarios (boundary)', async () => {
  const emu = await createEmulator({ clock: 'manual' })
  const server = setupServer(...emu.handlers)
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
  afterAll(() => server.close())
  const url = `${emu.urls.base}${VERSIONS()}`

  it('keeps each concurrent test to its own scenarios', async () => {
    const order: string[] = []
    const testA = emu.scenarios.boundary(async () => {
      emu.scenarios.use('versions-not-found')
      await new Promise((resolve) => setImmediate(resolve))
      const status = (await fetch(url, { headers: APP_KEY })).status
      order.push(`A:${status}`)
      return status
    })
    const testB = emu.scenarios.boundary(async () => {
      emu.scenarios.use('versions-server-error')
      const status = (await fetch(url, { headers: APP_KEY })).status
      order.push(`B:${status}`)
      return status
    })
    const testC = emu.scenarios.boundary(async () => (await fetch(url, { headers: APP_KEY })).status)
    const [a, b, c] = await Promise.all([testA(), testB(), testC()])
    expect([a, b, c]).toEqual([404, 500, 200])
    expect(order.sort()).toEqual(['A:404', 'B:500'])
    expect(emu.scenarios.list().every((s) => !s.active)).toBe(true)
    expect((await fetch(url, { headers: APP_KEY })).status).toBe(200)
  })

  it('lets a boundary switch off, for itself only, a scenario the run has on', async () => {
    emu.scenarios.use('versions-not-found')
    try {
      const inside = await emu.scenarios.boundary(async () => {
        emu.scenarios.off('versions-not-found')
        return (await fetch(url, { headers: APP_KEY })).status
      })()
      expect(inside).toBe(200)
      expect((await fetch(url, { headers: APP_KEY })).status).toBe(404)
    } finally {
      emu.scenarios.off('versions-not-found')
    }
  })

  it('accepts the text form with parameters in use()', async () => {
    await emu.scenarios.boundary(async () => {
      emu.scenarios.use('latency:ms=300')
      const pending = fetch(url, { headers: APP_KEY })
      await emu.clock.waitForParked(1)
      await emu.clock.advance(300)
      expect((await pending).status).toBe(200)
    })()
  })

  it('answers without any transport through emu.handle()', async () => {
    const response = await emu.handle(new Request(url, { headers: APP_KEY }))
    expect(response.status).toBe(200)
    expect(((await response.json()) as { count: number }).count).toBe(3)
  })
})

describe('separate origins', async () => {
  const emu = await createEmulator({ authUrl: 'https://auth.acme.test', baseUrl: 'https://api.acme.test', webhookUrl: 'https://hooks.acme.test' })
  const server = setupServer(...emu.handlers)
  beforeAll(() => server.listen({ onUnhandledRequest: 'bypass' }))
  afterAll(() => server.close())

  it('serves the REST API and the control plane on baseUrl, and links to it', async () => {
    const response = await fetch(`https://api.acme.test${VERSIONS()}`, { headers: APP_KEY })
    expect(response.status).toBe(200)
    const body = (await response.json()) as { elements: Array<{ related: { author: Array<{ expandUri: string }> } }> }
    expect(body.elements[0]?.related.author[0]?.expandUri).toMatch(/^https:\/\/api\.acme\.test\//)
    expect((await fetch('https://api.acme.test/__svc-mock/health')).status).toBe(200)
    expect(emu.urls).toEqual({ auth: 'https://auth.acme.test', base: 'https://api.acme.test', webhook: 'https://hooks.acme.test' })
  })

  it('does not serve the REST API on the other origins', async () => {
    const response = await fetch(`https://hooks.acme.test${VERSIONS()}`, { headers: APP_KEY })
    expect(response.status).toBe(404)
  })

})

describe('the msw handlers', async () => {
  const emu = await createEmulator({ authUrl: 'https://auth.acme.test', baseUrl: 'https://api.acme.test', webhookUrl: 'https://hooks.acme.test' })
  const server = setupServer(...emu.handlers)
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
  afterAll(() => server.close())

  it('are one per origin, each naming its origin', () => {
    expect(server.listHandlers().map((h) => ('info' in h ? h.info.header : h.constructor.name))).toEqual(['svc-mock https://auth.acme.test/*', 'svc-mock https://api.acme.test/*', 'svc-mock https://hooks.acme.test/*'])
  })

  it('take every method and path on their origin, leaving the answer to the emulator', async () => {
    const put = await fetch(`https://api.acme.test${VERSIONS()}`, { method: 'PUT', headers: APP_KEY })
    expect(put.status).toBe(405)
    expect(put.headers.get('allow')).toContain('GET')
    expect((await fetch('https://api.acme.test/nope')).status).toBe(404)
    // The bare origin with a query is the origin's root path.
    expect((await fetch('https://api.acme.test?x=1')).status).toBe(404)
  })

  it('take nothing on a host that only begins with an origin\'s host', async () => {
    await expect(fetch('https://api.acme.test.example/__svc-mock/health')).rejects.toThrow()
  })
})

describe('options and fixtures are checked at creation', () => {
  it('names a bad option', async () => {
    await expect(createEmulator({ origin: 'not a url' })).rejects.toThrow(ConfigError)
    await expect(createEmulator({ seed: -1 })).rejects.toThrow(/Invalid option seed/)
    await expect(createEmulator({ clock: { mode: 'real', timeScale: 0 } })).rejects.toThrow(/Invalid option clock.timeScale/)
    // @ts-expect-error not a list key: a type error, and refused at run time too
    await expect(createEmulator({ settings: { versions: { listKey: 'items' } } })).rejects.toThrow(/settings\.versions\.listKey/)
    await expect(createEmulator({ versionsScope: '' })).rejects.toThrow(/Invalid option versionsScope/)
    // @ts-expect-error not text: refused at run time too, naming the option
    await expect(createEmulator({ versionsScope: 5 })).rejects.toThrow(/Invalid option versionsScope/)
  })

  it('makes valid settings from every option that sets one (the tree is checked in full once a run gives settings)', async () => {
    const options = { tokenAlgorithm: 'ES256', tokenLifetime: 60, consent: 'page', staticKeys: 'rejected', versionListKey: 'both', versionsScope: 'studio' } as const
    const emu = await createEmulator({ ...options, settings: { webhooks: {} } })
    const res = await emu.handle(new Request(`${emu.urls.base}${VERSIONS()}`, { headers: { authorization: `AppKey ${APP_KEY}` } }))
    expect(res.status).toBe(401)
  })

  it('names the file, path and rule of a bad fixture (inline documents are numbered)', async () => {
    const error = await createEmulator({
      fixtures: [{ elements: [{ storage: 'acme-collection/acme-tenant', facet: 'processes', id: 'x', type: 'process', versions: [] }] }],
    }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(FixtureError)
    expect(error).toMatchObject({ file: 'inline fixtures #1', path: 'elements[0].id', rule: 'must be a GUID' })
  })

  it('names an unknown member of a fixture record and the closest known member (users[0]: unknown member "idd" (did you mean "id"?)), and takes $schema and $comment beside the sections', async () => {
    // @ts-expect-error a misspelt member: a type error, and refused at run time too
    const error = await createEmulator({ fixtures: [{ users: [{ idd: 'dave', name: 'Dave', permissions: [] }] }] }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(FixtureError)
    expect(error).toMatchObject({ path: 'users[0]', rule: 'unknown member "idd" (did you mean "id"?)' })
    expect((error as Error).message).toContain('users[0]: unknown member "idd" (did you mean "id"?)')
    await expect(createEmulator({ fixtures: [{ elemnts: [] } as never] })).rejects.toThrow(/at elemnts: unknown section \(did you mean "elements"\?\)/)
    const emu = await createEmulator({ fixtures: [{ $schema: '../node_modules/svc-mock/docs/fixtures.schema.json', $comment: 'Dave', users: [{ id: 'dave', name: 'Dave', permissions: [] }] }] })
    expect(emu.users.list().map((u) => u.id)).toContain('dave')
    await emu.close()
  })

  it('refuses an unknown section and a reference to an unknown storage', async () => {
    // @ts-expect-error a misspelt section: a type error, and refused at run time too
    await expect(createEmulator({ fixtures: [{ element: [] }] })).rejects.toThrow(/at element: unknown section/)
    await expect(
      createEmulator({
        fixtures: [{ elements: [{ storage: 'x/y', facet: 'processes', id: '11111111-2222-4333-8444-555555555555', type: 'p', versions: [{ state: 'released' }] }] }],
      }),
    ).rejects.toThrow(/elements\[0\]\.storage: names storage "x\/y", which no fixture defines/)
  })

  it('refuses a scenario definition that breaks the format, naming the field', async () => {
    await expect(createEmulator({ scenarioDefinitions: [{ name: 'mine', description: 'x', rules: [{ delay: -1 }] }] })).rejects.toThrow(ScenarioError)
    await expect(createEmulator({ scenarioDefinitions: [{ name: 'mine', description: 'x', rules: [{ route: 'versions.list', error: 'teapot' }] }] })).rejects.toThrow(
      /rules\[0\]\.error: no route it targets knows the error "teapot"/,
    )
  })

  it('refuses a scenario aimed at a route that does not exist (rule, routes, part aim), naming the closest', async () => {
    const refusals: Array<[object, RegExp]> = [
      [{ rules: [{ route: 'version.*', delay: 5 }] }, /at rules\[0\]\.route: "version\.\*" matches no route \(did you mean "versions\.\*"\?/],
      [{ rules: [{ route: ['auth.token', 'versions.lst'], delay: 5 }] }, /at rules\[0\]\.route\[1\]: "versions\.lst" matches no route \(did you mean "versions\.list"\?/],
      [{ routes: 'webhook.receive', settings: {} }, /at routes: "webhook\.receive" matches no route \(did you mean "webhooks\.receive"\?/],
      [{ parts: [{ aim: { route: 'auth.tokn' }, rules: [{ delay: 5 }] }] }, /at parts\[0\]\.aim\.route: "auth\.tokn" matches no route \(did you mean "auth\.token"\?/],
    ]
    for (const [shape, message] of refusals) {
      await expect(createEmulator({ scenarioDefinitions: [{ name: 'mine', description: 'x', ...shape }] })).rejects.toThrow(message)
    }
    const control = await createEmulator({ scenarioDefinitions: [{ name: 'mine', description: 'x', rules: [{ route: 'control.health', delay: 5 }] }] }).catch((error: unknown) => error)
    expect(String(control)).toMatch(/"control\.health" matches no route/)
    const fine = await createEmulator({ scenarioDefinitions: [{ name: 'mine', description: 'x', rules: [{ route: ['versions', 'auth.*', '*', 'webhooks.receive'], delay: 5 }] }] })
    await fine.close()
  })

  it('a scenario field of the wrong type says what it expects', async () => {
    await expect(createEmulator({ scenarioDefinitions: [{ name: 'mine', description: 'x', rules: [{ delay: 'long' as unknown as number }] }] })).rejects.toThrow(
      /rules\[0\]\.delay: expected a number or \{"\$param": "<parameter name>"\}, received string/,
    )
    await expect(createEmulator({ scenarioDefinitions: [{ name: 'mine', description: 'x', rules: [{ fault: 'explode' as 'cut-body' }] }] })).rejects.toThrow(
      /rules\[0\]\.fault: expected one of "network-error", "empty-reply", "cut-body" or \{"\$param": "<parameter name>"\}, received string/,
    )
  })

  it('adds your own fixtures on top of the defaults, replacing records with the same key', async () => {
    const emu = await createEmulator({
      fixtures: [{ apiKeys: [{ id: 'default-app-key', kind: 'app', key: 'my-own-app-key', permissions: [] }] }],
    })
    expect(emu.apiKeys.list().filter((k) => k.id === 'default-app-key')).toHaveLength(1)
    const refused = await emu.handle(new Request(`${emu.urls.base}${VERSIONS()}`, { headers: { authorization: 'AppKey my-own-app-key' } }))
    expect(refused.status).toBe(403)
  })
})

describe('determinism', () => {
  it('gives the same generated elements and ids for the same seed, and others for another seed', async () => {
    const ids = async (seed: number): Promise<string[]> =>
      (await createEmulator({ seed })).elements.list().flatMap((e) => [e.id, ...e.versions.map((v) => `${v.versionId}:${v.state}`)])
    const [a, b, c] = await Promise.all([ids(42), ids(42), ids(43)])
    expect(a).toEqual(b)
    expect(a).not.toEqual(c)
    expect(a.length).toBeGreaterThan(40)
  })

  it('generates as many elements as the fixture asks', async () => {
    const emu = await createEmulator({ fixtures: [{ generate: { elements: 250 } }] })
    expect(emu.elements.list({ facet: 'processes' })).toHaveLength(252) // 250 generated, the seed element and the default sub-process
  })
})
