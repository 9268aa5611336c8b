// @ts-check
/**
 * One request of the journal as a row: the summary line (status, method, the path elided in the
 * middle, time, route, the scenarios that shaped it) and, once opened, its full URL to copy, the
 * copy-as-curl, the near miss of a request no route answered, its facts, and the headers and
 * bodies of the request and the response.
 */
import { toCurl } from './curl.js'
import { fill, formatNumber, formatTime, h, pretty, statusKind } from './dom.js'

/**
 * @typedef {import('../src/index.js').JournalEntry} JournalEntry
 * @typedef {import('../src/index.js').NearMiss} NearMiss
 * @typedef {(text: string, what: string) => void} Copy
 */

/**
 * A request's row: its summary line, and its details built when first opened.
 * @param {JournalEntry} entry
 * @param {Copy} copy
 * @returns {HTMLLIElement}
 */
export function entryRow(entry, copy) {
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
    if (details.open && body.childElementCount === 0) fill(body, ...entryDetails(entry, copy))
  })
  return h('li', { class: 'entry', 'data-seq': entry.seq, 'data-route': entry.route, 'data-status': entry.status }, details)
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
