/**
 * Matching a request's redirect_uri against the client's registered list: exact, character for
 * character, except that a registered loopback URI (`http://127.0.0.1`, `http://[::1]`,
 * `http://localhost`) matches on any port, as RFC 8252 section 7.3 asks for native apps. Without
 * a redirect_uri the client's only registered URI is used; with several, the request must say.
 */

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost'])

export type RedirectMatch = { uri: string } | { problem: string }

export function matchRedirectUri(registered: readonly string[], given: string | undefined): RedirectMatch {
  if (registered.length === 0) {
    return { problem: 'The client has no registered redirect URI, so svc-mock cannot send the answer anywhere. Register one on the client (redirectUris).' }
  }
  if (given === undefined) {
    const only = registered.length === 1 ? registered[0] : undefined
    if (only !== undefined) return { uri: only }
    return { problem: `The request has no redirect_uri and the client registers several (${registered.join(', ')}). Send the one to use.` }
  }
  if (registered.some((uri) => uri === given || loopbackMatch(uri, given))) return { uri: given }
  return {
    problem: `The redirect_uri "${given}" is not registered for this client. Registered: ${registered.join(', ')} (loopback addresses match on any port). svc-mock never redirects to an unregistered address.`,
  }
}

function loopbackMatch(registered: string, given: string): boolean {
  let a: URL
  let b: URL
  try {
    a = new URL(registered)
    b = new URL(given)
  } catch {
    return false
  }
  if (a.protocol !== 'http:' || !LOOPBACK_HOSTS.has(a.hostname)) return false
  return b.protocol === a.protocol && b.hostname === a.hostname && b.pathname === a.pathname && b.search === a.search && b.hash === '' && b.username === '' && b.password === ''
}

/** The redirect URI with the answer's parameters added to whatever query it already has. */
export function redirectTo(uri: string, params: Record<string, string | undefined>): string {
  const url = new URL(uri)
  for (const [name, value] of Object.entries(params)) if (value !== undefined) url.searchParams.append(name, value)
  return url.toString()
}
