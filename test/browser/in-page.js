// @ts-check
/**
 * Checks the browser test runs inside the page (added with `page.addInitScript`): plain
 * JavaScript for the browser, kept out of the TypeScript program, whose library has no DOM.
 */

/**
 * What overlaps or spills out, as the page is laid out now: the page wider than the window, a
 * container whose content runs past its edge, parts of a journal row that cover each other.
 * @returns {string[]}
 */
function layoutProblems() {
  /** @type {string[]} */
  const found = []
  /** @param {Element} el */
  const visible = (el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden'
  /** @param {Element} el */
  const name = (el) => {
    const entry = el.closest('[data-seq]')
    return `${el.tagName.toLowerCase()}.${[...el.classList].join('.')}${entry ? ` (entry ${entry.getAttribute('data-seq')})` : ''}`
  }
  if (document.documentElement.scrollWidth > window.innerWidth) found.push(`the page is ${document.documentElement.scrollWidth} px wide in a ${window.innerWidth} px window`)
  const containers =
    '.top, .panel, .toolbar, .filters, .tabs, .tabpanel, .entry > details > summary, .entry-body, .request-line, .near-miss, .facts, .exchange > section, .card, .wins, .scenario, .on-now, .copy-row, .save-file, .options-form'
  for (const el of document.querySelectorAll(containers)) {
    if (visible(el) && el.scrollWidth > el.clientWidth + 1) found.push(`${name(el)}: content ${el.scrollWidth} px in ${el.clientWidth} px`)
  }
  for (const summary of document.querySelectorAll('.entry > details > summary')) {
    if (!visible(summary)) continue
    const parts = [...summary.querySelectorAll(':scope > .status, :scope > .method, :scope > .path, :scope > .when, :scope > .meta')].filter(visible)
    for (const [i, a] of parts.entries()) {
      for (const b of parts.slice(i + 1)) {
        const r = a.getBoundingClientRect()
        const s = b.getBoundingClientRect()
        const x = Math.min(r.right, s.right) - Math.max(r.left, s.left)
        const y = Math.min(r.bottom, s.bottom) - Math.max(r.top, s.top)
        if (x > 1 && y > 1) found.push(`${name(a)} overlaps ${name(b)}`)
      }
    }
  }
  return found
}

/**
 * Whether `text`, inside the element's first text node, is drawn within the element's box (not
 * cut off by an ellipsis or the edge).
 * @param {Element} el
 * @param {string} text
 */
function textInView(el, text) {
  const node = el.firstChild
  const at = node?.textContent?.indexOf(text) ?? -1
  if (!node || at < 0) return false
  const range = document.createRange()
  range.setStart(node, at)
  range.setEnd(node, at + text.length)
  const box = el.getBoundingClientRect()
  const drawn = range.getBoundingClientRect()
  return drawn.left >= box.left - 1 && drawn.right <= box.right + 1
}


/**
 * How far the page and the journal reach: the document's size and scroll, the window's size, and
 * the journal list's full and shown height.
 */
function pageExtent() {
  const journal = document.querySelector('#journal-list')
  return {
    page: document.documentElement.scrollHeight,
    pageWidth: document.documentElement.scrollWidth,
    window: window.innerHeight,
    windowWidth: window.innerWidth,
    journal: journal?.scrollHeight ?? 0,
    journalShown: journal?.clientHeight ?? 0,
    journalScrolled: journal?.scrollTop ?? 0,
    scrolled: window.scrollY,
  }
}

Object.assign(window, { layoutProblems, textInView, pageExtent })
