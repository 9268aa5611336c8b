// @ts-check
/**
 * The request journal, newest first: one row per request (status, method, path, route, the
 * scenarios that shaped it, time), filterable by route, status and path, each row expandable to
 * its full URL, headers and bodies, a copy-as-curl, and for a request no route answered, the near
 * miss. The live view can be paused (new requests are held, then shown on resume). The emulator
 * redacts secrets before an entry ever leaves it; this view shows entries as they come.
 */
import { toCurl } from './curl.js'
import { fill, formatNumber, formatTime, h, pretty, setText, statusKind } from './dom.js'

/**
 * @typedef {import('../src/index.js').JournalEntry} JournalEntry
 * @typedef {import('../src/index.js').RouteInfo} RouteInfo
 * @typedef {import('../src/index.js').NearMiss} NearMiss
 * @typedef {{ entry: JournalEntry, el: HTMLLIElement }} Row
 * @typedef {(text: string, what: string) => void} Copy
 */

/** Rows kept on the page (the emulator's journal keeps more: see `GET /__svc-mock/journal`). */
export const MAX_ROWS = 500

export class JournalView {
  /** @type {Row[]} newest first */
  #rows = []
  /** @type {Set<string>} */
  #routes = new Set()
  /** @type {JournalEntry[] | undefined} entries held while paused, oldest first */
  #held
  #els
  #copy

