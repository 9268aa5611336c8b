/**
 * JSON Schemas of the two file formats users write, generated from the same zod schemas that
 * validate them, so editors can complete and check scenario and fixture files. Published as
 * docs/scenario.schema.json and docs/fixtures.schema.json (`npm run schemas` writes them; a test
 * keeps them in step with the code).
 */
import * as z from 'zod'
import { FIXTURE_SECTIONS, settingsSchema } from './emulator.js'
import { ScenarioFileSchema } from './kernel/scenarios/schema.js'

type JsonSchema = Record<string, unknown>

function toJson(schema: z.ZodType): JsonSchema {
  return z.toJSONSchema(schema, { unrepresentable: 'any', io: 'input' }) as JsonSchema
}

export function scenarioJsonSchema(): JsonSchema {
  const schema = toJson(ScenarioFileSchema)
  const properties = schema.properties as Record<string, JsonSchema>
  const { $schema: _drop, ...settings } = toJson(settingsSchema())
  properties.settings = { ...settings, description: 'Settings the scenario changes while it is on; any value may be {"$param": "name"}.' }
  const part = (properties.parts as { items: { properties: Record<string, JsonSchema> } } | undefined)?.items
  if (part) part.properties.settings = { ...settings, description: "Settings this part changes while the scenario is on; any value may be {\"$param\": \"name\"}." }
  return { ...schema, $id: 'https://svc-mock.dev/scenario.schema.json', title: 'svc-mock scenario' }
}

export function fixturesJsonSchema(): JsonSchema {
  const properties: Record<string, JsonSchema> = { $schema: { type: 'string' }, $comment: { type: 'string' } }
  for (const section of FIXTURE_SECTIONS) {
    const { $schema: _drop, ...item } = toJson(section.schema)
    properties[section.name] = section.key === undefined ? item : { type: 'array', items: item }
  }
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'https://svc-mock.dev/fixtures.schema.json',
    title: 'svc-mock fixture document',
    type: 'object',
    properties,
    additionalProperties: false,
  }
}
