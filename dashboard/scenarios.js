// @ts-check
/**
 * The scenarios: what is on (in the order they apply, with the command-line and header forms to
 * copy, and a link that saves the set as one scenario file), a search box, and the catalogue with
 * the active ones first: one switch per scenario (on with its defaults, or off) and an Options
 * form to switch it on with parameters, `times` and a target webhook or OAuth client. Every
 * change goes through `POST`/`DELETE /__svc-mock/scenarios/{name}`.
 */
import { api, downloads } from './api.js'
import { quote } from './curl.js'
import { fill, h, keyedList, setText, withCode } from './dom.js'

/**
 * @typedef {import('../src/index.js').EmulatorState} EmulatorState
 * @typedef {import('../src/index.js').ScenarioListing} ScenarioListing
 * @typedef {import('../src/index.js').ScenarioActivation} ScenarioActivation
 * @typedef {import('./actions.js').Actions} Actions
 * @typedef {{ count: HTMLElement, search: HTMLInputElement, searchCount: HTMLElement, none: HTMLElement, tools: HTMLElement, cli: HTMLElement, header: HTMLElement, cliCopy: HTMLButtonElement, headerCopy: HTMLButtonElement, saveName: HTMLInputElement, saveLink: HTMLAnchorElement, saveUse: HTMLElement }} PanelElements
 */

const NAME = /^[a-z0-9][a-z0-9-]*$/

/**
 * @param {HTMLUListElement} container
 * @param {PanelElements} els
 * @param {Actions} actions
 * @returns {(state: EmulatorState) => void}
 */
export function scenariosPanel(container, els, actions) {
  /** @type {EmulatorState | undefined} */
  let current
  const render = keyedList(container, (/** @type {ScenarioListing} */ s) => s.name, (s) => scenarioRow(s, actions, () => current))
  const search = () => {
    const words = els.search.value.trim().toLowerCase().split(/\s+/).filter(Boolean)
    let shown = 0
    const rows = [...container.children].filter((el) => el instanceof HTMLElement)
    for (const row of rows) {
      const text = row.dataset.search ?? ''
      row.hidden = !words.every((word) => text.includes(word))
      if (!row.hidden) shown++
    }
    setText(els.searchCount, words.length === 0 ? '' : `${shown} of ${rows.length} scenarios`)
  }
  els.search.addEventListener('input', search)
  els.cliCopy.addEventListener('click', () => actions.copy(els.cli.textContent ?? '', 'command line'))
  els.headerCopy.addEventListener('click', () => actions.copy(els.header.textContent ?? '', 'header'))
  const setName = () => {
    const name = els.saveName.value.trim()
    const valid = NAME.test(name)
    els.saveName.setCustomValidity(valid ? '' : 'Lower-case letters, digits and dashes, starting with a letter or digit.')
    els.saveName.setAttribute('aria-invalid', String(!valid))
    if (valid) els.saveLink.href = downloads.scenarioFile(name)
    else els.saveLink.removeAttribute('href')
    els.saveLink.download = `${name}.json`
    setText(els.saveUse, `--scenarios DIR --scenario ${valid ? name : 'NAME'}`)
  }
  els.saveName.addEventListener('input', setName)
  els.saveName.form?.addEventListener('submit', (event) => event.preventDefault())
  setName()
  return (state) => {
    current = state
    const on = state.scenarios.filter((s) => s.active).sort((a, b) => (a.activation?.order ?? 0) - (b.activation?.order ?? 0))
    const off = state.scenarios.filter((s) => !s.active)
    render([...on, ...off])
    search()
    setText(els.count, on.length > 0 ? `${on.length} on` : '')
    els.none.hidden = on.length > 0
    els.tools.hidden = on.length === 0
    setText(els.cli, on.map((s) => `--scenario ${quote(textForm(s, true))}`).join(' '))
    setText(els.header, `x-svc-mock-scenario: ${on.map((s) => textForm(s, false)).join(',')}`)
  }
}

/**
 * The text form of an active scenario (`webhook-queue-full:capacity=2,webhook=orders`), as
 * `--scenario`, `SVC_MOCK_SCENARIOS` and the header take it: parameters that differ from their
 * default, then `times` (not for a header: it is for one request anyway), targets and route.
 * @param {ScenarioListing} s
 * @param {boolean} withTimes
 */
export function textForm(s, withTimes) {
  const a = s.activation
  if (!a) return s.name
  const parts = Object.entries(a.params)
    .filter(([key, value]) => s.params[key]?.default !== value)
    .map(([key, value]) => `${key}=${String(value)}`)
  // A scenario made of parts carries its parts' aims and counts in its file.
  if (!a.parts) {
    if (withTimes && a.remaining !== null) parts.push(`times=${a.remaining}`)
    const { route, ...targets } = a.target
    for (const [key, value] of Object.entries(targets)) parts.push(`${key}=${value}`)
    if (route !== undefined) parts.push(`route=${route}`)
  }
  return parts.length === 0 ? s.name : `${s.name}:${parts.join(',')}`
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
    { class: 'scenario', 'data-name': scenario.name, 'data-search': `${scenario.name} ${scenario.summary ?? ''} ${scenario.description}`.toLowerCase() },
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
  const parts = [a.level === 'run' ? `On for the run (#${a.order})` : `On (${a.level})`]
  const params = Object.entries(a.params).map(([k, v]) => `${k}=${String(v)}`)
  if (a.parts) {
    parts.push(...a.parts.map((p) => [p.from, ...aimOf(p.target), ...(p.remaining === null ? [] : [left(p.remaining)])].join(' ')))
  } else {
    if (a.remaining !== null) parts.push(left(a.remaining))
    parts.push(...aimOf(a.target))
  }
  if (params.length > 0) parts.push(params.join(', '))
  return `${parts.join(' · ')}.`
}

/** @param {number} n */
function left(n) {
  return `${n} request${n === 1 ? '' : 's'} left`
}

/** @param {Readonly<Record<string, string>>} target */
function aimOf(target) {
  return Object.entries(target).map(([key, value]) => `${key} ${value}`)
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
