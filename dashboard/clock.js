// @ts-check
/**
 * The header's clock: the emulator's time, its mode and time scale, and the Advance form. On a
 * real clock the page moves the time shown on by itself between events (time passing is not a
 * change the emulator sends); on a manual clock it moves only when advanced.
 */
import { api } from './api.js'
import { formatDateTime, formatNumber, setText } from './dom.js'

/**
 * @typedef {import('../src/index.js').EmulatorState} EmulatorState
 * @typedef {import('./actions.js').Actions} Actions
 */

/**
 * @param {{ now: HTMLTimeElement, mode: HTMLElement, scale: HTMLElement, advance: HTMLFormElement, amount: HTMLInputElement, unit: HTMLSelectElement }} els
 * @param {Actions} actions
 * @returns {(state: EmulatorState) => void} shows the clock of a state
 */
export function clockPanel(els, actions) {
  /** @type {{ at: number, now: number, scale: number, real: boolean } | undefined} */
  let clock
  function tick() {
    if (!clock) return
    const now = clock.real ? clock.now + (performance.now() - clock.at) / clock.scale : clock.now
    const text = formatDateTime(now)
    setText(els.now, text)
    els.now.dateTime = new Date(now).toISOString()
  }
  setInterval(tick, 250)

  els.advance.addEventListener('submit', (event) => {
    event.preventDefault()
    const amount = Number(els.amount.value)
    const unit = Number(els.unit.value)
    const ms = Math.round(amount * unit)
    const button = els.advance.querySelector('button')
    if (button) actions.run(button, `Clock advanced by ${formatNumber(ms)} ms.`, () => api.advanceClock(ms))
  })

  return (state) => {
    clock = { at: performance.now(), now: Date.parse(state.clock.now), scale: state.clock.timeScale, real: state.clock.mode === 'real' }
    setText(els.mode, state.clock.mode === 'real' ? 'Real' : 'Manual')
    setText(els.scale, describeScale(state.clock))
    tick()
  }
}

/** @param {EmulatorState['clock']} c */
function describeScale(c) {
  if (c.mode === 'manual') return 'moves on Advance'
  if (c.timeScale === 1) return '1× (real time)'
  return c.timeScale < 1 ? `${formatNumber(1 / c.timeScale)}× faster` : `${formatNumber(c.timeScale)}× slower`
}
