// @ts-check
/**
 * The dashboard's only way to change anything: the emulator's control plane over HTTP, relative
 * to the page (which lives at `/__svc-mock/`). Every call here is one a test can make with curl.
 */

/**
 * @typedef {import('../src/index.js').ScenarioActivation} ScenarioActivation
 * @typedef {import('../src/index.js').FlowPatch} FlowPatch
 * @typedef {import('../src/index.js').RouteInfo} RouteInfo
 * @typedef {import('../src/index.js').TeamInfo & { current: boolean }} TeamListing
 */

/** A control-plane call that did not succeed; the message is the emulator's own. */
export class ControlPlaneError extends Error {
  /**
   * @param {string} message
   * @param {number} status
   */
  constructor(message, status) {
    super(message)
    this.name = 'ControlPlaneError'
    this.status = status
  }
}

/**
 * @param {string} method
 * @param {string} path relative to `/__svc-mock/`
 * @param {unknown} [body]
 * @param {string} [raw] a body that is JSON text already (a saved state read from a file)
 * @returns {Promise<unknown>}
 */
async function call(method, path, body, raw) {
  const json = raw ?? (body === undefined ? undefined : JSON.stringify(body))
  /** @type {RequestInit} */
  // A body is sent as JSON: the control plane refuses any other (415); a change without one needs no Content-Type.
  const init = json === undefined ? { method } : { method, headers: { 'content-type': 'application/json' }, body: json }
  let response
  try {
    response = await fetch(new URL(path, document.baseURI), init)
  } catch {
    throw new ControlPlaneError(`The emulator did not answer ${method} /__svc-mock/${path}: is it still running?`, 0)
  }
  const text = await response.text()
  /** @type {unknown} */
  let data
  try {
    data = text === '' ? undefined : JSON.parse(text)
  } catch {
    data = text
  }
  if (!response.ok) {
    const message = typeof data === 'object' && data !== null && 'error' in data && typeof data.error === 'string' ? data.error : text
    throw new ControlPlaneError(message || `${method} /__svc-mock/${path} answered ${response.status}.`, response.status)
  }
  return data
}

const segment = encodeURIComponent

export const api = {
  /**
   * @param {string} name
   * @param {ScenarioActivation} activation
   */
  scenarioOn: (name, activation) => call('POST', `scenarios/${segment(name)}`, activation),
  /** @param {string} name */
  scenarioOff: (name) => call('DELETE', `scenarios/${segment(name)}`),
  /**
   * @param {string} id
   * @param {FlowPatch} patch
   */
  updateFlow: (id, patch) => call('PUT', `webhooks/${segment(id)}/flow`, patch),
  /** @param {number} ms */
  advanceClock: (ms) => call('POST', 'clock/advance', { ms }),
  reset: () => call('POST', 'reset'),
  /** @param {string} text a saved state, as its file holds it */
  importState: (text) => call('POST', 'state/import', undefined, text),
  /**
   * @param {string} userId
   * @param {string} clientId
   */
  revokeConsent: (userId, clientId) => call('DELETE', `users/${segment(userId)}/consents/${segment(clientId)}`),
  /**
   * @param {string} clientId
   * @returns {Promise<{ clientId: string, clientSecret: string }>}
   */
  regenerateSecret: async (clientId) => {
    const answer = await call('POST', `oauth-clients/${segment(clientId)}/secret`)
    if (typeof answer !== 'object' || answer === null || !('clientSecret' in answer) || typeof answer.clientSecret !== 'string') {
      throw new ControlPlaneError('The emulator answered without a new secret.', 200)
    }
    return { clientId, clientSecret: answer.clientSecret }
  },
  /** @returns {Promise<TeamListing[]>} the server's teams (a 501 in-process, where there are none) */
  teams: async () => /** @type {TeamListing[]} */ (await call('GET', 'teams')),
  /** @returns {Promise<RouteInfo[]>} */
  routes: async () => /** @type {RouteInfo[]} */ (await call('GET', 'routes')),
  clearJournal: () => call('DELETE', 'journal'),
  /**
   * @param {string} userCode
   * @param {string} userId
   */
  approveDevice: (userCode, userId) => call('POST', `device-codes/${segment(userCode)}/approve`, { userId }),
  /** @param {string} userCode */
  denyDevice: (userCode) => call('POST', `device-codes/${segment(userCode)}/deny`),
}

/** Downloads: plain links, so the browser saves the file with the name the emulator gives it. */
export const downloads = {
  /** The journal as HAR 1.2. */
  har: 'journal.har',
  /** @param {string} name what is on, as one scenario file of this name */
  scenarioFile: (name) => `scenarios.json?name=${encodeURIComponent(name)}`,
}
