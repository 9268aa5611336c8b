// @ts-check
/**
 * Webhooks: each with its address, its flow as calls meet it now (scenarios applied), the queue
 * against its capacity, and the latest runs with the bundles they received. A flow is switched
 * on or off and given an outcome with `PUT /__svc-mock/webhooks/{id}/flow`.
 */
import { api } from './api.js'
import { fill, formatNumber, formatTime, h, keyedList, pretty, setText, whileOn } from './dom.js'

/**
 * @typedef {import('../src/index.js').EmulatorState} EmulatorState
 * @typedef {import('../src/index.js').WebhookState} WebhookState
 * @typedef {import('../src/index.js').ExecutionSummary} ExecutionSummary
 * @typedef {import('./actions.js').Actions} Actions
 */

const OUTCOMES = /** @type {const} */ ([
  ['succeed', 'succeed'],
  ['fail', 'fail (500)'],
  ['hang', 'hang (500 at the timeout)'],
])

/**
 * @param {HTMLUListElement} container
 * @param {Actions} actions
 * @returns {(state: EmulatorState) => void}
 */
export function webhooksPanel(container, actions) {
  const render = keyedList(container, (/** @type {WebhookState} */ w) => w.id, (w) => webhookCard(w, actions))
  const empty = h('p', { class: 'empty' }, 'No webhooks. Create one with POST /__svc-mock/webhooks.')
  container.after(empty)
  return (state) => {
    render(state.webhooks)
    empty.hidden = state.webhooks.length > 0
  }
}

/**
 * @param {WebhookState} webhook
 * @param {Actions} actions
 * @returns {import('./dom.js').Row<WebhookState>}
 */
function webhookCard(webhook, actions) {
  const id = `webhook-${webhook.id}`
  const badges = h('span', { class: 'badges' })
  const state = h('span', { class: 'pill' })
  const url = h('p', { class: 'mono small url' }, webhook.url)
  const meter = h('meter', { id: `${id}-queue`, min: 0, low: 0, optimum: 0 })
  const queueText = h('span', { class: 'small' })
  // What wins: the flow as configured, and as calls meet it while a scenario overrides it.
  const wins = h('p', { class: 'wins', id: `${id}-wins` })

  const active = h('button', { type: 'button', role: 'switch', class: 'switch', 'aria-checked': 'false', 'aria-labelledby': `${id}-active-label`, 'aria-describedby': `${id}-wins` })
  active.append(h('span', { class: 'track', 'aria-hidden': 'true' }, h('span', { class: 'thumb' })))
  let isActive = webhook.flow.active
  active.addEventListener('click', () => {
    const next = !isActive
    actions.run(active, `Flow of ${webhook.id} ${next ? 'activated' : 'deactivated'}.`, () => api.updateFlow(webhook.id, { active: next }))
  })

  const outcome = h('select', { id: `${id}-outcome` }, OUTCOMES.map(([value, label]) => h('option', { value }, label)))
  outcome.addEventListener('change', () => {
    const value = /** @type {'succeed' | 'fail' | 'hang'} */ (outcome.value)
    actions.run(outcome, `Flow of ${webhook.id} now ends with ${value}.`, () => api.updateFlow(webhook.id, { outcome: value }))
  })

  const runsSummary = h('summary', {})
  const runs = h('ol', { class: 'runs' })
  const noRuns = h('p', { class: 'muted small' }, 'No runs yet.')
  const executions = h('details', { class: 'executions' }, runsSummary, noRuns, runs)
  // Kept by run, so a bundle someone opened stays open while new runs arrive.
  const renderRuns = keyedList(runs, (/** @type {ExecutionSummary} */ r) => String(r.seq), runItem)

  const el = h(
    'li',
    { class: 'card webhook', 'data-id': webhook.id },
    h('div', { class: 'card-head' }, h('h3', {}, webhook.name, webhook.name === webhook.id ? null : h('span', { class: 'muted' }, ` (${webhook.id})`)), badges, state),
    url,
    wins,
    h('div', { class: 'queue' }, h('label', { for: `${id}-queue` }, 'Queue'), meter, queueText),
    h(
      'div',
      { class: 'controls' },
      h('div', { class: 'switch-field' }, active, h('span', { id: `${id}-active-label` }, 'Flow active', h('span', { class: 'visually-hidden' }, ` (${webhook.id})`))),
      h('div', { class: 'field inline' }, h('label', { for: `${id}-outcome` }, 'Outcome'), outcome),
    ),
    executions,
  )

  return {
    el,
    update: (w) => {
      isActive = w.flow.active
      const effective = w.effective
      fill(badges, w.secured ? h('span', { class: 'badge' }, 'secured') : null, w.learning ? h('span', { class: 'badge' }, 'learning') : null)
      const flowState = effective.gone ? 'Gone (410)' : effective.flow.active ? 'Active' : 'Inactive'
      setText(state, `${flowState} for calls`)
      state.className = `pill ${effective.gone ? 'bad' : effective.flow.active ? 'good' : 'warn'}`
      const capacity = effective.flow.queueCapacity
      meter.max = Math.max(capacity, 1)
      meter.high = Math.max(capacity, 1) * 0.8
      meter.value = w.queue.length
      setText(queueText, `${formatNumber(w.queue.length)} of ${formatNumber(capacity)} waiting${w.queue.length >= capacity && !effective.flow.active ? ' · full' : ''}`)
      const line = winsLine(w)
      if (wins.dataset.key !== line.text) {
        wins.dataset.key = line.text
        fill(wins, ...line.nodes)
        wins.classList.toggle('overridden', line.overridden)
      }
      active.setAttribute('aria-checked', String(w.flow.active))
      if (document.activeElement !== outcome) outcome.value = w.flow.outcome
      setText(runsSummary, `Executions (${formatNumber(w.executions.count)})`)
      renderRuns(w.executions.recent)
      noRuns.hidden = w.executions.recent.length > 0
    },
  }
}

