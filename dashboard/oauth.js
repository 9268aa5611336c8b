// @ts-check
/**
 * OAuth: device logins waiting for a person (approve as a user, or deny), the clients (never
 * their secrets; regenerating one shows the new secret once, in a dialog; what a scenario makes
 * their requests meet instead of what they are configured for) and the users with the clients
 * they consented to, each consent revocable.
 */
import { api } from './api.js'
import { fill, formatDateTime, h, keyedList, setText, whileOn } from './dom.js'

/**
 * @typedef {import('../src/index.js').EmulatorState} EmulatorState
 * @typedef {import('../src/index.js').UserInfo} UserInfo
 * @typedef {import('../src/index.js').ClientState} ClientInfo
 * @typedef {import('../src/index.js').DeviceCodeInfo} DeviceCodeInfo
 * @typedef {import('../src/index.js').ScenarioListing} ScenarioListing
 * @typedef {import('../src/index.js').ConsentInfo} ConsentInfo
 * @typedef {import('../src/index.js').Permission} Permission
 * @typedef {import('./actions.js').Actions} Actions
 */

const GRANTS = { client_credentials: 'Client credentials', authorization_code: 'Authorization code', device_code: 'Device code' }
const METHODS = { client_secret_basic: 'Client secret basic', client_secret_post: 'Client secret post', none: 'Public (no secret)' }

const CONSENT = { auto: 'consent given at once', page: 'consent asked on a page', deny: 'consent denied' }

/**
 * @param {{ clients: HTMLUListElement, users: HTMLUListElement, devices: HTMLUListElement, devicesNone: HTMLElement, deviceCount: HTMLElement }} containers
 * @param {Actions} actions
 * @returns {(state: EmulatorState) => void}
 */
export function oauthPanel(containers, actions) {
  /** @type {EmulatorState | undefined} */
  let current
  const scenarios = () => current?.scenarios ?? []
  const users = () => current?.users.map((u) => u.id) ?? []
  const devices = keyedList(containers.devices, (/** @type {DeviceCodeInfo} */ d) => d.userCode, (d) => deviceCard(d, users, actions))
  const clients = keyedList(containers.clients, (/** @type {ClientInfo} */ c) => c.clientId, (c) => clientCard(c, scenarios, actions))
  const userCards = keyedList(containers.users, (/** @type {UserInfo} */ u) => u.id, (u) => userCard(u, actions))
  return (state) => {
    current = state
    devices(state.deviceCodes)
    containers.devicesNone.hidden = state.deviceCodes.length > 0
    setText(containers.deviceCount, state.deviceCodes.length > 0 ? `${state.deviceCodes.length} waiting` : '')
    clients(state.oauthClients)
    userCards(state.users)
  }
}

/**
 * A device's user code waiting for a person: approve it as one of the users, or deny it.
 * @param {DeviceCodeInfo} code
 * @param {() => string[]} users
 * @param {Actions} actions
 * @returns {import('./dom.js').Row<DeviceCodeInfo>}
 */
function deviceCard(code, users, actions) {
  const id = `device-${code.userCode}`
  const who = h('select', { id: `${id}-user` })
  const approve = h('button', { type: 'button', class: 'button primary' }, 'Approve', h('span', { class: 'visually-hidden' }, ` ${code.userCode}`))
  const deny = h('button', { type: 'button', class: 'button danger-outline' }, 'Deny', h('span', { class: 'visually-hidden' }, ` ${code.userCode}`))
  approve.addEventListener('click', () => {
    const userId = who.value
    actions.run(approve, `Device login ${code.userCode} approved as ${userId}.`, () => api.approveDevice(code.userCode, userId))
  })
  deny.addEventListener('click', () => actions.run(deny, `Device login ${code.userCode} denied.`, () => api.denyDevice(code.userCode)))
  const facts = h('dl', { class: 'facts compact' })
  const el = h(
    'li',
    { class: 'card device', 'data-user-code': code.userCode },
    h('div', { class: 'card-head' }, h('h4', {}, h('span', { class: 'visually-hidden' }, 'User code '), h('code', { class: 'user-code' }, code.userCode))),
    facts,
    h('div', { class: 'controls' }, h('div', { class: 'field inline' }, h('label', { for: `${id}-user` }, 'Approve as'), who), approve, deny),
  )
  let options = ''
  return {
    el,
    update: (d) => {
      fill(facts, fact('Client', `${d.clientName} (${d.clientId})`), fact('Scopes', scopesOf(d.scopes)), fact('Expires', formatDateTime(Date.parse(d.expiresAt))))
      const ids = users()
      if (ids.join() !== options) {
        options = ids.join()
        const chosen = who.value
        fill(who, ids.map((u) => h('option', { value: u }, u)))
        if (ids.includes(chosen)) who.value = chosen
      }
    },
  }
}

