/**
 * The teams' lines of the start-up banner: the teams made at start, one line each, and how to make
 * more; nothing when there are none (most runs have none).
 */
import type { TeamsApi } from './team.js'

/** `base`: the main team's `{base_url}`, whose control plane makes more. */
export function teamsBannerLines(teams: TeamsApi, base: string): string[] {
  const others = teams.list().filter((team) => !team.main)
  if (others.length === 0) return []
  return [
    '',
    `Teams (each isolated, on its own port; make more with POST ${base}/__svc-mock/teams):`,
    ...others.map((team) => `  ${team.name.padEnd(22)} ${team.url}  (dashboard ${team.dashboard})`),
  ]
}
