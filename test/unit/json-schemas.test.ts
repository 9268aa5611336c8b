/** The published JSON Schemas match the zod schemas that validate the files. */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { fixturesJsonSchema, routesJsonSchema, scenarioJsonSchema, stateJsonSchema } from '../../src/json-schemas.js'

const read = (name: string): unknown => JSON.parse(readFileSync(new URL(`../../docs/${name}`, import.meta.url), 'utf8'))

describe('published JSON Schemas', () => {
  it('docs/scenario.schema.json is current (run `npm run schemas` after changing the format)', () => {
    expect(read('scenario.schema.json')).toEqual(scenarioJsonSchema())
  })

  it('docs/fixtures.schema.json is current (run `npm run schemas` after changing the format)', () => {
    expect(read('fixtures.schema.json')).toEqual(fixturesJsonSchema())
  })

  it('docs/routes.schema.json is current (run `npm run schemas` after changing the format)', () => {
    expect(read('routes.schema.json')).toEqual(routesJsonSchema())
  })

  it('docs/state.schema.json is current (run `npm run schemas` after changing a part of a saved state)', async () => {
    expect(read('state.schema.json')).toEqual(await stateJsonSchema())
  })

  it('describes every member of a saved state, each domain\'s part among them', async () => {
    const state = (await stateJsonSchema()) as { properties: Record<string, unknown>; required: string[]; additionalProperties: boolean }
    expect(Object.keys(state.properties)).toEqual(['$schema', 'svcMockState', 'version', 'exportedAt', 'note', 'seed', 'fixtures', 'urls', 'kernel', 'auth', 'versions', 'webhooks', 'userRoutes', 'control'])
    expect(state.required).toEqual(['svcMockState', 'version', 'exportedAt', 'note', 'seed', 'fixtures', 'urls', 'kernel'])
    expect(state.additionalProperties).toBe(false)
  })

  it('describes the parts an editor needs', () => {
    const scenario = scenarioJsonSchema() as { properties: Record<string, unknown>; required: string[] }
    expect(scenario.required).toEqual(expect.arrayContaining(['name', 'description']))
    expect(Object.keys(scenario.properties)).toEqual(expect.arrayContaining(['params', 'settings', 'rules']))
    const fixtures = fixturesJsonSchema() as { properties: Record<string, unknown> }
    expect(Object.keys(fixtures.properties)).toEqual(expect.arrayContaining(['users', 'apiKeys', 'storages', 'elements', 'generate']))
    const routes = routesJsonSchema() as { properties: { routes: { items: { properties: Record<string, { enum?: string[]; not?: object }>; required: string[] } } } }
    const route = routes.properties.routes.items
    expect(route.required).toEqual(['id', 'method', 'path'])
    expect(route.properties.method?.enum).toEqual(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'])
    // A file cannot hold a function: `resolve` is never valid in one.
    expect(route.properties.resolve?.not).toEqual({})
  })
})
