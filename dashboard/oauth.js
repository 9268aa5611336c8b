// @ts-check
/**
 * OAuth: the clients (never their secrets; regenerating one shows the new secret once, in a
 * dialog) and the users with the clients they consented to, each consent revocable.
 */
import { api } from './api.js'
import { fill, formatDateTime, h, keyedList, setText } from './dom.js'

/**
 * @typedef {import('../src/index.js').EmulatorState} EmulatorState
 * @typedef {import('../src/index.js').UserInfo} UserInfo
 * @typedef {import('../src/index.js').ClientInfo} ClientInfo
 * @typedef {import('../src/index.js').ConsentInfo} ConsentInfo
 * @typedef {import('../src/index.js').Permission} Permission
 * @typedef {import('./app.js').Actions} Actions
 */

const GRANTS = { client_credentials: 'Client credentials', authorization_code: 'Authorization code', device_code: 'Device code' }
const METHODS = { client_secret_basic: 'Client secret basic', client_secret_post: 'Client secret post', none: 'Public (no secret)' }

/**
 * @param {{ clients: HTMLUListElement, users: HTMLUListElement }} containers
 * @param {Actions} actions
 * @returns {(state: EmulatorState) => void}
 */
export function oauthPanel(containers, actions) {
  const clients = keyedList(containers.clients, (/** @type {ClientInfo} */ c) => c.clientId, (c) => clientCard(c, actions))
  const users = keyedList(containers.users, (/** @type {UserInfo} */ u) => u.id, (u) => userCard(u, actions))
  return (state) => {
    clients(state.oauthClients)
    users(state.users)
  }
}

/**
 * @param {ClientInfo} client
 * @param {Actions} actions
 * @returns {import('./dom.js').Row<ClientInfo>}
 */
function clientCard(client, actions) {
  const name = h('h4', {})
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
  const el = h('li', { class: 'card client', 'data-id': client.clientId }, h('div', { class: 'card-head' }, name, regenerate), facts)
  let shown = ''
  return {
    el,
    update: (c) => {
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
