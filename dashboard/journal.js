// @ts-check
/**
 * The request journal, newest first: one row per request (journal-entry.js builds it), at most
 * MAX_ROWS kept, filterable by route, status and path. The live view can be paused (new requests
 * are held, then shown on resume). The emulator redacts secrets before an entry ever leaves it;
 * this view shows entries as they come.
 */
import { formatNumber, h, setText } from './dom.js'
import { entryRow } from './journal-entry.js'

/**
 * @typedef {import('../src/index.js').JournalEntry} JournalEntry
 * @typedef {import('../src/index.js').RouteInfo} RouteInfo
 * @typedef {import('./journal-entry.js').Copy} Copy
 * @typedef {{ entry: JournalEntry, el: HTMLLIElement }} Row
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
      const el = entryRow(entry, this.#copy)
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
}
