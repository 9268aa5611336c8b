/**
 * The control plane, `/__svc-mock/` on `{base_url}`: everything a test or QA needs over HTTP, as
 * thin translations of the in-process emulator's methods of the same names. Its own operations
 * (health, the route list, reset, scenarios, clock, journal, teams, the state and live events, the
 * local CA, the dashboard's files) and those each domain declares (`Domain.control`), all mounted
 * here the same way. It never needs a credential and no scenario ever shapes it; bad bodies
 * answer 400 naming the field.
 */
import type { EmulatorCore } from '../emulator-api.js'
import type { ControlPart } from '../kernel/control.js'
import type { Domain } from '../kernel/domain.js'
import type { RouteDoc } from '../kernel/route.js'
import { caRoutes } from './ca.js'
import { coreRoutes } from './core.js'
import { dashboardRoutes } from './dashboard.js'
import { eventRoutes } from './events.js'
import { allowedHosts } from './guard.js'
import { mounted } from './route.js'
import { type TeamHost, teamsRoutes } from './teams.js'

export { CONTROL_PREFIX } from '../kernel/control.js'
export { ForeignOriginError, MisdirectedRequestError, NotJsonError } from './guard.js'
export { ServerClosingError, TEAM_NAME, TeamBody, TeamDeletedError, TeamPortError, TeamsUnavailableError, TooManyTeamsError, type TeamHost, type TeamInfo, type TeamInput } from './teams.js'

export interface ControlDeps {
  /** The emulator the control plane drives. */
  readonly emulator: EmulatorCore
  /** The scenario targets the domains declare (`webhook`, `client`): a scenario activation may name them. */
  readonly targetNames: readonly string[]
  /** The domains' operations, mounted beside the control plane's own. */
  readonly parts: readonly ControlPart[]
  /** The server's teams; absent in-process, where the teams routes answer 501. */
  readonly teams?: TeamHost
}

export function defineControlDomain(deps: ControlDeps): Domain {
  const emu = deps.emulator
  const hosts = allowedHosts(emu.urls)
  const routes = [...coreRoutes(emu, deps.targetNames), ...deps.parts.flatMap((part) => part.routes), ...teamsRoutes(emu, deps.teams), ...eventRoutes(emu), ...caRoutes(), ...dashboardRoutes()]
  const own = async (): Promise<Readonly<Record<string, RouteDoc>>> => (await import('./docs.js')).controlDocs(deps.targetNames)
  return {
    routes: routes.map((route) => mounted(route, hosts)),
    docs: async () => {
      const documented = await Promise.all([own(), ...deps.parts.map(async (part) => (await part.docs?.()) ?? {})])
      return Object.fromEntries(documented.flatMap((docs) => Object.entries(docs).map(([id, doc]): [string, RouteDoc] => [`control.${id}`, doc])))
    },
  }
}
