// @ts-check
/**
 * The scenario catalogue: one switch per scenario (on with its defaults, or off), and an Options
 * form to switch it on with parameters, a number of requests (`times`) and a target webhook or
 * OAuth client. Every change goes through `POST`/`DELETE /__svc-mock/scenarios/{name}`.
 */
import { api } from './api.js'
import { fill, h, keyedList, setText, withCode } from './dom.js'

/**
 * @typedef {import('../src/index.js').EmulatorState} EmulatorState
 * @typedef {import('../src/index.js').ScenarioListing} ScenarioListing
 * @typedef {import('../src/index.js').ScenarioActivation} ScenarioActivation
 * @typedef {import('./app.js').Actions} Actions
 */

/**
 * @param {HTMLUListElement} container
 * @param {HTMLElement} onCount
 * @param {Actions} actions
 * @returns {(state: EmulatorState) => void}
 */
export function scenariosPanel(container, onCount, actions) {
  /** @type {EmulatorState | undefined} */
  let current
  const render = keyedList(container, (/** @type {ScenarioListing} */ s) => s.name, (s) => scenarioRow(s, actions, () => current))
  return (state) => {
    current = state
    render(state.scenarios)
    const on = state.scenarios.filter((s) => s.active).length
    setText(onCount, on > 0 ? `${on} on` : '')
  }
}

/**
 * @param {ScenarioListing} scenario
 * @param {Actions} actions
 * @param {() => EmulatorState | undefined} state
 * @returns {import('./dom.js').Row<ScenarioListing>}
 */
function scenarioRow(scenario, actions, state) {
  const id = `scenario-${scenario.name}`
  const name = h('code', { id: `${id}-name`, class: 'name' }, scenario.name)
  const summary = h('p', { id: `${id}-summary`, class: 'summary' }, withCode(scenario.summary ?? scenario.description))
  const activation = h('p', { class: 'activation', id: `${id}-activation` })
  const toggle = h('button', {
    type: 'button',
    role: 'switch',
    class: 'switch',
    'aria-checked': 'false',
    'aria-labelledby': `${id}-name`,
    'aria-describedby': `${id}-summary ${id}-activation`,
  })
  toggle.append(h('span', { class: 'track', 'aria-hidden': 'true' }, h('span', { class: 'thumb' })))
  let active = scenario.active
  toggle.addEventListener('click', () => {
    if (active) actions.run(toggle, `Scenario ${scenario.name} switched off.`, () => api.scenarioOff(scenario.name))
    else actions.run(toggle, `Scenario ${scenario.name} switched on.`, () => api.scenarioOn(scenario.name, {}))
  })

  const form = optionsForm(scenario, actions)
  const options = h(
    'details',
    { class: 'options' },
    h('summary', {}, 'Options', h('span', { class: 'visually-hidden' }, ` for ${scenario.name}`)),
    h('p', { class: 'description' }, withCode(scenario.description)),
    form.el,
  )
  const el = h(
    'li',
    { class: 'scenario', 'data-name': scenario.name },
    h('div', { class: 'scenario-head' }, toggle, h('div', { class: 'scenario-text' }, name, summary, activation)),
    options,
  )
  return {
    el,
    update: (s) => {
      active = s.active
      el.dataset.active = String(s.active)
      toggle.setAttribute('aria-checked', String(s.active))
      setText(activation, s.active ? describeActivation(s) : '')
      activation.hidden = !s.active
      const current = state()
      if (current) form.setTargets(current)
    },
  }
}

/** @param {ScenarioListing} s */
function describeActivation(s) {
  const a = s.activation
  if (!a) return 'On.'
  const parts = [a.level === 'run' ? 'On for the run' : `On (${a.level})`]
  if (a.remaining !== null) parts.push(`${a.remaining} request${a.remaining === 1 ? '' : 's'} left`)
  if (a.target.webhook) parts.push(`webhook ${a.target.webhook}`)
  if (a.target.client) parts.push(`client ${a.target.client}`)
  if (a.target.route) parts.push(`route ${a.target.route}`)
  const params = Object.entries(a.params).map(([k, v]) => `${k}=${String(v)}`)
  if (params.length > 0) parts.push(params.join(', '))
  return `${parts.join(' · ')}.`
}

