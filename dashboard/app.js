// @ts-check
/**
 * The dashboard's entry point. It listens to `GET /__svc-mock/events` (server-sent events: the
 * whole state whenever it changes, each new journal entry as it is recorded) and renders; every
 * button calls the control plane (api.js). The page keeps no state of its own beyond what the
 * last event said, so a reload or a reconnect shows exactly what the emulator holds.
 */
import { api } from './api.js'
import { formatDateTime, formatNumber, setText } from './dom.js'
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

/**
 * What the panels may ask of the page.
 * @typedef {object} Actions
 * @property {(trigger: HTMLElement, done: string, fn: () => Promise<unknown>) => void} run
 *   Calls the control plane; announces `done`, or shows the emulator's error.
 * @property {(title: string, text: string, confirmLabel: string) => Promise<boolean>} confirm
 * @property {(clientId: string, secret: string, returnFocus: HTMLElement) => void} showSecret
 * @property {(text: string, what: string) => void} copy
 *   Puts `text` on the clipboard and says so (`what` names it: "curl command").
 */

/**
 * @template {HTMLElement} T
 * @param {string} id
 * @param {new () => T} type
 * @returns {T}
 */
function byId(id, type) {
  const el = document.getElementById(id)
  if (!(el instanceof type)) throw new Error(`The page has no ${type.name} #${id}.`)
  return el
}

const announcer = byId('announcer', HTMLElement)
const toast = byId('error-toast', HTMLElement)

/** @param {string} text */
function announce(text) {
  announcer.textContent = ''
  requestAnimationFrame(() => {
    announcer.textContent = text
  })
}

/** @type {ReturnType<typeof setTimeout> | undefined} */
let toastTimer
/** @param {string} message */
function showError(message) {
  toast.textContent = message
  toast.hidden = false
  clearTimeout(toastTimer)
  toastTimer = setTimeout(() => {
    toast.hidden = true
  }, 10_000)
}
toast.addEventListener('click', () => {
  toast.hidden = true
})

// Dialogs ----------------------------------------------------------------------------------------

const confirmDialog = byId('confirm-dialog', HTMLDialogElement)
/** @type {Actions['confirm']} */
function confirm(title, text, confirmLabel) {
  setText(byId('confirm-title', HTMLElement), title)
  setText(byId('confirm-text', HTMLElement), text)
  setText(byId('confirm-ok', HTMLButtonElement), confirmLabel)
  const opener = document.activeElement
  confirmDialog.returnValue = ''
  confirmDialog.showModal()
  return new Promise((resolve) => {
    confirmDialog.addEventListener(
      'close',
      () => {
        if (opener instanceof HTMLElement) opener.focus()
        resolve(confirmDialog.returnValue === 'confirm')
      },
      { once: true },
    )
  })
}

const secretDialog = byId('secret-dialog', HTMLDialogElement)
const secretValue = byId('secret-value', HTMLInputElement)
/** @type {HTMLElement | undefined} */
let secretOpener
/** @type {Actions['showSecret']} */
function showSecret(clientId, secret, returnFocus) {
  setText(byId('secret-client', HTMLElement), clientId)
  secretValue.value = secret
  secretOpener = returnFocus
  secretDialog.showModal()
  secretValue.select()
}
secretDialog.addEventListener('close', () => {
  // Shown once: gone from the page as soon as the dialog closes.
  secretValue.value = ''
  secretOpener?.focus()
})
byId('secret-copy', HTMLButtonElement).addEventListener('click', async () => {
  try {
    await navigator.clipboard.writeText(secretValue.value)
    announce('Secret copied.')
  } catch {
    secretValue.select()
    announce('Select the secret and copy it with your keyboard.')
  }
})

// Actions ----------------------------------------------------------------------------------------

/** @type {WeakSet<HTMLElement>} */
const busy = new WeakSet()
/** @type {Actions['run']} */
function run(trigger, done, fn) {
  if (busy.has(trigger)) return
  busy.add(trigger)
  trigger.setAttribute('aria-busy', 'true')
  fn().then(
    () => announce(done),
    (/** @type {unknown} */ error) => showError(error instanceof Error ? error.message : String(error)),
  ).finally(() => {
    busy.delete(trigger)
    trigger.removeAttribute('aria-busy')
  })
}

/** @type {Actions['copy']} */
function copy(text, what) {
  navigator.clipboard.writeText(text).then(
    () => announce(`${what.charAt(0).toUpperCase()}${what.slice(1)} copied.`),
    () => showError(`The browser did not let the page copy the ${what}: select it and copy it with your keyboard.`),
  )
}

/** @type {Actions} */
const actions = { run, confirm, showSecret, copy }

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

// Clock ------------------------------------------------------------------------------------------

const clockNow = byId('clock-now', HTMLTimeElement)
/** @type {{ at: number, now: number, scale: number, real: boolean } | undefined} */
let clock
function tick() {
  if (!clock) return
  const now = clock.real ? clock.now + (performance.now() - clock.at) / clock.scale : clock.now
  const text = formatDateTime(now)
  setText(clockNow, text)
  clockNow.dateTime = new Date(now).toISOString()
}
setInterval(tick, 250)

/** @param {EmulatorState} state */
function renderClock(state) {
  clock = { at: performance.now(), now: Date.parse(state.clock.now), scale: state.clock.timeScale, real: state.clock.mode === 'real' }
  setText(byId('clock-mode', HTMLElement), state.clock.mode === 'real' ? 'Real' : 'Manual')
  setText(byId('clock-scale', HTMLElement), describeScale(state.clock))
  tick()
}

/** @param {EmulatorState['clock']} c */
function describeScale(c) {
  if (c.mode === 'manual') return 'moves on Advance'
  if (c.timeScale === 1) return '1× (real time)'
  return c.timeScale < 1 ? `${formatNumber(1 / c.timeScale)}× faster` : `${formatNumber(c.timeScale)}× slower`
}

const advanceForm = byId('advance-form', HTMLFormElement)
advanceForm.addEventListener('submit', (event) => {
  event.preventDefault()
  const amount = Number(byId('advance-amount', HTMLInputElement).value)
  const unit = Number(byId('advance-unit', HTMLSelectElement).value)
  const ms = Math.round(amount * unit)
  const button = advanceForm.querySelector('button')
  if (button) run(button, `Clock advanced by ${formatNumber(ms)} ms.`, () => api.advanceClock(ms))
})

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
