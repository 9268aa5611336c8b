/**
 * Saved states on the control plane: `GET /__svc-mock/state/export` answers the document
 * (`emu.exportState()`), `POST /__svc-mock/state/import` loads one (`emu.importState()`): a
 * document that cannot be loaded is a 400 naming the member, and nothing changes. Neither is
 * journaled: both carry the emulator's secrets. The import takes a body as large as a busy run's
 * document (`SAVED_STATE_BODY_LIMIT`); a larger one is a 413 saying the limit.
 */
import type { EmulatorCore } from '../emulator-api.js'
import { SAVED_STATE_BODY_LIMIT } from '../kernel/constants.js'
import { type ControlRoute, controlRoute as route } from '../kernel/control.js'
import { PayloadTooLargeError } from '../kernel/errors.js'
import { json } from '../kernel/reply.js'

/** `emu`: the emulator the control plane steers (whole once every domain is defined). */
export function stateRoutes(emu: () => EmulatorCore): ControlRoute[] {
  return [
    route(
      'state.export',
      'GET',
      '/state/export',
      'Everything a reset would not give back, as one JSON document (a saved state)',
      async () => {
        const document = await emu().exportState()
        const stamp = document.exportedAt.slice(0, 19).replace(/[-:]/g, '').replace('T', '-')
        return json(document, { headers: { 'content-disposition': `attachment; filename="svc-mock-state-${stamp}.json"`, 'cache-control': 'no-store' } })
      },
      { unjournaled: true },
    ),
    route(
      'state.import',
      'POST',
      '/state/import',
      'Load a saved state: it replaces the state at once and becomes what a reset returns to',
      async (ctx) => {
        const text = (await ctx.body?.text()) ?? ''
        return json(await emu().importState(text))
      },
      {
        unjournaled: true,
        bodyLimit: SAVED_STATE_BODY_LIMIT,
        renderError: (error) =>
          error instanceof PayloadTooLargeError
            ? json({ error: `The saved state is larger than ${error.limit} bytes, the most POST /__svc-mock/state/import takes (docs/state.md).`, limit: error.limit }, { status: 413 })
            : error.toReply(),
      },
    ),
  ]
}
