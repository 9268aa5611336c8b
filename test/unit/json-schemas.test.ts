/** The published JSON Schemas match the zod schemas that validate the files. */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { fixturesJsonSchema, scenarioJsonSchema } from '../../src/json-schemas.js'

const read = (name: string): unknown => JSON.parse(readFileSync(new URL(`../../docs/${name}`, import.meta.url), 'utf8'))

describe('published JSON Schemas', () => {
  it('docs/scenario.schema.json is current (run `npm run schemas` after changing the format)', () => {
    expect(read('scenario.schema.json')).toEqual(scenarioJsonSchema())
  })

  it('docs/fixtures.schema.json is current (run `npm run schemas` after changing the format)', () => {
    expect(read('fixtures.schema.json')).toEqual(fixturesJsonSchema())
  })

  it('describes the parts an editor needs', () => {
    const scenario = scenarioJsonSchema() as { properties: Record<string, unknown>; required: string[] }
    expect(scenario.required).toEqual(expect.arrayContaining(['name', 'description']))
    expect(Object.keys(scenario.properties)).toEqual(expect.arrayContaining(['params', 'settings', 'rules']))
    const fixtures = fixturesJsonSchema() as { properties: Record<string, unknown> }
    expect(Object.keys(fixtures.properties)).toEqual(expect.arrayContaining(['users', 'apiKeys', 'storages', 'elements', 'generate']))
  })
})
