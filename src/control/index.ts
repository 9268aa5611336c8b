/**
 * The control plane, `/__svc-mock/` on `{base_url}`: everything a test or QA needs over HTTP, as
 * thin translations of the in-process emulator's methods of the same names. Its own operations
 * (health, the route list, reset, scenarios, clock, journal, the state and live events, saved
 * states, the local CA, the dashboard's files), those each domain declares (`Domain.control`) and
 * the teams' (src/teams/), all mounted here the same way. It never needs a credential and no
 * scenario ever shapes it; bad bodies answer 400 naming the field.
 */
import type { EmulatorCore, EmulatorOptions } from '../emulator-api.js'
import type { DomainContext, DomainModule, DomainSchemas } from '../kernel/domain.js'
import type { RouteDoc } from '../kernel/route.js'
import { type ControlledTeams, teamsControl } from '../teams/index.js'
import { caRoutes } from './ca.js'
import { coreRoutes } from './core.js'
import { dashboardRoutes } from './dashboard.js'
import { eventRoutes } from './events.js'
import { allowedHosts } from './guard.js'
import { mounted } from './route.js'
import { stateRoutes } from './state.js'

export { CONTROL_PREFIX } from '../kernel/control.js'
export { ForeignOriginError, MisdirectedRequestError, NotJsonError } from './guard.js'

/** The control plane's schemas: no fixtures; its part of a saved state, the server's teams. */
export const controlSchemas: DomainSchemas = { fixtures: [], saved: async () => (await import('./saved.js')).SavedControl }

/**
 * The control plane, a domain listed after every other: it mounts their control parts beside its
 * own operations, which steer the emulator they all make up, and the teams' operations. `teams`:
 * the server's teams; absent in-process, where the teams routes answer 501.
 */
export function controlDomain(teams?: ControlledTeams): DomainModule<'control', EmulatorOptions> {
  return {
    name: 'control',
    schemas: controlSchemas,
    define: ({ address, defined, emulator }: DomainContext<EmulatorOptions, EmulatorCore>) => {
      const base = address('base')
      const parts = [...defined.flatMap((d) => (d.control ? [d.control] : [])), teamsControl(base, teams)]
      const targetNames = defined.flatMap((d) => d.targets ?? []).map((t) => t.name)
      const hosts = allowedHosts([address('auth'), base, address('webhook')])
      const routes = [...coreRoutes(emulator, targetNames), ...parts.flatMap((part) => part.routes), ...eventRoutes(emulator), ...stateRoutes(emulator), ...caRoutes(), ...dashboardRoutes()]
      const own = async (): Promise<Readonly<Record<string, RouteDoc>>> => (await import('./docs.js')).controlDocs(targetNames)
      return {
        routes: routes.map((route) => mounted(route, hosts)),
        saved: async () => (await import('./saved.js')).savedControl(base, teams),
        docs: async () => {
          const documented = await Promise.all([own(), ...parts.map(async (part) => (await part.docs?.()) ?? {})])
          return Object.fromEntries(documented.flatMap((docs) => Object.entries(docs).map(([id, doc]): [string, RouteDoc] => [`control.${id}`, doc])))
        },
      }
    },
  }
}
