/** Scenario files: validation errors name the file, the field and the rule. */
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ScenarioError } from '../../src/kernel/errors.js'
import { ScenarioCatalogue } from '../../src/kernel/scenarios/catalogue.js'
import { ScenarioEngine } from '../../src/kernel/scenarios/engine.js'
import { builtInScenarios } from '../../src/defaults.js'
import { createEmulator } from '../../src/index.js'

const noSettings = (): undefined => undefined

function write(dir: string, name: string, content: unknown): string {
  const path = join(dir, name)
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content))
  return path
}

describe('ScenarioCatalogue', () => {
  it.each([
    [{ description: 'x' }, 'name', /expected string/],
    [{ name: 'Bad Name', description: 'x' }, 'name', /lower-case letters/],
    [{ name: 'a', description: 'x', rules: [{ fault: 'explode' }] }, 'rules[0].fault', /expected one of "network-error", "empty-reply", "cut-body" or \{"\$param": "<parameter name>"\}, received string/],
    [{ name: 'a', description: 'x', rules: [{ delay: 'long' }] }, 'rules[0].delay', /^expected a number or \{"\$param": "<parameter name>"\}, received string$/],
    [{ name: 'a', description: 'x', rules: [{ every: 1.5 }] }, 'rules[0].every', /^expected a whole number or \{"\$param": "<parameter name>"\}, received number$/],
    [{ name: 'a', description: 'x', routes: 7 }, 'routes', /^expected a string or an array, received number$/],
    [{ name: 'a', description: 'x', rules: [{ delay: { $param: 'ms' } }] }, 'rules[0].delay', /refers to parameter "ms"/],
    [{ name: 'a', description: 'x', rules: [{ fault: 'network-error', error: 'not-found' }] }, 'rules[0]', /at most one of/],
    [{ name: 'a', description: 'x', colour: 'red' }, '', /unknown member "colour"/],
    [{ name: 'a', description: 'x', params: { ms: { type: 'number' } } }, 'params.ms', /is required/],
  ])('names the field of %j', (content, path, rule) => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-mock-scenarios-'))
    const file = write(dir, 'bad.json', content)
    const catalogue = new ScenarioCatalogue(noSettings)
    const error = (() => {
      try {
        catalogue.addFile(file)
      } catch (e) {
        return e
      }
      return undefined
    })()
    expect(error).toBeInstanceOf(ScenarioError)
    expect(error).toMatchObject({ file, path })
    expect((error as ScenarioError).rule).toMatch(rule)
  })

  it('names an unknown member and the closest known one, before what its absence leaves missing', () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-mock-scenarios-'))
    const cases: Array<[object, string, string]> = [
      [{ nme: 'a', description: 'x' }, '', 'unknown member "nme" (did you mean "name"?)'],
      [{ name: 'a', description: 'x', rules: [{ rout: 'auth.*', delay: 5 }] }, 'rules[0]', 'unknown member "rout" (did you mean "route"?)'],
      [{ name: 'a', description: 'x', zzz: 1 }, '', 'unknown member "zzz" (known members: $schema, name, description, summary, params, routes, settings, rules, parts)'],
    ]
    for (const [content, path, rule] of cases) {
      const file = write(dir, 'typo.json', content)
      expect(() => new ScenarioCatalogue(noSettings).addFile(file)).toThrow(expect.objectContaining({ path, rule }))
    }
  })

  it('says when a file is not JSON, and when a folder does not exist', () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-mock-scenarios-'))
    write(dir, 'broken.json', '{"name": ')
    const catalogue = new ScenarioCatalogue(noSettings)
    expect(() => catalogue.addDir(dir)).toThrow(/broken\.json: is not valid JSON/)
    expect(() => catalogue.addDir(join(dir, 'missing'))).toThrow(/cannot be read/)
  })

  it('checks settings against the domains, naming the settings path', () => {
    const catalogue = new ScenarioCatalogue((tree) => ('auth' in tree ? { path: 'auth.staticKeys', rule: 'Invalid option' } : undefined))
    expect(() => catalogue.add({ name: 'a', description: 'x', settings: { auth: { staticKeys: 'maybe' } } }, 'mine.json')).toThrow(
      'Invalid scenario mine.json at settings.auth.staticKeys: Invalid option',
    )
  })
})

