// @ts-check
/**
 * The request journal, newest first: one row per request (status, method, path, route, the
 * scenarios that shaped it, time, duration), filterable by route, status and path, each row
 * expandable to its headers and bodies. The emulator redacts secrets before an entry ever leaves
 * it; this view shows entries as they come.
 */
import { fill, formatNumber, formatTime, h, pretty, setText, statusKind } from './dom.js'

/**
 * @typedef {import('../src/index.js').JournalEntry} JournalEntry
 * @typedef {import('../src/index.js').RouteInfo} RouteInfo
 * @typedef {{ entry: JournalEntry, el: HTMLLIElement }} Row
 */

/** Rows kept on the page (the emulator's journal keeps more: see `GET /__svc-mock/journal`). */
export const MAX_ROWS = 500

export class JournalView {
  /** @type {Row[]} newest first */
  #rows = []
  /** @type {Set<string>} */
  #routes = new Set()
  #list
  #empty
  #count
  #route
  #status
  #text

  /**
   * @param {{ list: HTMLOListElement, empty: HTMLElement, count: HTMLElement, route: HTMLSelectElement, status: HTMLSelectElement, text: HTMLInputElement }} els
   */
  constructor(els) {
    this.#list = els.list
    this.#empty = els.empty
    this.#count = els.count
    this.#route = els.route
    this.#status = els.status
    this.#text = els.text
    for (const control of [els.route, els.status]) control.addEventListener('change', () => this.#applyFilter())
    els.text.addEventListener('input', () => this.#applyFilter())
    els.text.form?.addEventListener('submit', (event) => event.preventDefault())
    this.#update()
  }

  /**
   * Offers every route of the emulator in the route filter, grouped by domain.
   * @param {readonly RouteInfo[]} routes
   */
  setRoutes(routes) {
    for (const route of routes) this.#addRoute(route.id)
  }

  /**
   * Adds entries (oldest first, as the emulator sends them); returns those the filter shows.
   * @param {readonly JournalEntry[]} entries
   * @param {boolean} [fresh] they have just arrived (highlighted for a moment)
   * @returns {JournalEntry[]}
   */
  add(entries, fresh = false) {
    const newest = this.#rows[0]?.entry.seq ?? 0
    /** @type {JournalEntry[]} */
    const shown = []
    for (const entry of entries) {
      if (entry.seq <= newest) continue
      this.#addRoute(entry.route)
      const el = this.#row(entry)
      if (fresh) el.classList.add('fresh')
      el.hidden = !this.#matches(entry)
      if (!el.hidden) shown.push(entry)
      this.#list.prepend(el)
      this.#rows.unshift({ entry, el })
    }
    for (const row of this.#rows.splice(MAX_ROWS)) row.el.remove()
    this.#update()
    return shown
  }

  /** Empties the view (the emulator's journal was emptied by a reset). */
  clear() {
    this.#rows = []
    this.#list.replaceChildren()
    this.#update()
  }

  /**
   * Starts over from these entries (a new connection's backlog).
   * @param {readonly JournalEntry[]} entries
   */
  replace(entries) {
    this.clear()
    this.add(entries)
  }

  /** @param {string} id */
  #addRoute(id) {
    if (this.#routes.has(id)) return
    this.#routes.add(id)
    const domain = id.includes('.') ? id.slice(0, id.indexOf('.')) : id
    let group = [...this.#route.querySelectorAll('optgroup')].find((g) => g.dataset.domain === domain)
    if (!group) {
      group = h('optgroup', { label: domain, 'data-domain': domain })
      if (id.includes('.')) group.append(h('option', { value: `${domain}.*` }, `Every ${domain} route`))
      this.#route.append(group)
    }
    group.append(h('option', { value: id }, id))
  }

  /** @param {JournalEntry} entry */
  #matches(entry) {
    const route = this.#route.value
    if (route === '!control' && entry.route.startsWith('control.')) return false
    if (route.endsWith('.*') && !entry.route.startsWith(route.slice(0, -1))) return false
    if (route !== '' && route !== '!control' && !route.endsWith('.*') && entry.route !== route) return false
    const status = this.#status.value
    if (status === '0' && entry.status !== 0) return false
    if (status !== '' && status !== '0' && Math.floor(entry.status / 100) !== Number(status)) return false
    const text = this.#text.value.trim().toLowerCase()
    return text === '' || entry.path.toLowerCase().includes(text)
  }

  #applyFilter() {
    for (const row of this.#rows) row.el.hidden = !this.#matches(row.entry)
    this.#update()
  }

  #update() {
    const shown = this.#rows.filter((row) => !row.el.hidden).length
    const total = this.#rows.length
    this.#empty.hidden = shown > 0
    setText(this.#empty, this.#emptyText(total))
    setText(this.#count, total === 0 ? '' : shown === total ? `${formatNumber(total)} shown, newest first` : `${formatNumber(shown)} of ${formatNumber(total)} shown, newest first`)
  }

  /** @param {number} total */
  #emptyText(total) {
    if (total === 0) return 'No requests yet. Send one to the emulator and it appears here at once.'
    const onlyControl = this.#rows.every((row) => row.entry.route.startsWith('control.'))
    if (onlyControl && this.#route.value === '!control') return 'No requests yet apart from control-plane calls (choose "All routes" to see them).'
    return 'No request matches these filters.'
  }

  /**
   * @param {JournalEntry} entry
   * @returns {HTMLLIElement}
   */
  #row(entry) {
    const kind = statusKind(entry.status)
    const body = h('div', { class: 'entry-body' })
    const details = h(
      'details',
      {},
      h(
        'summary',
        {},
        h('span', { class: `status ${kind}` }, h('span', { class: 'visually-hidden' }, 'Status '), entry.status === 0 ? 'fault' : String(entry.status)),
        h('span', { class: 'method' }, entry.method),
        h('span', { class: 'path', title: entry.path }, entry.path),
        h('time', { class: 'when', datetime: entry.time }, formatTime(entry.time)),
        h(
          'span',
          { class: 'meta' },
          h('span', { class: 'route' }, entry.route),
          entry.scenarios.map((name) => h('span', { class: 'shaped' }, h('span', { class: 'visually-hidden' }, 'shaped by scenario '), name)),
        ),
      ),
      body,
    )
    // Headers and bodies are built when first opened: most rows never are.
    details.addEventListener('toggle', () => {
      if (details.open && body.childElementCount === 0) fill(body, ...entryDetails(entry))
    })
    return h('li', { class: 'entry', 'data-seq': entry.seq, 'data-route': entry.route, 'data-status': entry.status }, details)
  }
}

/**
 * @param {JournalEntry} entry
 * @returns {HTMLElement[]}
 */
function entryDetails(entry) {
  return [
    h(
      'dl',
      { class: 'facts' },
      fact('Route', entry.route),
      fact('Identity', entry.identity ?? 'not authenticated'),
      fact('Scenarios', entry.scenarios.length > 0 ? entry.scenarios.join(', ') : 'none'),
      fact('Duration', `${formatNumber(entry.durationMs)} ms emulator time`),
      fact('Transport', entry.transport),
      fact('Journal #', String(entry.seq)),
    ),
    h(
      'div',
      { class: 'exchange' },
      h('section', { 'aria-label': 'Request' }, h('h4', {}, 'Request'), h('p', { class: 'mono small' }, `${entry.method} ${entry.path}`), headerTable(entry.request.headers), bodyBlock(entry.request.body)),
      h('section', { 'aria-label': 'Response' }, h('h4', {}, 'Response'), h('p', { class: 'mono small' }, entry.status === 0 ? 'No answer: the connection was closed on purpose (scenario fault)' : `Status ${entry.status}`), headerTable(entry.response.headers), bodyBlock(entry.response.body)),
    ),
  ]
}

/**
 * @param {string} term
 * @param {string} value
 */
function fact(term, value) {
  return h('div', {}, h('dt', {}, term), h('dd', {}, value))
}

/** @param {Readonly<Record<string, string>>} headers */
function headerTable(headers) {
  const names = Object.keys(headers)
  if (names.length === 0) return h('p', { class: 'muted small' }, 'No headers.')
  return h(
    'table',
    { class: 'headers' },
    h('caption', { class: 'visually-hidden' }, 'Headers'),
    h('tbody', {}, names.map((name) => h('tr', {}, h('th', { scope: 'row' }, name), h('td', {}, headers[name] ?? '')))),
  )
}

/** @param {unknown} body */
function bodyBlock(body) {
  if (body === undefined || body === '') return h('p', { class: 'muted small' }, 'No body recorded.')
  return h('pre', { class: 'body', tabindex: 0, 'aria-label': 'Body' }, pretty(body))
}
