/**
 * A probe made into the request one side gets: its address's origin, the path with that side's
 * element parts and webhook filled in, the query, the body, and the credential the probe names as
 * that side has it. A probe a side cannot make (no element given, no credential of the kind) is
 * skipped with the reason, naming what to give.
 */
import type { VerifyProbe } from '../kernel/verify-probe.js'
import { VERSION } from '../version.js'
import type { Credentials, Origins, Place } from './options.js'

/** The request a side gets. */
export interface ProbeRequest {
  readonly url: string
  readonly method: string
  readonly headers: Readonly<Record<string, string>>
  readonly body?: string
}

/** What one side sends with: its addresses, placeholders and credentials. */
export interface SideInputs {
  readonly origins: Origins
  readonly place: Place
  readonly credentials: Credentials
  /** The access token `api` probes send when there is no key. */
  readonly token: string | undefined
}

/** The placeholders and what to give for one that is missing. */
const NEEDS: Readonly<Record<string, string>> = {
  collection: '--element collection/storage/facet/view/element',
  storage: '--element collection/storage/facet/view/element',
  facet: '--element collection/storage/facet/view/element',
  view: '--element collection/storage/facet/view/element',
  element: '--element collection/storage/facet/view/element',
  webhook: '--webhook URL',
}

/** A secret the team never issued, for the wrong-secret probe. */
export const WRONG_SECRET = 'svc-mock-verify-wrong-secret'

const isOrigin = (name: string): name is keyof Origins => name === 'auth' || name === 'base' || name === 'webhook'

/** The request, or why this side cannot send the probe. */
export function buildRequest(probe: VerifyProbe, side: SideInputs): { request: ProbeRequest } | { skip: string } {
  const missing = [...probe.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] ?? '').filter((name) => NEEDS[name] !== undefined && side.place[name] === undefined)
  if (missing[0] !== undefined) return { skip: `needs ${NEEDS[missing[0]] ?? missing[0]}` }
  const authorization = authorizationOf(probe, side)
  if (typeof authorization === 'object') return authorization
  if (!isOrigin(probe.address)) return { skip: `its address "${probe.address}" is none of auth, base, webhook` }
  const path = probe.path.replace(/\{(\w+)\}/g, (whole, name: string) => {
    const value = side.place[name]
    if (value === undefined) return whole
    return name === 'webhook' ? value : encodeURIComponent(value)
  })
  const query = Object.entries(probe.query ?? {})
    .map(([name, value]) => `${encodeURIComponent(name).replace(/^%24/, '$')}=${encodeURIComponent(value)}`)
    .join('&')
  const headers: Record<string, string> = { accept: 'application/json, text/plain, */*', 'user-agent': `svc-mock-verify/${VERSION}`, ...probe.headers }
  if (authorization !== undefined) headers.authorization = authorization
  let body: string | undefined
  if (probe.form !== undefined) {
    body = new URLSearchParams(probe.form).toString()
    headers['content-type'] = 'application/x-www-form-urlencoded'
  } else if (probe.json !== undefined) {
    body = JSON.stringify(probe.json)
    headers['content-type'] = 'application/json'
  }
  const url = `${side.origins[probe.address]}${path}${query === '' ? '' : `${path.includes('?') ? '&' : '?'}${query}`}`
  return { request: { url, method: probe.method, headers, ...(body === undefined ? {} : { body }) } }
}

const basic = (id: string, secret: string): string => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`

/** The Authorization header the probe's credential makes, none, or why there is none. */
function authorizationOf(probe: VerifyProbe, side: SideInputs): string | undefined | { skip: string } {
  const { client, key } = side.credentials
  switch (probe.credential) {
    case 'none':
      return undefined
    case 'secret':
    case 'wrong-secret':
      if (client === undefined) return { skip: 'needs --client-id and --client-secret' }
      return basic(client.id, probe.credential === 'secret' ? client.secret : WRONG_SECRET)
    case 'api':
      if (key !== undefined) return key.kind === 'user' ? `Bearer ${key.value}` : `AppKey ${key.value}`
      if (side.token !== undefined) return `Bearer ${side.token}`
      return { skip: client === undefined ? 'needs --api-key or --client-id/--client-secret' : 'no access token: the token probe got none' }
  }
}
