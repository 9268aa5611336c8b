/**
 * The control plane's part of a saved state: the teams a standalone server runs beside its main
 * one, each with its name, its seed and its own saved state (only in the main team's document).
 * Loaded into the main team, each is made again, from its state, on a port of its own, in place of
 * a running team of its name; teams the document does not name run on. In-process there are no
 * teams. Loaded with import() by the control domain's `saved()`.
 */
import * as z from 'zod'
import { JsonValue } from '../kernel/json.js'
import type { PreparedPart, SavedPart } from '../kernel/saved.js'
import { type ControlledTeams, type SavedTeam, TEAM_NAME } from '../teams/index.js'

/** A team's own state is checked when the team loads it: here, any JSON object. */
export const SavedControl: z.ZodType<{ teams: SavedTeam[] }, { teams?: SavedTeam[] }> = z.strictObject({
  teams: z
    .array(
      z.strictObject({
        name: z.string().regex(TEAM_NAME, { message: 'must be a DNS label: lower-case letters, digits and hyphens, 1-63 characters' }),
        seed: z.number().int().min(0),
        state: z.record(z.string(), JsonValue).meta({ description: "The team's own saved state (this document's format)." }),
      }),
    )
    .default([])
    .meta({ description: "The server's teams beside the main one, each with its own saved state (the main team's document only)." }),
}) as never
export type SavedControl = z.output<typeof SavedControl>
/** The control plane's part of a saved state, as the document holds it. */
export type SavedControlInput = z.input<typeof SavedControl>

/** `base`: the address of the emulator whose control plane this is; `teams`: the server's (none in-process). */
export function savedControl(base: string, teams: ControlledTeams | undefined): SavedPart<typeof SavedControl> {
  let take: () => SavedControlInput['teams'] = () => []
  return {
    ready: async () => {
      take = teams === undefined ? () => [] : await teams.snapshotter(base)
    },
    save: () => {
      const saved = take()
      return saved === undefined || saved.length === 0 ? {} : { teams: saved }
    },
    prepare: async (part, context): Promise<PreparedPart> => {
      if (part.teams.length === 0) return { apply: () => undefined }
      if (teams === undefined) throw context.problem('teams', 'teams need the standalone server (each listens on a port of its own): load this document into one, or leave teams out')
      const prepared = await teams.prepare(base, part.teams, (index, field, rule) =>
        context.problem(index < 0 ? 'teams' : `teams[${index}]${field === '' ? '' : `.${field}`}`, rule),
      )
      return { apply: () => prepared.apply(), discard: () => prepared.discard() }
    },
  }
}
