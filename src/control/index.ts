/**
 * The control plane, `/__svc-mock/` on `{base_url}`: everything a test or QA needs over HTTP, as
 * thin translations of the in-process emulator's methods of the same names, plus the dashboard's
 * files and its live events. It never needs a credential and no scenario ever shapes it; bad
 * bodies answer 400 naming the field.
 */
import type { EmulatorCore } from '../emulator-api.js'
import type { Domain } from '../kernel/domain.js'
import type { RequestContext } from '../kernel/route.js'
import { authRoutes } from './auth.js'
import { caRoutes } from './ca.js'
import { coreRoutes } from './core.js'
import { dashboardRoutes } from './dashboard.js'
import { eventRoutes } from './events.js'
import { allowedHosts, guard } from './guard.js'
import { type TeamHost, teamsRoutes } from './teams.js'
import { versionsRoutes } from './versions.js'
import { userRoutesRoutes } from './user-routes.js'
import { webhooksRoutes } from './webhooks.js'

export { CONTROL_PREFIX } from './route.js'
export { ForeignOriginError, MisdirectedRequestError, NotJsonError } from './guard.js'
export { ServerClosingError, TEAM_NAME, TeamBody, TeamDeletedError, TeamPortError, TeamsUnavailableError, TooManyTeamsError, type TeamHost, type TeamInfo, type TeamInput } from './teams.js'

export interface ControlDeps {
  /** The emulator the control plane drives. */
  readonly emulator: EmulatorCore
  /** The scenario targets the domains declare (`webhook`, `client`): a scenario activation may name them. */
  readonly targetNames: readonly string[]
  /** The server's teams; absent in-process, where the teams routes answer 501. */
  readonly teams?: TeamHost
}

export function defineControlDomain(deps: ControlDeps): Domain {
  const emu = deps.emulator
  const hosts = allowedHosts(emu.urls)
  const routes = [...coreRoutes(emu, deps.targetNames), ...versionsRoutes(emu), ...authRoutes(emu), ...webhooksRoutes(emu), ...userRoutesRoutes(emu), ...teamsRoutes(emu, deps.teams), ...eventRoutes(emu), ...caRoutes(), ...dashboardRoutes()]
  return {
    routes: routes.map((route) => ({
      ...route,
      resolve: async (ctx: RequestContext) => {
        await guard(ctx, hosts)
        return route.resolve(ctx)
      },
    })),
    docs: async () => (await import('./docs.js')).controlDocs(deps.targetNames),
  }
}