/**
 * "Flow active — inactive for calls, queue holds 0, while `webhook-queue-full` is on": the
 * configured flow, then what calls meet instead while scenarios override it.
 * @param {WebhookState} w
 * @returns {{ nodes: import('./dom.js').Child[], overridden: boolean, text: string }}
 */
export function winsLine(w) {
  const e = w.effective
  const configured = `Flow ${w.flow.active ? 'active' : 'inactive'}`
  const changed = []
  if (e.gone) changed.push('the address answers 410 Webhook not found.')
  if (e.flow.active !== w.flow.active) changed.push(`${e.flow.active ? 'active' : 'inactive'} for calls`)
  if (e.flow.queueCapacity !== w.flow.queueCapacity) changed.push(`queue holds ${formatNumber(e.flow.queueCapacity)}`)
  if (e.flow.outcome !== w.flow.outcome) changed.push(`runs ${e.flow.outcome === 'fail' ? 'fail (500)' : e.flow.outcome === 'hang' ? 'hang (500 at the timeout)' : 'succeed'}`)
  if (e.scenarios.length === 0) return { nodes: [`${configured}.`], overridden: false, text: `${configured}.` }
  const names = whileOn(e.scenarios)
  const said = changed.length > 0 ? `${configured} — ${changed.join(', ')} ` : `${configured}; calls are shaped `
  return { nodes: [said, ...names, '.'], overridden: changed.length > 0, text: `${said}${e.scenarios.join(', ')}` }
}

/**
 * @param {ExecutionSummary} run
 * @returns {import('./dom.js').Row<ExecutionSummary>}
 */
function runItem(run) {
  const outcome = run.outcome === 'succeed' ? 'good' : run.outcome === 'fail' ? 'bad' : 'warn'
  const el = h(
    'li',
    {},
    h(
      'details',
      {},
      h(
        'summary',
        {},
        h('span', { class: 'mono' }, `#${run.seq}`),
        h('span', { class: `pill ${outcome}` }, run.outcome),
        h('span', { class: 'small muted' }, `received ${formatTime(run.receivedAt)}`, run.processedAt ? ` · done ${formatTime(run.processedAt)}` : ' · never ended'),
      ),
      h('pre', { class: 'body', tabindex: 0, 'aria-label': `Bundle of run ${run.seq}` }, pretty(run.bundle)),
    ),
  )
  // A run's record never changes once it is shown.
  return { el, update: () => undefined }
}