/**
 * "Credentials accepted — refused (401 invalid_client) while `token-invalid-client` is on": what
 * the client is configured to meet, then what its requests meet while scenarios override it.
 * @param {ClientInfo} c
 * @param {readonly ScenarioListing[]} scenarios
 * @returns {{ nodes: import('./dom.js').Child[], text: string } | undefined}
 */
export function clientLine(c, scenarios) {
  const k = c.configured
  const e = c.effective
  if (e.scenarios.length === 0) return undefined
  /** @type {string[]} */
  const was = []
  /** @type {string[]} */
  const now = []
  if (e.credentials !== k.credentials) {
    was.push(`credentials ${k.credentials}`)
    now.push(e.credentials === 'refused' ? 'refused (401 invalid_client)' : 'accepted')
  }
  if (e.tokenLifetime !== k.tokenLifetime) {
    was.push(`tokens live ${k.tokenLifetime} s`)
    now.push(`${e.tokenLifetime} s`)
  }
  if (e.consent !== k.consent) {
    was.push(CONSENT[k.consent])
    now.push(CONSENT[e.consent].replace(/^consent /, ''))
  }
  if (was.length > 0) {
    const said = `${capitalize(was.join(', '))} — ${now.join(', ')} `
    return { nodes: [said, ...whileOn(e.scenarios), '.'], text: `${said}${e.scenarios.join()}` }
  }
  const what = e.scenarios.map((name) => scenarios.find((s) => s.name === name)?.summary ?? '').filter(Boolean)
  const said = 'Its requests are shaped '
  return { nodes: [said, ...whileOn(e.scenarios), what.length > 0 ? `: ${what.join(' ')}` : '.'], text: `${said}${e.scenarios.join()}` }
}

/** @param {string} text */
function capitalize(text) {
  return text.charAt(0).toUpperCase() + text.slice(1)
}

/**
 * @param {ClientInfo} client
 * @param {() => readonly ScenarioListing[]} scenarios
 * @param {Actions} actions
 * @returns {import('./dom.js').Row<ClientInfo>}
 */
function clientCard(client, scenarios, actions) {
  const name = h('h4', {})
  const wins = h('p', { class: 'wins overridden' })
  const facts = h('dl', { class: 'facts compact' })
  const regenerate = h('button', { type: 'button', class: 'button' }, 'Regenerate secret', h('span', { class: 'visually-hidden' }, ` of ${client.clientId}`))
  regenerate.addEventListener('click', async () => {
    const sure = await actions.confirm(
      `Regenerate the secret of ${client.clientId}?`,
      'The current secret stops working at once: token requests that use it get invalid_client.',
      'Regenerate',
    )
    if (!sure) return
    actions.run(regenerate, `New secret made for ${client.clientId}.`, async () => {
      const answer = await api.regenerateSecret(client.clientId)
      actions.showSecret(answer.clientId, answer.clientSecret, regenerate)
    })
  })
  const el = h('li', { class: 'card client', 'data-id': client.clientId }, h('div', { class: 'card-head' }, name, regenerate), wins, facts)
  let shown = ''
  return {
    el,
    update: (c) => {
      const line = clientLine(c, scenarios())
      wins.hidden = line === undefined
      if (line && wins.dataset.key !== line.text) {
        wins.dataset.key = line.text
        fill(wins, ...line.nodes)
      }
      // Rebuilt only when the client changed, so an open scope list stays open.
      const key = JSON.stringify(c)
      if (key === shown) return
      shown = key
      setText(name, c.name)
      // A public client (the platform's CLI) has no secret to regenerate.
      regenerate.hidden = c.authMethod === 'none'
      fill(
        facts,
        fact('Client ID', h('code', {}, c.clientId)),
        fact('Grant', GRANTS[c.grantType]),
        fact('Authentication', METHODS[c.authMethod]),
        fact('Scopes', scopesOf(c.scopes)),
        fact('Permissions', describePermissions(c.permissions)),
        c.redirectUris.length > 0 ? fact('Redirect URIs', c.redirectUris.join(', ')) : null,
      )
    },
  }
}

