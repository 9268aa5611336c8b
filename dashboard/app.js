// @ts-check
/**
 * The dashboard's entry point. It listens to `GET /__svc-mock/events` (server-sent events: the
 * whole state whenever it changes, each new journal entry as it is recorded) and renders; every
 * button calls the control plane (api.js), through what the page offers its panels (actions.js).
 * The page keeps no state of its own beyond what the last event said, so a reload or a reconnect
 * shows exactly what the emulator holds.
 */
import { actions, announce } from './actions.js'
import { api } from './api.js'
import { clockPanel } from './clock.js'
import { byId, setText } from './dom.js'
import { JournalView, MAX_ROWS } from './journal.js'
import { oauthPanel } from './oauth.js'
import { scenariosPanel } from './scenarios.js'
import { stateControls } from './state.js'
import { teamsBar } from './teams.js'
import { webhooksPanel } from './webhooks.js'

/**
 * @typedef {import('../src/index.js').EmulatorState} EmulatorState
 * @typedef {import('../src/index.js').JournalEntry} JournalEntry
 */

const { run, confirm, copy } = actions

// Tabs -------------------------------------------------------------------------------------------

const tabs = [...document.querySelectorAll('[role="tab"]')].filter((el) => el instanceof HTMLElement)
/** @param {HTMLElement} tab */
function select(tab) {
  for (const other of tabs) {
    const selected = other === tab
    other.setAttribute('aria-selected', String(selected))
    other.tabIndex = selected ? 0 : -1
    const panel = document.getElementById(other.getAttribute('aria-controls') ?? '')
    if (panel) panel.hidden = !selected
  }
}
for (const [index, tab] of tabs.entries()) {
  tab.addEventListener('click', () => select(tab))
  tab.addEventListener('keydown', (event) => {
    const keys = { ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: tabs.length - 1 }
    if (!(event.key in keys)) return
    event.preventDefault()
    const next = tabs[(keys[/** @type {keyof typeof keys} */ (event.key)] + tabs.length) % tabs.length]
    if (next) {
      select(next)
      next.focus()
    }
  })
}

// Clock and state --------------------------------------------------------------------------------

const renderClock = clockPanel(
  {
    now: byId('clock-now', HTMLTimeElement),
    mode: byId('clock-mode', HTMLElement),
    scale: byId('clock-scale', HTMLElement),
    advance: byId('advance-form', HTMLFormElement),
    amount: byId('advance-amount', HTMLInputElement),
    unit: byId('advance-unit', HTMLSelectElement),
  },
  actions,
)

const resetButton = byId('reset-button', HTMLButtonElement)
resetButton.addEventListener('click', async () => {
  const sure = await confirm(
    'Reset the emulator?',
    'Webhooks, flows, queues, executions, OAuth clients and consents, scenarios (but those given at start-up), the clock and the journal all go back to how they were at start, or to the state loaded last.',
    'Reset',
  )
  if (sure) run(resetButton, 'Emulator reset.', () => api.reset())
})

stateControls({ load: byId('state-load', HTMLButtonElement), file: byId('state-file', HTMLInputElement) }, actions)

// Live updates -----------------------------------------------------------------------------------

const journal = new JournalView(
  {
    list: byId('journal-list', HTMLOListElement),
    empty: byId('journal-empty', HTMLElement),
    count: byId('journal-count', HTMLElement),
    route: byId('filter-route', HTMLSelectElement),
    status: byId('filter-status', HTMLSelectElement),
    text: byId('filter-text', HTMLInputElement),
    held: byId('journal-held', HTMLElement),
  },
  copy,
)
const pauseButton = byId('journal-pause', HTMLButtonElement)
pauseButton.addEventListener('click', () => {
  if (journal.paused) {
    const shown = journal.resume()
    announce(`Live view resumed${shown.length > 0 ? `: ${shown.length} held request${shown.length === 1 ? '' : 's'} shown` : ''}.`)
  } else {
    journal.pause()
    announce('Live view paused: new requests are held until you resume.')
  }
  // The label says what a press does (a toggle's label would have to stay the same).
  setText(pauseButton, journal.paused ? 'Resume' : 'Pause')
})
const clearButton = byId('journal-clear', HTMLButtonElement)
// The emulator tells every open page (journal-cleared), this one included.
clearButton.addEventListener('click', () => run(clearButton, 'Journal cleared.', () => api.clearJournal()))
api.routes().then(
  (routes) => journal.setRoutes(routes),
  () => undefined,
)