/**
 * @param {ScenarioListing} scenario
 * @param {Actions} actions
 */
function optionsForm(scenario, actions) {
  const id = `scenario-${scenario.name}`
  /** @type {Array<() => [string, string | number | boolean] | undefined>} */
  const readers = []
  const fields = Object.entries(scenario.params).map(([param, spec]) => {
    const inputId = `${id}-param-${param}`
    const hint = spec.description ? h('span', { class: 'hint', id: `${inputId}-hint` }, withCode(spec.description)) : null
    if (spec.type === 'boolean') {
      const input = h('input', { id: inputId, type: 'checkbox', checked: spec.default === true, 'aria-describedby': hint ? `${inputId}-hint` : null })
      readers.push(() => [param, input.checked])
      return h('div', { class: 'field check' }, input, h('label', { for: inputId }, param), hint)
    }
    const input = h('input', {
      id: inputId,
      type: spec.type === 'number' ? 'number' : 'text',
      step: spec.type === 'number' ? 'any' : null,
      placeholder: spec.default === undefined ? 'required' : String(spec.default),
      'aria-describedby': hint ? `${inputId}-hint` : null,
    })
    readers.push(() => {
      if (input.value.trim() === '') return undefined
      return [param, spec.type === 'number' ? Number(input.value) : input.value]
    })
    return h('div', { class: 'field' }, h('label', { for: inputId }, param), input, hint)
  })
  const times = h('input', { id: `${id}-times`, type: 'number', min: 1, step: 1, placeholder: 'until switched off' })
  const webhook = h('select', { id: `${id}-webhook` })
  const client = h('select', { id: `${id}-client` })
  const submit = h('button', { type: 'submit', class: 'button primary' }, 'Switch on with these options')
  const el = h(
    'form',
    { class: 'options-form', 'aria-label': `Options for ${scenario.name}` },
    fields,
    h('div', { class: 'field' }, h('label', { for: `${id}-times` }, 'Times (requests it touches)'), times),
    h('div', { class: 'field' }, h('label', { for: `${id}-webhook` }, 'Only webhook'), webhook),
    h('div', { class: 'field' }, h('label', { for: `${id}-client` }, 'Only OAuth client'), client),
    h('div', { class: 'form-actions' }, submit),
  )
  el.addEventListener('submit', (event) => {
    event.preventDefault()
    /** @type {Record<string, string | number | boolean>} */
    const params = {}
    for (const read of readers) {
      const pair = read()
      if (pair) params[pair[0]] = pair[1]
    }
    /** @type {ScenarioActivation} */
    const activation = {}
    if (Object.keys(params).length > 0) activation.params = params
    if (times.value !== '') activation.times = Number(times.value)
    if (webhook.value !== '') activation.webhook = webhook.value
    if (client.value !== '') activation.client = client.value
    actions.run(submit, `Scenario ${scenario.name} switched on with options.`, () => api.scenarioOn(scenario.name, activation))
  })
  let targetsKey = ''
  return {
    el,
    /** @param {EmulatorState} current */
    setTargets: (current) => {
      const webhooks = current.webhooks.map((w) => w.id)
      const clients = current.oauthClients.map((c) => c.clientId)
      const key = JSON.stringify([webhooks, clients])
      if (key === targetsKey) return
      targetsKey = key
      setOptions(webhook, 'Any webhook', webhooks)
      setOptions(client, 'Any client', clients)
    },
  }
}

/**
 * @param {HTMLSelectElement} select
 * @param {string} anyLabel
 * @param {string[]} values
 */
function setOptions(select, anyLabel, values) {
  const chosen = select.value
  fill(select, h('option', { value: '' }, anyLabel), values.map((v) => h('option', { value: v }, v)))
  select.value = values.includes(chosen) ? chosen : ''
}
