// Writes docs/scenario.schema.json, docs/fixtures.schema.json, docs/routes.schema.json,
// docs/state.schema.json and docs/openapi.json from the built code (npm run schemas; npm run openapi is the same), and
// src/scenario-names.ts (the built-in scenarios' names, as a type) from scenarios/*.json. The
// OpenAPI document describes the standalone server at its default address.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createEmulator } from '../dist/index.js'
import { fixturesJsonSchema, routesJsonSchema, scenarioJsonSchema, stateJsonSchema } from '../dist/json-schemas.js'

const docs = new URL('../docs/', import.meta.url)
writeFileSync(new URL('scenario.schema.json', docs), `${JSON.stringify(scenarioJsonSchema(), null, 2)}\n`)
writeFileSync(new URL('fixtures.schema.json', docs), `${JSON.stringify(fixturesJsonSchema(), null, 2)}\n`)
writeFileSync(new URL('routes.schema.json', docs), `${JSON.stringify(routesJsonSchema(), null, 2)}\n`)
writeFileSync(new URL('state.schema.json', docs), `${JSON.stringify(await stateJsonSchema(), null, 2)}\n`)
const emu = await createEmulator({ origin: 'http://127.0.0.1:4010' })
writeFileSync(new URL('openapi.json', docs), `${JSON.stringify(await emu.openapi(), null, 2)}\n`)
await emu.close()
const scenarios = new URL('../scenarios/', import.meta.url)
const names = readdirSync(scenarios)
  .filter((file) => file.endsWith('.json'))
  .map((file) => JSON.parse(readFileSync(new URL(file, scenarios), 'utf8')).name)
  .sort()
writeFileSync(
  new URL('../src/scenario-names.ts', import.meta.url),
  `/**
 * The built-in scenarios' names, as a type: \`emu.scenarios.use('webhook-queue-ful')\` is a type error.
 * Generated from scenarios/*.json by \`npm run schemas\`; test/unit/scenario-names.test.ts keeps it in
 * step with the files.
 */
export type BuiltInScenarioName =
${names.map((name) => `  | '${name}'`).join('\n')}
`,
)
console.log('wrote docs/scenario.schema.json, docs/fixtures.schema.json, docs/routes.schema.json, docs/state.schema.json, docs/openapi.json and src/scenario-names.ts')
