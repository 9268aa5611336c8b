/**
 * The control plane's own operations, thin translations of the emulator's methods of the same
 * names: health, the route list, reset, the scenario catalogue (on and off, aimed at a route or
 * at any target the domains declare), the clock, and the journal (read, and wait for a request).
 */
import * as z from 'zod'
import type { EmulatorCore } from '../emulator-api.js'
import { DEFAULT_WAIT_MS } from '../kernel/constants.js'
import { ConfigError, InvalidInputError, NotFoundError, ScenarioError, UnknownScenarioError } from '../kernel/errors.js'
import type { JournalFilter } from '../kernel/journal.js'
import { json } from '../kernel/reply.js'
import { ParamValue } from '../kernel/scenarios/schema.js'
import { parseBody } from '../kernel/validation.js'
import { type ControlRoute, noContent, optionalInt, optionalString, readJson, controlRoute as route } from '../kernel/control.js'

export const AdvanceBody = z.strictObject({ ms: z.number().finite().min(0) })

/** The body of POST /scenarios/:name for these targets; built when first needed, once per process. */
const scenarioOnBodies = new Map<string, z.ZodType<Record<string, unknown>>>()
export function scenarioOnBody(targetNames: readonly string[]): z.ZodType<Record<string, unknown>> {
  const key = targetNames.join('\n')
  let schema = scenarioOnBodies.get(key)
  if (!schema) {
    schema = z.strictObject({
      times: z.number().int().min(1).optional(),
      route: z.string().min(1).optional(),
      params: z.record(z.string(), ParamValue).optional(),
      ...Object.fromEntries(targetNames.map((name) => [name, z.string().min(1).optional()])),
    })
    scenarioOnBodies.set(key, schema)
  }
  return schema
}

/** `emu`: the emulator the control plane steers (whole once every domain is defined). */
export function coreRoutes(emu: () => EmulatorCore, targetNames: readonly string[]): ControlRoute[] {
  return [
    route('health', 'GET', '/health', 'Is the emulator up; its version', () => json(emu().health()), { unjournaled: true }),
    route('routes', 'GET', '/routes', 'Every route the emulator serves', () => json(emu().routes()), { unjournaled: true }),
    route('openapi', 'GET', '/openapi.json', 'The OpenAPI 3.1 document of every route, this one included', async () => json(await emu().openapi()), { unjournaled: true }),
    route('reset', 'POST', '/reset', 'Back to the fixtures: store, queues, executions, scenarios, clock, journal', async () => {
      await emu().reset()
      return json({ status: 'reset', clock: emu().clock.state() })
    }),

    route('scenarios.list', 'GET', '/scenarios', 'The scenario catalogue, with what is on', () => json(emu().scenarios.list())),
    route(
      'scenarios.snapshot',
      'GET',
      '/scenarios.json',
      'What is on, as one scenario file to load with --scenarios DIR (?name=)',
      (ctx) => {
        const name = optionalString(ctx.url, 'name')
        const file = emu().scenarios.snapshot(name === undefined ? {} : { name })
        return json(file, { headers: { 'content-disposition': `attachment; filename="${file.name}.json"`, 'cache-control': 'no-store' } })
      },
      { unjournaled: true },
    ),
    route('scenarios.on', 'POST', '/scenarios/:name', 'Switch a scenario on for the run', async (ctx) => {
      const name = ctx.params.name ?? ''
      requireScenario(emu(), name)
      const body = parseBody(scenarioOnBody(targetNames), await readJson(ctx), 'scenario activation')
      try {
        emu().scenarios.use(name, body)
      } catch (error) {
        if (error instanceof ScenarioError) throw new InvalidInputError(`Invalid scenario activation: ${error.path}: ${error.rule}`, error.path)
        throw error
      }
      return json(listing(emu(), name))
    }),
    route('scenarios.off', 'DELETE', '/scenarios/:name', 'Switch a scenario off', (ctx) => {
      const name = ctx.params.name ?? ''
      requireScenario(emu(), name)
      emu().scenarios.off(name)
      return json(listing(emu(), name))
    }),

    route('clock.get', 'GET', '/clock', 'The emulator clock: now, mode, time scale', () => json(emu().clock.state())),
    route('clock.advance', 'POST', '/clock/advance', 'Move the clock forward; timers that fall due fire in order', async (ctx) => {
      const { ms } = parseBody(AdvanceBody, await readJson(ctx), 'clock advance')
      try {
        return json(await emu().clock.advance(ms))
      } catch (error) {
        if (error instanceof ConfigError) throw new InvalidInputError(`Invalid clock advance: ${error.message.replace(/^Invalid option /, '')}`, 'ms')
        throw error
      }
    }),

    route('journal.list', 'GET', '/journal', 'Recorded requests, newest last', (ctx) => json(emu().journal.list(journalFilter(ctx.url))), { unjournaled: true }),
    // Not journaled itself, so a cleared journal is empty.
    route(
      'journal.clear',
      'DELETE',
      '/journal',
      'Empty the journal (sequence numbers keep counting)',
      () => {
        emu().journal.clear()
        return noContent()
      },
      { unjournaled: true },
    ),
    route(
      'journal.har',
      'GET',
      '/journal.har',
      'The journal as an HTTP Archive (HAR 1.2), redacted as the journal is',
      (ctx) => {
        const har = emu().journal.har(journalFilter(ctx.url))
        const stamp = emu().clock.now().toISOString().slice(0, 19).replace(/[-:]/g, '').replace('T', '-')
        return json(har, { headers: { 'content-disposition': `attachment; filename="svc-mock-${stamp}.har"`, 'cache-control': 'no-store' } })
      },
      { unjournaled: true },
    ),
    route(
      'journal.wait',
      'GET',
      '/journal/wait',
      'Answers when a matching request arrives, or 408 at the timeout',
      async (ctx) => {
        const timeoutMs = optionalInt(ctx.url, 'timeoutMs') ?? DEFAULT_WAIT_MS
        const entry = await emu().journal.wait(journalFilter(ctx.url), { timeoutMs, signal: ctx.signal })
        if (entry) return json(entry)
        return json({ error: `No matching request arrived within ${timeoutMs} ms of emulator time.` }, { status: 408 })
      },
      { unjournaled: true },
    ),
  ]
}

function requireScenario(emu: EmulatorCore, name: string): void {
  if (!emu.scenarios.list().some((s) => s.name === name)) {
    throw new NotFoundError(new UnknownScenarioError(name, emu.scenarios.list().map((s) => s.name)).message, 'name')
  }
}

function listing(emu: EmulatorCore, name: string): unknown {
  return emu.scenarios.list().find((s) => s.name === name)
}

function journalFilter(url: URL): JournalFilter {
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
