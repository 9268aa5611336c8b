/**
 * JSON Schemas of the file formats users write, generated from the same zod schemas that validate
 * them, so editors can complete and check scenario, fixture and route files and saved states.
 * Published as docs/scenario.schema.json, docs/fixtures.schema.json, docs/routes.schema.json and
 * docs/state.schema.json
 * (`npm run schemas` writes them; a test keeps them in step with the code). Definitions of recursive shapes (a data structure's fields)
 * live in the root's `$defs`, where their `$ref`s resolve.
 */
import type { z } from 'zod'
import { controlSchemas } from './control/index.js'
import { DOMAINS, FIXTURE_SECTIONS, SETTINGS_SECTIONS } from './domains.js'
import type { DomainSchemas } from './kernel/domain.js'
import { documentSchema } from './kernel/saved-state/document.js'
import { convertSchema } from './kernel/docs.js'
import type { JsonObject, JsonValue } from './kernel/json.js'
import { scenarioSchemas } from './kernel/scenarios/schema.js'
import { settingsSchemaOf } from './kernel/settings.js'
import { routeSchemas } from './user-routes/index.js'

type JsonSchema = JsonObject

/** Converts schemas into one document: their definitions gathered in `defs`, named in order. */
class Definitions {
  readonly defs: Record<string, JsonValue> = {}
  readonly #names = new Map<string, string>()

  convert(schema: z.ZodType): JsonSchema {
    const converted = convertSchema(schema, 'input', '#/$defs/', (_key, definition) => {
      const key = JSON.stringify(definition)
      let name = this.#names.get(key)
      if (name === undefined) {
        name = `def${this.#names.size}`
        this.#names.set(key, name)
      }
      return name
    })
    Object.assign(this.defs, converted.definitions)
    return converted.schema
  }

  /** `$defs` for the document, when there are any. */
  section(): { $defs?: Record<string, JsonValue> } {
    return Object.keys(this.defs).length === 0 ? {} : { $defs: this.defs }
  }
}

/**
 * Where the published schemas live (each schema's `$id`): the docs/ folder of the repository
 * package.json names, the same files the package ships.
 */
const SCHEMA_HOME = 'https://raw.githubusercontent.com/svc-mock/svc-mock/main/docs/'

export function scenarioJsonSchema(): JsonSchema {
  const defs = new Definitions()
  const schema = defs.convert(scenarioSchemas().ScenarioFileSchema)
  const properties = schema.properties as Record<string, JsonValue>
  const settings = defs.convert(settingsSchemaOf(SETTINGS_SECTIONS))
  properties.settings = { ...settings, description: 'Settings the scenario changes while it is on; any value may be {"$param": "name"}.' }
  const part = (properties.parts as { items: { properties: Record<string, JsonValue> } } | undefined)?.items
  if (part) part.properties.settings = { ...settings, description: 'Settings this part changes while the scenario is on; any value may be {"$param": "name"}.' }
  return { $schema: 'https://json-schema.org/draft/2020-12/schema', ...schema, $id: `${SCHEMA_HOME}scenario.schema.json`, title: 'svc-mock scenario', ...defs.section() }
}

export function fixturesJsonSchema(): JsonSchema {
  const defs = new Definitions()
  const properties: Record<string, JsonValue> = { $schema: { type: 'string' }, $comment: { type: 'string' } }
  for (const section of FIXTURE_SECTIONS) {
    const item = defs.convert(section.schema as z.ZodType)
    properties[section.name] = section.key === undefined ? item : { type: 'array', items: item }
  }
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: `${SCHEMA_HOME}fixtures.schema.json`,
    title: 'svc-mock fixture document',
    type: 'object',
    properties,
    additionalProperties: false,
    ...defs.section(),
  }
}

export function routesJsonSchema(): JsonSchema {
  const defs = new Definitions()
  const schema = defs.convert(routeSchemas().RoutesDocumentSchema)
  return { $schema: 'https://json-schema.org/draft/2020-12/schema', ...schema, $id: `${SCHEMA_HOME}routes.schema.json`, title: 'svc-mock route file', ...defs.section() }
}

/**
 * The saved-state document: the kernel's members and each domain's part (`parts`: the modules
 * whose parts it has, the emulator's domains by default).
 */
export async function stateJsonSchema(parts: ReadonlyArray<{ readonly name: string; readonly schemas: DomainSchemas }> = [...DOMAINS, { name: 'control', schemas: controlSchemas }]): Promise<JsonSchema> {
  const loaded = await Promise.all(parts.flatMap(({ name, schemas }) => (schemas.saved ? [(async () => ({ name, schema: await (schemas.saved as () => Promise<z.ZodType>)() }))()] : [])))
  const defs = new Definitions()
  const schema = defs.convert(documentSchema(loaded))
  return { $schema: 'https://json-schema.org/draft/2020-12/schema', ...schema, $id: `${SCHEMA_HOME}state.schema.json`, title: 'svc-mock saved state', ...defs.section() }
}
