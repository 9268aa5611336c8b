/**
 * The names svc-mock's local CA may vouch for, and nothing else: `localhost`, `test` and
 * `internal` with every name under them (names no public site can hold: RFC 6761 reserves the
 * first two, ICANN the third), and the loopback addresses 127.0.0.0/8 and ::1. The CA carries
 * them as X.509 Name Constraints, so a CA trusted shell-wide is trusted for no real site.
 */
import { isIP } from 'node:net'

/**
 * dNSName constraints, written without a leading dot: RFC 5280 reads `test` as `test` and every
 * name under it, and so do OpenSSL (Node.js, Python, curl) and Chromium, while `.test` would leave
 * out `test` itself in both (and `.localhost` would leave out `localhost`).
 */
export const LOCAL_DNS_NAMES: readonly string[] = ['localhost', 'test', 'internal']

/** iPAddress constraints, as address/prefix length. */
export const LOCAL_IP_RANGES: readonly string[] = ['127.0.0.0/8', '::1/128']

/** How the constraints read in a message. */
export const LOCAL_NAMES_TEXT = 'localhost, *.localhost, *.test, *.internal, 127.0.0.0/8 and ::1'

/** True when the local CA may vouch for `name` (a host name, or an IP address with or without brackets). */
export function isLocalName(name: string): boolean {
  const bare = name.replace(/^\[|\]$/g, '').replace(/\.$/, '').toLowerCase()
  const family = isIP(bare)
  if (family === 4) return bare.split('.')[0] === '127'
  if (family === 6) return new URL(`http://[${bare}]/`).hostname === '[::1]'
  return LOCAL_DNS_NAMES.some((domain) => bare === domain || bare.endsWith(`.${domain}`))
}

/** A name the server would be dialled by that the local CA cannot vouch for, and the option that gave it. */
export interface UnvouchableName {
  readonly option: 'host' | 'publicUrl'
  readonly name: string
}

/** The first name clients are told to dial (the bound address, the public URL's host) outside the local names. */
export function unvouchableName(host: string, publicUrl: string | undefined): UnvouchableName | undefined {
  const bound = host.replace(/^\[|\]$/g, '')
  // An address that binds every interface is never dialled: the banner gives 127.0.0.1.
  if (bound !== '0.0.0.0' && bound !== '::' && !isLocalName(bound)) return { option: 'host', name: bound }
  if (publicUrl === undefined) return undefined
  const name = new URL(publicUrl).hostname
  return isLocalName(name) ? undefined : { option: 'publicUrl', name: name.replace(/^\[|\]$/g, '') }
}
