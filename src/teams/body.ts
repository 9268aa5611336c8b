/**
 * What a team is made from, `POST /__svc-mock/teams`'s body and `server.teams.create()`'s argument:
 * its name, its own fixtures after the run's, its seed, its scenarios, its port, a saved state to
 * start from; every field optional. Loaded with the code that makes teams, and by the control plane's documentation.
 */
import * as z from 'zod'
import type { InlineFixtures, SavedState, ScenarioActivation } from '../emulator-api.js'
import { TEAM_NAME } from './constants.js'

/** The body of `POST /__svc-mock/teams`, checked whole before any port is opened. */
export const TeamBody = z.strictObject({
  name: z
    .string()
    .regex(TEAM_NAME, { message: 'must be a DNS label: lower-case letters, digits and hyphens, 1-63 characters, starting and ending with a letter or digit' })
    .optional()
    .meta({ description: 'A DNS label; default `team-N`, the next free number.' }),
  fixtures: z
    .union([z.record(z.string(), z.unknown()), z.array(z.record(z.string(), z.unknown()))])
    .optional()
    .meta({ description: "Fixture documents applied after the run's own (docs/fixtures.schema.json)." }),
  seed: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional().meta({ description: "Seed of the team's generated data; default the run's." }),
  scenarios: z
    .array(z.union([z.string().min(1), z.looseObject({ name: z.string().min(1) })]))
    .optional()
    .meta({ description: "Scenarios on for the team's whole run, after the run's own: `name`, `name:key=value` or `{name, times, params, …}`." }),
  port: z.number().int().min(0).max(65535).optional().meta({ description: 'Its port; default 0, a free one.' }),
  state: z
    .record(z.string(), z.unknown())
    .optional()
    .meta({ description: 'A saved state to start from (GET /__svc-mock/state/export, docs/state.schema.json); its seed is the team\'s unless `seed` is given. A reset of the team returns to it.' }),
})

/** What a team is made from: its name, its own fixtures after the run's, its seed, its scenarios, its port, a saved state. */
export type TeamOptions = Omit<z.input<typeof TeamBody>, 'fixtures' | 'scenarios' | 'state'> & {
  fixtures?: InlineFixtures | InlineFixtures[]
  scenarios?: Array<string | ({ name: string } & ScenarioActivation)>
  state?: SavedState
}