describe('ScenarioEngine.decide', () => {
  const catalogue = new ScenarioCatalogue(noSettings)
  catalogue.add({ name: 'slow', description: 'x', params: { ms: { type: 'number', default: 100 } }, rules: [{ route: '*', delay: { $param: 'ms' } }] })
  catalogue.add({ name: 'gone', description: 'x', rules: [{ route: 'versions.list', error: 'not-found' }] })
  catalogue.add({ name: 'broken', description: 'x', rules: [{ route: 'versions.*', error: 'server-error' }] })
  catalogue.add({ name: 'strict', description: 'x', routes: 'versions.*', settings: { auth: { staticKeys: 'rejected' } } })
  catalogue.add({ name: 'hook-only', description: 'x', rules: [{ route: 'webhooks.*', fault: 'network-error' }] })

  it('adds up delays, and lets the later activation answer', () => {
    const engine = new ScenarioEngine(catalogue, () => ({}))
    engine.use('gone')
    engine.use('slow', { params: { ms: 30 } })
    engine.use('broken')
    const decision = engine.decide({ id: 'versions.list' }, 'GET', {}, engine.activate('slow', { params: { ms: 5 } }, 'request'))
    expect(decision.delayMs).toBe(35)
    expect(decision.outcome).toMatchObject({ kind: 'error', code: 'server-error', scenario: 'broken' })
    expect(decision.scenarios).toEqual(['gone', 'slow', 'broken', 'slow'])
  })

  it('applies settings only to the routes the scenario touches', () => {
    const engine = new ScenarioEngine(catalogue, () => ({ auth: { staticKeys: 'allowed' } }))
    engine.use('strict')
    expect(engine.decide({ id: 'versions.list' }, 'GET', {}, []).settings).toEqual({ auth: { staticKeys: 'rejected' } })
    expect(engine.decide({ id: 'auth.token' }, 'POST', {}, []).settings).toEqual({ auth: { staticKeys: 'allowed' } })
  })

  it('matches targets: a webhook-targeted scenario ignores other webhooks', () => {
    const engine = new ScenarioEngine(catalogue, () => ({}))
    engine.use('hook-only', { targets: { webhook: 'orders' } })
    expect(engine.decide({ id: 'webhooks.receive' }, 'POST', { webhook: 'uploads' }, []).outcome).toBeUndefined()
    expect(engine.decide({ id: 'webhooks.receive' }, 'POST', { webhook: 'orders' }, []).outcome).toMatchObject({ kind: 'fault' })
  })

  it('switches itself off after `times` requests and tells listeners', () => {
    const engine = new ScenarioEngine(catalogue, () => ({}))
    const events: string[] = []
    engine.onChange((e) => events.push(`${e.name}:${e.on ? 'on' : 'off'}`))
    engine.use('gone', { times: 1 })
    expect(engine.decide({ id: 'auth.token' }, 'POST', {}, []).outcome).toBeUndefined()
    const last = engine.decide({ id: 'versions.list' }, 'GET', {}, [])
    expect(last.outcome).toBeDefined()
    expect(last.usedUp).toEqual(['gone'])
    expect(events).toEqual(['gone:on'])
    expect(engine.decide({ id: 'versions.list' }, 'GET', {}, []).outcome).toBeUndefined()
    engine.announce(last.usedUp)
    expect(events).toEqual(['gone:on', 'gone:off'])
  })
})

describe('the scenario library (the built-in scenarios)', () => {
  const definition = (name: string, description: string, source: string): { name: string; description: string; source: string } => ({ name, description, source })

  it('is read when a scenario is first looked up, and the definitions added directly replace its own', () => {
    let reads = 0
    const catalogue = new ScenarioCatalogue(noSettings)
    catalogue.setLibrary(() => {
      reads++
      return [definition('slow', 'library', 'lib'), definition('down', 'library', 'lib')]
    })
    catalogue.addValidated([definition('slow', 'mine, before', 'inline')])
    expect(reads).toBe(0)
    expect(catalogue.get('slow').description).toBe('mine, before')
    catalogue.add({ name: 'down', description: 'mine, after' })
    expect(catalogue.names()).toEqual(['down', 'slow'])
    expect(catalogue.get('down').description).toBe('mine, after')
    expect(reads).toBe(1)
  })

  it('is not checked against the routes with the definitions added directly', () => {
    const catalogue = new ScenarioCatalogue(noSettings)
    catalogue.setLibrary(() => [{ name: 'nowhere', description: 'x', source: 'lib', routes: 'no.such.route' }])
    expect(() => catalogue.checkRoutes([])).not.toThrow()
    catalogue.add({ name: 'mine', description: 'x', routes: 'no.such.route' })
    expect(() => catalogue.checkRoutes([])).toThrow(ScenarioError)
  })

  it("holds built-in scenarios that each aim at routes the emulator serves (given as a run's own, they are checked at creation)", async () => {
    const builtIn = builtInScenarios()
    expect(builtIn.length).toBeGreaterThan(10)
    const emu = await createEmulator({ clock: 'manual', scenarioDefinitions: builtIn.map(({ source: _source, ...definition }) => definition) })
    expect(emu.scenarios.list().map((s) => s.name)).toEqual(builtIn.map((s) => s.name).sort())
  })
})
