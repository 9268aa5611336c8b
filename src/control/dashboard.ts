/**
 * The dashboard's routes: the page at `/__svc-mock/` and its script, styles and icon under
 * `/__svc-mock/dashboard/`. Not journaled (opening the page is not a request under test). What
 * reads and answers the files (dashboard-files.ts) loads with the first request for one.
 */
import { NotFoundError } from '../kernel/errors.js'
import { empty, type Reply } from '../kernel/reply.js'
import type { RequestContext } from '../kernel/route.js'
import { CONTROL_PREFIX, type ControlRoute, controlRoute as route } from '../kernel/control.js'

/** A file name of the folder: no path, one known extension. */
const ASSET = /^[a-z0-9][a-z0-9-]*\.(js|css|svg)$/

/** Answers the file `name`, through the module that reads them (loaded on the first call). */
async function answerFile(ctx: RequestContext, name: string): Promise<Reply> {
  return await (await import('./dashboard-files.js')).serve(ctx, name)
}

export function dashboardRoutes(): ControlRoute[] {
  return [
    route('dashboard.page', 'GET', '/', 'The dashboard: see and steer the running emulator in a browser', (ctx) => answerFile(ctx, 'index.html'), {
      unjournaled: true,
    }),
    route(
      'dashboard.redirect',
      'GET',
      '',
      'The dashboard, at its address with the final slash',
      (ctx) => empty(308, { location: `${CONTROL_PREFIX}/${ctx.url.search}` }),
      { unjournaled: true },
    ),
    route('dashboard.asset', 'GET', '/dashboard/:file', "The dashboard's script, styles and icon", (ctx) => {
      const name = ctx.params.file ?? ''
      if (!ASSET.test(name)) throw new NotFoundError(`The dashboard has no file "${name}".`, 'file')
      return answerFile(ctx, name)
    }, { unjournaled: true }),
  ]
}