  /**
   * @param {{ list: HTMLOListElement, empty: HTMLElement, count: HTMLElement, route: HTMLSelectElement, status: HTMLSelectElement, text: HTMLInputElement, held: HTMLElement }} els
   * @param {Copy} copy
   */
  constructor(els, copy) {
    this.#els = els
    this.#copy = copy
    for (const control of [els.route, els.status]) control.addEventListener('change', () => this.#applyFilter())
    els.text.addEventListener('input', () => this.#applyFilter())
    els.text.form?.addEventListener('submit', (event) => event.preventDefault())
    this.#update()
  }

  /** Whether new entries are held back instead of shown. */
  get paused() {
    return this.#held !== undefined
  }

  /** Holds new entries back until `resume()`. */
  pause() {
    this.#held ??= []
    this.#update()
  }

  /** Shows the entries held while paused; returns those the filter shows. */
  resume() {
    const held = this.#held ?? []
    this.#held = undefined
    return this.add(held)
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
   * While paused they are held instead.
   * @param {readonly JournalEntry[]} entries
   * @param {boolean} [fresh] they have just arrived (highlighted for a moment)
   * @returns {JournalEntry[]}
   */
  add(entries, fresh = false) {
    if (this.#held) {
      this.#held.push(...entries)
      this.#update()
      return []
    }
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
      this.#els.list.prepend(el)
      this.#rows.unshift({ entry, el })
    }
    for (const row of this.#rows.splice(MAX_ROWS)) row.el.remove()
    this.#update()
    return shown
  }

  /** Empties the view (the emulator's journal was emptied: cleared, or a reset). */
  clear() {
    this.#rows = []
    if (this.#held) this.#held = []
    this.#els.list.replaceChildren()
    this.#update()
  }

  /**
   * Starts over from these entries (a new connection's backlog).
   * @param {readonly JournalEntry[]} entries
   */
  replace(entries) {
    const held = this.#held
    this.#held = undefined
    this.clear()
    this.add(entries)
    if (held) this.#held = []
    this.#update()
  }

  /** @param {string} id */
  #addRoute(id) {
    if (this.#routes.has(id)) return
    this.#routes.add(id)
    const domain = id.includes('.') ? id.slice(0, id.indexOf('.')) : id
    let group = [...this.#els.route.querySelectorAll('optgroup')].find((g) => g.dataset.domain === domain)
    if (!group) {
      group = h('optgroup', { label: domain, 'data-domain': domain })
      if (id.includes('.')) group.append(h('option', { value: `${domain}.*` }, `Every ${domain} route`))
      this.#els.route.append(group)
    }
    group.append(h('option', { value: id }, id))
  }

  /** @param {JournalEntry} entry */
  #matches(entry) {
    const route = this.#els.route.value
    if (route === '!control' && entry.route.startsWith('control.')) return false
    if (route.endsWith('.*') && !entry.route.startsWith(route.slice(0, -1))) return false
    if (route !== '' && route !== '!control' && !route.endsWith('.*') && entry.route !== route) return false
    const status = this.#els.status.value
    if (status === '0' && entry.status !== 0) return false
    if (status !== '' && status !== '0' && Math.floor(entry.status / 100) !== Number(status)) return false
    const text = this.#els.text.value.trim().toLowerCase()
    return text === '' || entry.path.toLowerCase().includes(text)
  }

  #applyFilter() {
    for (const row of this.#rows) row.el.hidden = !this.#matches(row.entry)
    this.#update()
  }

  #update() {
    const { empty, count, held } = this.#els
    const shown = this.#rows.filter((row) => !row.el.hidden).length
    const total = this.#rows.length
    empty.hidden = shown > 0
    setText(empty, this.#emptyText(total))
    setText(count, total === 0 ? '' : shown === total ? `${formatNumber(total)} shown, newest first` : `${formatNumber(shown)} of ${formatNumber(total)} shown, newest first`)
    held.hidden = this.#held === undefined
    const waiting = this.#held?.length ?? 0
    setText(held, `Paused: ${waiting === 0 ? 'new requests are held until you resume' : `${formatNumber(waiting)} new request${waiting === 1 ? '' : 's'} held`}.`)
  }

  /** @param {number} total */
  #emptyText(total) {
    if (total === 0) return 'No requests yet. Send one to the emulator and it appears here at once.'
    const onlyControl = this.#rows.every((row) => row.entry.route.startsWith('control.'))
    if (onlyControl && this.#els.route.value === '!control') return 'No requests yet apart from control-plane calls (choose "All routes" to see them).'
    return 'No request matches these filters.'
  }

  /**
   * @param {JournalEntry} entry
   * @returns {HTMLLIElement}
   */
  #row(entry) {
    const kind = statusKind(entry.status)
    const [head, tail] = splitPath(entry.path)
    const body = h('div', { class: 'entry-body' })
    const details = h(
      'details',
      {},
      h(
        'summary',
        {},
        h('span', { class: `status ${kind}` }, h('span', { class: 'visually-hidden' }, 'Status '), entry.status === 0 ? 'fault' : String(entry.status)),
        h('span', { class: 'method' }, entry.method),
        // Elided in the middle: the end of the path (an element id, a webhook token) stays in view.
        h('span', { class: 'path', title: entry.path }, h('span', { class: 'head' }, head), h('span', { class: 'tail' }, tail)),
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
      if (details.open && body.childElementCount === 0) fill(body, ...entryDetails(entry, this.#copy))
    })
    return h('li', { class: 'entry', 'data-seq': entry.seq, 'data-route': entry.route, 'data-status': entry.status }, details)
  }
}

/**
 * A path split for eliding in the middle: the tail is the last segment and its query, with the
 * segment before when the last is short (`…/elements/<id>/versions`, `/hooks/<token>`).
 * @param {string} path
 * @returns {[string, string]}
 */
export function splitPath(path) {
  const query = path.indexOf('?')
  const pathname = query === -1 ? path : path.slice(0, query)
  let cut = pathname.lastIndexOf('/')
  if (pathname.length - cut <= 12 && cut > 0) cut = pathname.lastIndexOf('/', cut - 1)
  if (cut <= 0) return ['', path]
  return [path.slice(0, cut), path.slice(cut)]
}

/**
 * @param {JournalEntry} entry
 * @param {Copy} copy
 * @returns {import('./dom.js').Child[]}
 */
function entryDetails(entry, copy) {
  const url = `${entry.origin}${entry.path}`
  const curl = toCurl(entry)
  return [
    h(
      'div',
      { class: 'request-line' },
      h('p', { class: 'full-url' }, h('span', { class: 'method' }, entry.method), ' ', h('code', {}, url)),
      h(
        'div',
        { class: 'actions' },
        h('button', { type: 'button', class: 'button small', onclick: () => copy(url, 'URL') }, 'Copy URL'),
        h('button', { type: 'button', class: 'button small', onclick: () => copy(curl.command, 'curl command') }, 'Copy as curl'),
      ),
    ),
    entry.nearMiss ? nearMissBlock(entry.nearMiss) : null,
    h(
      'details',
      { class: 'curl' },
      h('summary', {}, 'Show as curl'),
      h('pre', { class: 'body', tabindex: 0, 'aria-label': 'curl command' }, curl.command),
      h('p', { class: 'muted small' }, 'Credentials and secret fields are placeholders in angle brackets: fill them in.', curl.bodyMissing ? ' The body is not included: the journal keeps text bodies up to 64 KB only (not multipart).' : ''),
    ),
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
      h('section', { 'aria-label': 'Request' }, h('h4', {}, 'Request'), headerTable(entry.request.headers), bodyBlock(entry.request.bodyText ?? entry.request.body)),
      h('section', { 'aria-label': 'Response' }, h('h4', {}, 'Response'), h('p', { class: 'mono small' }, entry.status === 0 ? 'No answer: the connection was closed on purpose (scenario fault)' : `Status ${entry.status}`), headerTable(entry.response.headers), bodyBlock(entry.response.body)),
    ),
  ]
}

/**
 * What a request no route answered came closest to, as WireMock's near misses say it.
 * @param {NearMiss} miss
 */
function nearMissBlock(miss) {
  return h(
    'section',
    { class: 'near-miss', 'aria-label': 'Near miss' },
    h('h4', {}, 'No route matched. Closest: ', h('code', {}, `${miss.route.method} ${miss.route.path}`), ` (${miss.route.id})`),
    h(
      'ul',
      {},
      miss.differences.map((d) => {
        if (d.part === 'method') return h('li', {}, 'Method: sent ', h('code', {}, d.actual), ', the route takes ', h('code', {}, d.expected))
        if (d.part === 'origin') return h('li', {}, 'Origin: sent to ', h('code', {}, d.actual), ', the route lives on ', h('code', {}, d.expected))
        if (d.expected === null) return h('li', {}, `Path segment ${d.segment}: `, h('code', {}, d.actual ?? ''), ' is one too many')
        if (d.actual === null) return h('li', {}, `Path segment ${d.segment}: missing, the route expects `, h('code', {}, d.expected))
        return h('li', {}, `Path segment ${d.segment}: sent `, h('code', {}, d.actual), ', the route expects ', h('code', {}, d.expected))
      }),
    ),
  )
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
