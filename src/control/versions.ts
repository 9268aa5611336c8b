/**
 * The control plane's element-store operations, thin translations of `emu.storages` and
 * `emu.elements`: storages (list, add) and elements with their versions (list, add, append a
 * version, remove one version or the whole element). `?storage=…&facet=…` says where when an
 * element id is not unique.
 */
import type { EmulatorCore } from '../emulator-api.js'
import { json } from '../kernel/reply.js'
import type { RequestContext, RouteDefinition } from '../kernel/route.js'
import { optionalString, readInput } from './body.js'
import { noContent, controlRoute as route } from './route.js'

function where(ctx: RequestContext): { storage?: string; facet?: string } {
  const storage = optionalString(ctx.url, 'storage')
  const facet = optionalString(ctx.url, 'facet')
  return { ...(storage === undefined ? {} : { storage }), ...(facet === undefined ? {} : { facet }) }
}

export function versionsRoutes(emu: EmulatorCore): RouteDefinition[] {
  return [
    route('storages.list', 'GET', '/storages', 'Storages with their facets and views', () => json(emu.storages.list())),
    route('storages.add', 'POST', '/storages', 'Add a storage with facets and views', async (ctx) => json(await emu.storages.add(await readInput(ctx)), { status: 201 })),
    route('elements.list', 'GET', '/elements', 'Elements with their versions (ids and states)', (ctx) => json(emu.elements.list(where(ctx)))),
    route('elements.add', 'POST', '/elements', 'Add an element with its versions', async (ctx) => json(await emu.elements.add(await readInput(ctx)), { status: 201 })),
    route('elements.addVersion', 'POST', '/elements/:elementId/versions', 'Append a version (the newest) to an element', async (ctx) =>
      json(await emu.elements.addVersion(ctx.params.elementId ?? '', await readInput(ctx), where(ctx)), { status: 201 }),
    ),
    route('elements.remove', 'DELETE', '/elements/:elementId', 'Remove an element and all its versions', (ctx) => {
      emu.elements.remove(ctx.params.elementId ?? '', where(ctx))
      return noContent()
    }),
    route('elements.removeVersion', 'DELETE', '/elements/:elementId/versions/:versionId', 'Remove one version of an element', async (ctx) => {
      await emu.elements.removeVersion(ctx.params.elementId ?? '', ctx.params.versionId ?? '', where(ctx))
      return noContent()
    }),
  ]
}
