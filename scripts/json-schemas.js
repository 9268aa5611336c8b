// Writes docs/scenario.schema.json and docs/fixtures.schema.json from the built code (npm run schemas).
import { writeFileSync } from 'node:fs'
import { fixturesJsonSchema, scenarioJsonSchema } from '../dist/json-schemas.js'

const docs = new URL('../docs/', import.meta.url)
writeFileSync(new URL('scenario.schema.json', docs), `${JSON.stringify(scenarioJsonSchema(), null, 2)}\n`)
writeFileSync(new URL('fixtures.schema.json', docs), `${JSON.stringify(fixturesJsonSchema(), null, 2)}\n`)
console.log('wrote docs/scenario.schema.json and docs/fixtures.schema.json')
