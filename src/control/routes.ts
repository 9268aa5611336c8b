/**
 * The control plane under `/__svc-mock/`: everything a test or QA needs, over HTTP, as thin
 * translations of the in-process emulator's methods of the same names. It never needs a
 * credential, no scenario ever shapes it, and bad bodies answer 400 naming the field.
 */
import { z } from 'zod'
import type { Emulator } from '../emulator.js'
import { ControlError, ScenarioError } from '../kernel/errors.js'
import { json } from '../kernel/http.js'
import type { RequestContext, RouteDefinition } from '../kernel/route.js'
import { ParamValue } from '../kernel/scenarios/schema.js'
import { parseBody } from '../kernel/validation.js'
import { optionalInt, optionalString, readJson } from './body.js'

export const CONTROL_PREFIX = '/__svc-mock'

const ScenarioOnBody = z.strictObject({
  times: z.number().int().min(1).optional(),
  webhook: z.string().min(1).optional(),
  client: z.string().min(1).optional(),
  route: z.string().min(1).optional(),
  params: z.record(z.string(), ParamValue).optional(),
})

const AdvanceBody = z.strictObject({ ms: z.number().finite().min(0) })

type Handler = (ctx: RequestContext) => Promise<Response> | Response

export function route(id: string, method: RouteDefinition['method'], path: string, summary: string, resolve: Handler, extra: Partial<RouteDefinition> = {}): RouteDefinition {
  return { id: `control.${id}`, method, path: `${CONTROL_PREFIX}${path}`, origin: 'base', summary, control: true, resolve, ...extra }
}

export const noContent = (): Response => new Response(null, { status: 204 })

function where(ctx: RequestContext): { storage?: string; facet?: string } {
  const storage = optionalString(ctx.url, 'storage')
  const facet = optionalString(ctx.url, 'facet')
  return { ...(storage === undefined ? {} : { storage }), ...(facet === undefined ? {} : { facet }) }
}