const renderScenarios = scenariosPanel(
  byId('scenario-list', HTMLUListElement),
  {
    count: byId('scenarios-on-count', HTMLElement),
    search: byId('scenario-search', HTMLInputElement),
    searchCount: byId('scenario-search-count', HTMLElement),
    none: byId('on-now-none', HTMLElement),
    tools: byId('on-now-tools', HTMLElement),
    cli: byId('on-now-cli', HTMLElement),
    header: byId('on-now-header', HTMLElement),
    cliCopy: byId('on-now-cli-copy', HTMLButtonElement),
    headerCopy: byId('on-now-header-copy', HTMLButtonElement),
    saveName: byId('save-name', HTMLInputElement),
    saveLink: byId('save-link', HTMLAnchorElement),
    saveUse: byId('save-use', HTMLElement),
  },
  actions,
)
const refreshTeams = teamsBar({
  bar: byId('teams', HTMLElement),
  name: byId('team-name', HTMLElement),
  others: byId('team-others', HTMLDetailsElement),
  summary: byId('team-others-summary', HTMLElement),
  list: byId('team-list', HTMLUListElement),
})
const renderWebhooks = webhooksPanel(byId('webhook-list', HTMLUListElement), actions)
const renderOAuth = oauthPanel(
  {
    clients: byId('client-list', HTMLUListElement),
    users: byId('user-list', HTMLUListElement),
    devices: byId('device-list', HTMLUListElement),
    devicesNone: byId('devices-none', HTMLElement),
    deviceCount: byId('device-count', HTMLElement),
  },
  actions,
)

/** @param {EmulatorState} state */
function render(state) {
  setText(byId('version', HTMLElement), `v${state.version}`)
  renderClock(state)
  renderScenarios(state)
  renderWebhooks(state)
  renderOAuth(state)
}

// New requests are announced at most every few seconds, in one sentence, not one by one.
/** @type {JournalEntry[]} */
let unannounced = []
/** @type {ReturnType<typeof setTimeout> | undefined} */
let announceTimer
/** @param {JournalEntry[]} entries */
function announceRequests(entries) {
  unannounced.push(...entries)
  if (announceTimer !== undefined || unannounced.length === 0) return
  announceTimer = setTimeout(() => {
    announceTimer = undefined
    const newest = unannounced.at(-1)
    if (newest) {
      const what = `${newest.method} ${newest.path}: ${newest.status === 0 ? 'no answer' : newest.status}`
      announce(unannounced.length === 1 ? `New request, ${what}.` : `${unannounced.length} new requests; the newest, ${what}.`)
    }
    unannounced = []
  }, 2000)
}

const connection = byId('connection', HTMLElement)
const connectionText = byId('connection-text', HTMLElement)
/**
 * @param {'live' | 'lost'} state
 * @param {string} text
 */
function setConnection(state, text) {
  if (connectionText.textContent === text) return
  connection.dataset.state = state
  setText(connectionText, text)
  announce(text)
}

/**
 * Parses an event's JSON data.
 * @param {Event} event
 * @returns {unknown}
 */
function dataOf(event) {
  return event instanceof MessageEvent && typeof event.data === 'string' ? JSON.parse(event.data) : undefined
}

const events = new EventSource(`events?journal=${MAX_ROWS}`)
// The first journal event of each connection is the backlog: it replaces what the page shows.
let backlog = true
events.addEventListener('open', () => {
  backlog = true
  refreshTeams()
  setConnection('live', 'Live: updates as they happen.')
})
events.addEventListener('error', () => {
  if (events.readyState === EventSource.CLOSED) setConnection('lost', 'Disconnected: reload the page to reconnect.')
  else setConnection('lost', 'Connection lost: reconnecting…')
})
events.addEventListener('state', (event) => {
  render(/** @type {EmulatorState} */ (dataOf(event)))
  document.body.dataset.ready = 'true'
})
events.addEventListener('journal', (event) => {
  const entries = /** @type {JournalEntry[]} */ (dataOf(event))
  if (backlog) {
    backlog = false
    journal.replace(entries)
  } else {
    announceRequests(journal.add(entries, true))
  }
})
events.addEventListener('journal-cleared', () => {
  journal.clear()
})
