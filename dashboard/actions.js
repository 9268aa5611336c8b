// @ts-check
/**
 * What the panels may ask of the page: run a control-plane call and say how it went (a polite
 * announcement when it is done, a toast with the emulator's error when it is not), ask before a
 * change, show a new client secret once, and copy text to the clipboard. The page has one
 * announcer, one toast and one dialog of each kind, so this module finds them itself.
 */
import { byId, setText } from './dom.js'

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

const announcer = byId('announcer', HTMLElement)
const toast = byId('error-toast', HTMLElement)

/**
 * Says `text` through the page's live region (cleared first, so the same text is said again).
 * @param {string} text
 */
export function announce(text) {
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

// Calls and copies -------------------------------------------------------------------------------

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
export const actions = { run, confirm, showSecret, copy }
