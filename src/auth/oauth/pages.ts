/**
 * The OAuth server's HTML pages: the consent page of the authorize step (client name, user,
 * requested scopes, an Allow/Deny form that posts back to the authorize endpoint), the error page
 * shown instead of redirecting when the client or its redirect URI cannot be trusted, and the
 * device verification pages of the device grant.
 */
import { html, type Reply } from '../../kernel/reply.js'
import { describeScope } from './scopes.js'

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;max-width:34rem;margin:3rem auto;padding:0 1rem;color:#1b1f24}
h1{font-size:1.4rem}ul{padding-left:1.2rem}code{background:#f3f4f6;padding:0 .2rem}
.actions{display:flex;gap:1rem;margin-top:1.5rem}button{font-size:1rem;padding:.5rem 1.5rem;cursor:pointer}
.error{border-left:4px solid #c62828;padding-left:1rem}
label{font-weight:600}input{font:inherit;padding:.3rem .5rem;letter-spacing:.1em;text-transform:uppercase}`

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
}

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body>${body}</body></html>`
}

export interface ConsentPageInput {
  readonly action: string
  readonly clientName: string
  readonly userName: string
  readonly scopes: readonly string[]
  /** The authorization request's parameters, posted back with the decision. */
  readonly fields: Readonly<Record<string, string>>
}

export function consentPage(input: ConsentPageInput): Reply {
  const hidden = Object.entries(input.fields)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('')
  const scopes = input.scopes.map((s) => `<li><code>${escapeHtml(s)}</code>: ${escapeHtml(describeScope(s))}</li>`).join('')
  const body = `<h1>Allow ${escapeHtml(input.clientName)} to access your account?</h1>
<p>Signed in as <strong>${escapeHtml(input.userName)}</strong>. <strong>${escapeHtml(input.clientName)}</strong> asks for:</p>
<ul id="scopes">${scopes}</ul>
<p>It will act with your permissions. You can revoke this consent at any time.</p>
<form method="post" action="${escapeHtml(input.action)}">${hidden}<div class="actions">
<button type="submit" name="decision" value="allow">Allow</button>
<button type="submit" name="decision" value="deny">Deny</button></div></form>`
  return html(page(`Consent: ${input.clientName}`, body), { status: 200, headers: { 'cache-control': 'no-store' } })
}

export function errorPage(status: number, title: string, message: string): Reply {
  const body = `<div class="error"><h1>${escapeHtml(title)}</h1><p id="message">${escapeHtml(message)}</p></div>`
  return html(page(title, body), { status, headers: { 'cache-control': 'no-store' } })
}

export type DevicePageInput =
  | { kind: 'enter'; action: string }
  | { kind: 'review'; action: string; userCode: string; clientName: string; userName: string; loginHint: string; scopes: readonly string[] }
  | { kind: 'approved' | 'denied'; clientName: string }
  | { kind: 'invalid'; action: string }

/**
 * The device verification page (RFC 8628 section 3.3): enter the user code the device shows, then
 * allow or deny it; or a result. Every page is plain HTML with a form, usable with a keyboard.
 */
export function devicePage(input: DevicePageInput, status = 200): Reply {
  const enter = (action: string, note: string): string =>
    `<form method="get" action="${escapeHtml(action)}"><p>${note}</p><label for="user_code">Code</label> <input id="user_code" name="user_code" autocomplete="one-time-code" autofocus required> <button type="submit">Continue</button></form>`
  switch (input.kind) {
    case 'enter':
      return html(page('Connect a device', `<h1>Connect a device</h1>${enter(input.action, 'Enter the code your device shows.')}`), { status, headers: { 'cache-control': 'no-store' } })
    case 'invalid':
      return html(page('Code not valid', `<div class="error"><h1>Code not valid</h1><p id="message">This code is not valid or has expired. Start again on your device.</p></div>${enter(input.action, 'Enter another code.')}`), { status, headers: { 'cache-control': 'no-store' } })
    case 'review': {
      const scopes = input.scopes.map((s) => `<li><code>${escapeHtml(s)}</code>: ${escapeHtml(describeScope(s))}</li>`).join('')
      const body = `<h1>Allow ${escapeHtml(input.clientName)} on your device?</h1>
<p>Signed in as <strong>${escapeHtml(input.userName)}</strong>. Check that your device shows <strong id="user-code">${escapeHtml(input.userCode)}</strong>. <strong>${escapeHtml(input.clientName)}</strong> asks for:</p>
<ul id="scopes">${scopes}</ul>
<p>It will act with your permissions. You can revoke this consent at any time.</p>
<form method="post" action="${escapeHtml(input.action)}"><input type="hidden" name="user_code" value="${escapeHtml(input.userCode)}"><input type="hidden" name="login_hint" value="${escapeHtml(input.loginHint)}"><div class="actions">
<button type="submit" name="decision" value="allow">Allow</button>
<button type="submit" name="decision" value="deny">Deny</button></div></form>`
      return html(page(`Device: ${input.clientName}`, body), { status, headers: { 'cache-control': 'no-store' } })
    }
    case 'approved':
    case 'denied': {
      const title = input.kind === 'approved' ? 'Device connected' : 'Access denied'
      const text = input.kind === 'approved' ? `${input.clientName} can now act for you. Return to your device.` : `${input.clientName} was not allowed. Your device will be told.`
      return html(page(title, `<h1>${escapeHtml(title)}</h1><p id="message">${escapeHtml(text)}</p>`), { status, headers: { 'cache-control': 'no-store' } })
    }
  }
}
