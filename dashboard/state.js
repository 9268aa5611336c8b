// @ts-check
/**
 * Saved states in the dashboard: "Save state" is a link to `GET /__svc-mock/state/export` (the
 * browser downloads the document under the name the emulator gives it); "Load state" opens a file
 * the user picks, asks before anything changes, and sends it to `POST /__svc-mock/state/import`.
 * The page then shows the loaded state through its live events, as after any change.
 */
import { api } from './api.js'

/**
 * @typedef {import('./actions.js').Actions} Actions
 */

/**
 * @param {{ load: HTMLButtonElement, file: HTMLInputElement }} elements
 * @param {Actions} actions
 */
export function stateControls({ load, file }, actions) {
  load.addEventListener('click', () => file.click())
  file.addEventListener('change', async () => {
    const picked = file.files?.[0]
    // Emptied at once, so picking the same file again loads it again.
    file.value = ''
    if (!picked) return
    const sure = await actions.confirm(
      `Load the state saved in ${picked.name}?`,
      'It replaces the whole state at once (OAuth clients and keys, webhooks and their queues, elements, scenarios, the clock; the journal is emptied), and Reset then returns to it, not to the fixtures. A file that cannot be loaded changes nothing.',
      'Load',
    )
    if (sure) actions.run(load, `State loaded from ${picked.name}.`, async () => await api.importState(await picked.text()))
  })
}
