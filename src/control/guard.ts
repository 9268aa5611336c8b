/**
 * The control plane needs no credential, so it guards itself against other web pages open in the
 * tester's browser: a request whose `Host` is not a loopback name or one of the emulator's own
 * hosts is refused (421, against DNS rebinding); one whose `Origin` is not the origin it was sent
 * to (`null` included), or that the browser marks `Sec-Fetch-Site: cross-site` or `same-site`, is
 * refused (403), except a link followed to a page (a top-level GET navigation, which lets the other
 * page read nothing: another team's dashboard links here, and a team on another port of the same
 * host is the same site); a change (POST, PUT, PATCH, DELETE) that carries a body must be `application/json`
 * (415), which a plain HTML form cannot send. A change without a body needs no Content-Type, so
 * `curl -X POST …/__svc-mock/reset` just works: browsers send `Origin` on every cross-origin change,
 * so the origin check already stops other pages.
 */
import { ControlError } from '../kernel/errors.js'
import type { RequestContext } from '../kernel/route.js'

/** 403: sent by a page of another origin. */
export class ForeignOriginError extends ControlError<'ERR_FOREIGN_ORIGIN'> {
  readonly code = 'ERR_FOREIGN_ORIGIN'
  readonly status = 403
}

/** 415: a change that is not JSON. */
export class NotJsonError extends ControlError<'ERR_NOT_JSON'> {
  readonly code = 'ERR_NOT_JSON'
  readonly status = 415
}

/** 421: addressed to a host name the emulator does not answer to (DNS rebinding). */
export class MisdirectedRequestError extends ControlError<'ERR_MISDIRECTED'> {
  readonly code = 'ERR_MISDIRECTED'
  readonly status = 421
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]', '::1'])
const CHANGES = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])
const OTHER_SITES = new Set(['cross-site', 'same-site'])
const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i

/** The host names the control plane answers to: loopback, and the hosts of the emulator's addresses. */
export function allowedHosts(origins: readonly string[]): Set<string> {
  return new Set([...LOOPBACK, ...origins.map((url) => new URL(url).hostname)])
}

export async function guard(ctx: RequestContext, hosts: ReadonlySet<string>): Promise<void> {
  const host = ctx.headers.get('host') ?? ctx.url.host
  const hostname = hostnameOf(host)
  if (hostname === undefined || !(hosts.has(hostname) || hostname.endsWith('.localhost'))) {
    throw new MisdirectedRequestError(
      `The control plane answers only to ${[...hosts].join(', ')}; this request was addressed to "${host}". If clients reach svc-mock under another name, start it with --public-url.`,
      'host',
    )
  }
  const origin = ctx.headers.get('origin')
  if (origin !== null && origin !== `${ctx.url.protocol}//${host}`) {
    throw new ForeignOriginError(`The control plane refuses requests sent by a page of another origin (Origin: ${origin}).`, 'origin')
  }
  const site = ctx.headers.get('sec-fetch-site')
  if (site !== null && OTHER_SITES.has(site.trim().toLowerCase()) && !followedLink(ctx)) {
    throw new ForeignOriginError(`The control plane refuses requests sent by a page of another site (Sec-Fetch-Site: ${site}).`, 'sec-fetch-site')
  }
  const type = ctx.headers.get('content-type')
  if (CHANGES.has(ctx.method) && !JSON_TYPE.test(type ?? '') && (await hasBody(ctx))) {
    throw new NotJsonError(
      `A change to the control plane with a body must send it as JSON: set Content-Type: application/json (a change without a body needs none). Got ${type ?? 'no Content-Type'}.`,
      'content-type',
    )
  }
}

/** Whether the request carries at least one byte (an empty body, as `fetch(…, { body: '' })` sends, is none). */
async function hasBody(ctx: RequestContext): Promise<boolean> {
  if (ctx.body === null) return false
  if (ctx.body.length !== undefined && ctx.body.length > 0) return true
  return (await ctx.body.bytes()).byteLength > 0
}

/** A link followed to a page: a top-level navigation that only reads (Fetch Metadata's resource isolation policy). */
function followedLink(ctx: RequestContext): boolean {
  return (ctx.method === 'GET' || ctx.method === 'HEAD') && ctx.headers.get('sec-fetch-mode') === 'navigate' && !['object', 'embed'].includes(ctx.headers.get('sec-fetch-dest') ?? '')
}

function hostnameOf(host: string): string | undefined {
  try {
    return new URL(`http://${host}`).hostname
  } catch {
    return undefined
  }
}
