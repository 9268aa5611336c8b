/**
 * The control plane's element-store operations, thin translations of `emu.storages` and
 * `emu.elements`: storages (list, add) and elements with their versions (list, add, append a
 * version, remove one version or the whole element), and their documentation. `?storage=…&facet=…`
 * says where when an element id is not unique.
 */
import * as z from 'zod'
import { type ControlPart, controlRoute as route, noContent, once, optionalString, readInput } from '../kernel/control.js'
import { json } from '../kernel/reply.js'
import type { RequestContext, RouteDoc } from '../kernel/route.js'
import type { Where } from './admin.js'
import type { VersionsApi } from './api.js'
import { versionSchemas } from './model.js'

function where(ctx: RequestContext): Where {
  const storage = optionalString(ctx.url, 'storage')
  const facet = optionalString(ctx.url, 'facet')
  return { ...(storage === undefined ? {} : { storage }), ...(facet === undefined ? {} : { facet }) }
}

export function versionsControl({ storages, elements }: VersionsApi): ControlPart {
  return {
    routes: [
      route('storages.list', 'GET', '/storages', 'Storages with their facets and views', () => json(storages.list())),
      route('storages.add', 'POST', '/storages', 'Add a storage with facets and views', async (ctx) => json(await storages.add(await readInput(ctx)), { status: 201 })),
      route('elements.list', 'GET', '/elements', 'Elements with their versions (ids and states)', (ctx) => json(elements.list(where(ctx)))),
      route('elements.add', 'POST', '/elements', 'Add an element with its versions', async (ctx) => json(await elements.add(await readInput(ctx)), { status: 201 })),
      route('elements.addVersion', 'POST', '/elements/:elementId/versions', 'Append a version (the newest) to an element', async (ctx) =>
        json(await elements.addVersion(ctx.params.elementId ?? '', await readInput(ctx), where(ctx)), { status: 201 }),
      ),
      route('elements.remove', 'DELETE', '/elements/:elementId', 'Remove an element and all its versions', (ctx) => {
        elements.remove(ctx.params.elementId ?? '', where(ctx))
        return noContent()
      }),
      route('elements.removeVersion', 'DELETE', '/elements/:elementId/versions/:versionId', 'Remove one version of an element', async (ctx) => {
        await elements.removeVersion(ctx.params.elementId ?? '', ctx.params.versionId ?? '', where(ctx))
        return noContent()
      }),
    ],
    docs: once(docs),
  }
}

async function docs(): Promise<Readonly<Record<string, RouteDoc>>> {
  const { body, CHANGE_REFUSALS, json, noContent, READ_REFUSALS, refused } = await import('../kernel/control-docs.js')
  const { NewElement, StorageFixture, VersionFixture } = versionSchemas()
  const ElementSummary = z
    .object({
      storage: z.string(),
      facet: z.string(),
      id: z.string(),
      type: z.string(),
      stereotype: z.string().optional(),
      versions: z.array(z.object({ versionId: z.string(), state: z.string() })),
    })
    .meta({ id: 'ElementSummary' })
  const where = z.object({
    storage: z.string().optional().meta({ description: '`collectionId/storageId`, when the element id is not unique.' }),
    facet: z.string().optional(),
  })
  const element = { elementId: 'The element.' }
  return {
    'storages.list': { responses: { '200': json('Storages with facets and views.', z.array(StorageFixture)), ...READ_REFUSALS } },
    'storages.add': { ...body(StorageFixture.meta({ id: 'StorageInput' })), responses: { '201': json('Added.', StorageFixture), '409': refused('It exists already.'), ...CHANGE_REFUSALS } },
    'elements.list': { query: where, responses: { '200': json('Elements with their versions.', z.array(ElementSummary)), ...READ_REFUSALS } },
    'elements.add': {
      ...body(NewElement.meta({ id: 'ElementInput' })),
      responses: { '201': json('Added (the id is generated when absent).', ElementSummary), '409': refused('A version id exists already.'), ...CHANGE_REFUSALS },
    },
    'elements.addVersion': {
      params: element,
      query: where,
      ...body(VersionFixture.meta({ id: 'VersionInput' })),
      responses: { '201': json('The element, with the new version last.', ElementSummary), '404': refused('No such element.'), ...CHANGE_REFUSALS },
    },
    'elements.remove': { params: element, query: where, responses: { '204': noContent, '404': refused('No such element.'), ...READ_REFUSALS } },
    'elements.removeVersion': {
      params: { ...element, versionId: 'One of its versions.' },
      query: where,
      responses: { '204': noContent, '404': refused('No such element or version.'), ...READ_REFUSALS },
    },
  }
}
