// @ts-check
/**
 * Small DOM helpers for the dashboard: an element builder, a typed look-up of the page's elements,
 * a keyed list that updates rows in place (so focus, open details and typed input survive a live
 * update), and formatting.
 */

/**
 * @typedef {string | number | Node | null | undefined | false} Child
 * @typedef {{ [name: string]: string | number | boolean | null | undefined | EventListener }} Props
 */

/**
 * Builds an element. Props starting with `on` are listeners; `class` sets the class; `true`
 * sets a boolean attribute, `false`, null and undefined leave it out.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Props} [props]
 * @param {...(Child | Child[])} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function h(tag, props = {}, ...children) {
  const el = document.createElement(tag)
  for (const [name, value] of Object.entries(props)) {
    if (typeof value === 'function') el.addEventListener(name.slice(2), value)
    else if (value === true) el.setAttribute(name, '')
    else if (value !== false && value !== null && value !== undefined) el.setAttribute(name, String(value))
  }
  append(el, children)
  return el
}

/**
 * The page's element `#id`, which must be a `type`: the page and its script ship together.
 * @template {HTMLElement} T
 * @param {string} id
 * @param {new () => T} type
 * @returns {T}
 */
export function byId(id, type) {
  const el = document.getElementById(id)
  if (!(el instanceof type)) throw new Error(`The page has no ${type.name} #${id}.`)
  return el
}

/**
 * @param {Element} el
 * @param {(Child | Child[])[]} children
 */
function append(el, children) {
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue
    el.append(typeof child === 'object' ? child : String(child))
  }
}

/**
 * Replaces an element's children.
 * @param {Element} el
 * @param {...(Child | Child[])} children
 */
export function fill(el, ...children) {
  el.replaceChildren()
  append(el, children)
}

/**
 * Sets text only when it changed (keeps a screen reader's place and avoids needless layout).
 * @param {Element} el
 * @param {string} text
 */
export function setText(el, text) {
  if (el.textContent !== text) el.textContent = text
}

/**
 * @template T
 * @typedef {{ el: HTMLElement, update: (item: T) => void }} Row
 */

/**
 * A list whose rows are kept by key: new keys get a row, known keys are updated in place, rows
 * whose key is gone are removed, and the order follows `items`.
 * @template T
 * @param {HTMLElement} container
 * @param {(item: T) => string} key
 * @param {(item: T) => Row<T>} create
 * @returns {(items: readonly T[]) => void}
 */
export function keyedList(container, key, create) {
  /** @type {Map<string, Row<T>>} */
  const rows = new Map()
  return (items) => {
    const seen = new Set()
    /** @type {Element | null} */
    let previous = null
    for (const item of items) {
      const k = key(item)
      seen.add(k)
      let row = rows.get(k)
      if (!row) {
        row = create(item)
        rows.set(k, row)
      }
      row.update(item)
      /** @type {Element | null} */
      const expected = previous ? previous.nextElementSibling : container.firstElementChild
      if (expected !== row.el) {
        if (previous) previous.after(row.el)
        else container.prepend(row.el)
      }
      previous = row.el
    }
    for (const [k, row] of rows) {
      if (!seen.has(k)) {
        row.el.remove()
        rows.delete(k)
      }
    }
  }
}

/**
 * Text whose `backticked` parts are code, as the scenario files write them.
 * @param {string} text
 * @returns {Child[]}
 */
export function withCode(text) {
  return text.split('`').map((part, i) => (i % 2 === 1 ? h('code', {}, part) : part))
}

/**
 * "while `a` is on", "while `a` and `b` are on": the scenarios that override a setting.
 * @param {readonly string[]} names
 * @returns {Child[]}
 */
export function whileOn(names) {
  /** @type {Child[]} */
  const out = ['while ']
  names.forEach((name, i) => {
    if (i > 0) out.push(i === names.length - 1 ? ' and ' : ', ')
    out.push(h('code', {}, name))
  })
  out.push(names.length === 1 ? ' is on' : ' are on')
  return out
}

/** @param {number} n */
export function formatNumber(n) {
  return new Intl.NumberFormat('en').format(n)
}

/**
 * Emulator time as `2026-11-21 20:58:51 UTC` (the emulator's clock is not the viewer's).
 * @param {number} ms
 */
export function formatDateTime(ms) {
  return `${new Date(ms).toISOString().slice(0, 19).replace('T', ' ')} UTC`
}

/**
 * `20:58:51.071`, from an ISO time.
 * @param {string} iso
 */
export function formatTime(iso) {
  return iso.slice(11, 23)
}

/**
 * Pretty JSON of a value; a JSON string is parsed first, other text is shown as it is.
 * @param {unknown} value
 */
export function pretty(value) {
  if (typeof value === 'string') {
    try {
      return JSON.stringify(JSON.parse(value), null, 2)
    } catch {
      return value
    }
  }
  return JSON.stringify(value, null, 2) ?? ''
}

/**
 * The class of a status for styling: ok, redirect, client-error, server-error, fault.
 * @param {number} status
 */
export function statusKind(status) {
  if (status === 0) return 'fault'
  if (status < 300) return 'ok'
  if (status < 400) return 'redirect'
  if (status < 500) return 'client-error'
  return 'server-error'
}