/**
 * @param {UserInfo} user
 * @param {Actions} actions
 * @returns {import('./dom.js').Row<UserInfo>}
 */
function userCard(user, actions) {
  const title = h('h4', {})
  const facts = h('dl', { class: 'facts compact' })
  const consents = h('ul', { class: 'consents' })
  const none = h('p', { class: 'muted small' }, 'No consents yet: they appear when this user authorizes a client (authorization code grant).')
  const renderConsents = keyedList(consents, (/** @type {ConsentInfo} */ c) => c.clientId, (c) => consentItem(user.id, c, actions))
  const el = h('li', { class: 'card user', 'data-id': user.id }, title, facts, h('h5', {}, 'Consents'), none, consents)
  let shown = ''
  return {
    el,
    update: (u) => {
      const key = JSON.stringify([u.name, u.email, u.permissions])
      if (key !== shown) {
        shown = key
        fill(title, u.name, h('span', { class: 'muted' }, ` (${u.id})`))
        fill(facts, u.email ? fact('Email', u.email) : null, fact('Permissions', describePermissions(u.permissions)))
      }
      renderConsents(u.consents)
      none.hidden = u.consents.length > 0
    },
  }
}

/**
 * @param {string} userId
 * @param {ConsentInfo} consent
 * @param {Actions} actions
 * @returns {import('./dom.js').Row<ConsentInfo>}
 */
function consentItem(userId, consent, actions) {
  const text = h('span', {})
  const revoke = h('button', { type: 'button', class: 'button small danger-outline' }, 'Revoke', h('span', { class: 'visually-hidden' }, ` consent of ${userId} for ${consent.clientId}`))
  revoke.addEventListener('click', async () => {
    const sure = await actions.confirm(
      `Revoke ${userId}'s consent for ${consent.clientId}?`,
      "The client's refresh tokens for this user stop working at once.",
      'Revoke',
    )
    if (sure) actions.run(revoke, `Consent of ${userId} for ${consent.clientId} revoked.`, () => api.revokeConsent(userId, consent.clientId))
  })
  const el = h('li', { class: 'consent' }, text, revoke)
  return {
    el,
    update: (c) => {
      fill(text, h('strong', {}, c.clientName), ' ', h('code', { class: 'small' }, c.clientId), h('br'), h('span', { class: 'small muted' }, `${c.scopes.join(' ') || 'no scopes'} · granted ${formatDateTime(Date.parse(c.grantedAt))}`))
    },
  }
}

/**
 * @param {string} term
 * @param {import('./dom.js').Child} value
 */
function fact(term, value) {
  return h('div', {}, h('dt', {}, term), h('dd', {}, value))
}

/** @param {readonly string[]} scopes */
function scopesOf(scopes) {
  if (scopes.length === 0) return 'none'
  if (scopes.length <= 3) return scopes.join(' ')
  return h('details', { class: 'scopes' }, h('summary', {}, `${scopes.length} scopes`), h('p', { class: 'mono small' }, scopes.join(' ')))
}

/** @param {readonly Permission[]} permissions */
function describePermissions(permissions) {
  return permissions.length === 0 ? 'none' : permissions.map((p) => `${p.action} on ${p.resource}`).join(', ')
}
