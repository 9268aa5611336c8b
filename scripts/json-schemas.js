// Writes docs/scenario.schema.json, docs/fixtures.schema.json, docs/routes.schema.json and docs/openapi.json from the built
// code (npm run schemas; npm run openapi is the same). The OpenAPI document describes the standalone
// server at its default address.
import { writeFileSync } from 'node:fs'
import { createEmulator } from '../dist/index.js'
import { fixturesJsonSchema, routesJsonSchema, scenarioJsonSchema } from '../dist/json-schemas.js'

const docs = new URL('../docs/', import.meta.url)
writeFileSync(new URL('scenario.schema.json', docs), `${JSON.stringify(scenarioJsonSchema(), null, 2)}\n`)
writeFileSync(new URL('fixtures.schema.json', docs), `${JSON.stringify(fixturesJsonSchema(), null, 2)}\n`)
writeFileSync(new URL('routes.schema.json', docs), `${JSON.stringify(routesJsonSchema(), null, 2)}\n`)
const emu = await createEmulator({ origin: 'http://127.0.0.1:4010' })
writeFileSync(new URL('openapi.json', docs), `${JSON.stringify(await emu.openapi(), null, 2)}\n`)
await emu.close()
console.log('wrote docs/scenario.schema.json, docs/fixtures.schema.json, docs/routes.schema.json and docs/openapi.json')