export function controlRoutes(emu: Emulator): RouteDefinition[] {
  return [
    route('health', 'GET', '/health', 'Is the emulator up; its version', () => json(emu.health()), { unjournaled: true }),
    route('routes', 'GET', '/routes', 'Every route the emulator serves', () => json(emu.routes()), { unjournaled: true }),
    route('reset', 'POST', '/reset', 'Back to the fixtures: store, queues, executions, scenarios, clock, journal', async () => {
      await emu.reset()
      return json({ status: 'reset', clock: emu.clock.state() })
    }),

    route('scenarios.list', 'GET', '/scenarios', 'The scenario catalogue, with what is on', () => json(emu.scenarios.list())),
    route('scenarios.on', 'POST', '/scenarios/:name', 'Switch a scenario on for the run', async (ctx) => {
      const name = ctx.params.name ?? ''
      requireScenario(emu, name)
      const body = parseBody(ScenarioOnBody, await readJson(ctx.request), 'scenario activation')
      try {
        emu.scenarios.use(name, body)
      } catch (error) {
        if (error instanceof ScenarioError) throw new ControlError(400, `Invalid scenario activation: ${error.path}: ${error.rule}`, error.path)
        throw error
      }
      return json(listing(emu, name))
    }),
    route('scenarios.off', 'DELETE', '/scenarios/:name', 'Switch a scenario off', (ctx) => {
      const name = ctx.params.name ?? ''
      requireScenario(emu, name)
      emu.scenarios.off(name)
      return json(listing(emu, name))
    }),

    route('clock.get', 'GET', '/clock', 'The emulator clock: now, mode, time scale', () => json(emu.clock.state())),
    route('clock.advance', 'POST', '/clock/advance', 'Move the clock forward; timers that fall due fire in order', async (ctx) => {
      const { ms } = parseBody(AdvanceBody, await readJson(ctx.request), 'clock advance')
      return json(await emu.clock.advance(ms))
    }),

    route('journal.list', 'GET', '/journal', 'Recorded requests, newest last', (ctx) => json(emu.journal.list(journalFilter(ctx.url))), { unjournaled: true }),
    route('journal.wait', 'GET', '/journal/wait', 'Answers when a matching request arrives, or 408 at the timeout', async (ctx) => {
      const timeoutMs = optionalInt(ctx.url, 'timeoutMs') ?? 30_000
      const entry = await emu.journal.wait(journalFilter(ctx.url), { timeoutMs, signal: ctx.signal })
      if (entry) return json(entry)
      return json({ error: `No matching request arrived within ${timeoutMs} ms of emulator time.` }, { status: 408 })
    }, { unjournaled: true }),

    route('storages.list', 'GET', '/storages', 'Storages with their facets and views', () => json(emu.storages.list())),
    route('storages.add', 'POST', '/storages', 'Add a storage with facets and views', async (ctx) =>
      json(await emu.storages.add(await readJson(ctx.request)), { status: 201 }),
    ),
    route('elements.list', 'GET', '/elements', 'Elements with their versions (ids and states)', (ctx) => json(emu.elements.list(where(ctx)))),
    route('elements.add', 'POST', '/elements', 'Add an element with its versions', async (ctx) =>
      json(await emu.elements.add(await readJson(ctx.request)), { status: 201 }),
    ),
    route('elements.addVersion', 'POST', '/elements/:elementId/versions', 'Append a version (the newest) to an element', async (ctx) =>
      json(await emu.elements.addVersion(ctx.params.elementId ?? '', await readJson(ctx.request), where(ctx)), { status: 201 }),
    ),
    route('elements.remove', 'DELETE', '/elements/:elementId', 'Remove an element and all its versions', (ctx) => {
      emu.elements.remove(ctx.params.elementId ?? '', where(ctx))
      return noContent()
    }),
    route('elements.removeVersion', 'DELETE', '/elements/:elementId/versions/:versionId', 'Remove one version of an element', async (ctx) => {
      await emu.elements.removeVersion(ctx.params.elementId ?? '', ctx.params.versionId ?? '', where(ctx))
      return noContent()
    }),

    route('apiKeys.list', 'GET', '/api-keys', 'Static keys (never their values)', () => json(emu.apiKeys.list())),
    route('apiKeys.create', 'POST', '/api-keys', 'Create a user API key or application key', async (ctx) =>
      json(await emu.apiKeys.create(await readJson(ctx.request)), { status: 201 }),
    ),
    route('apiKeys.delete', 'DELETE', '/api-keys/:key', 'Delete a static key (keys cannot be rotated)', (ctx) => {
      if (!emu.apiKeys.delete(ctx.params.key ?? '')) throw new ControlError(404, 'No such API key.', 'key', 'ERR_NOT_FOUND')
      return noContent()
    }),
  ]
}

function requireScenario(emu: Emulator, name: string): void {
  if (!emu.scenarios.list().some((s) => s.name === name)) {
    throw new ControlError(404, `Unknown scenario "${name}". Known scenarios: ${emu.scenarios.list().map((s) => s.name).join(', ')}.`, 'name', 'ERR_NOT_FOUND')
  }
}

function listing(emu: Emulator, name: string): unknown {
  return emu.scenarios.list().find((s) => s.name === name)
}

function journalFilter(url: URL): { route?: string; limit?: number; since?: number; status?: number; method?: string } {
  const routeId = optionalString(url, 'route')
  const limit = optionalInt(url, 'limit', 1)
  const since = optionalInt(url, 'since')
  const status = optionalInt(url, 'status')
  const method = optionalString(url, 'method')
  return {
    ...(routeId === undefined ? {} : { route: routeId }),
    ...(limit === undefined ? {} : { limit }),
    ...(since === undefined ? {} : { since }),
    ...(status === undefined ? {} : { status }),
    ...(method === undefined ? {} : { method }),
  }
}
